/**
 * The `[environment.setup]` table of `pawl.toml`: a command the base runs
 * once, in its own sandboxed step, to give the tests their dependencies.
 * Its output directory is cached on the runner, keyed by the command and
 * the base's copies of the files it names.
 *
 * @module
 */
import { z } from "zod";

/** A repository-relative path: no leading `/`, no `..`, no empty part. */
const inputPathSchema = z.string().min(1).refine(
  (p) =>
    !p.startsWith("/") &&
    p.replace(/\/$/, "").split("/").every((part) =>
      part !== "" && part !== "." && part !== ".."
    ),
  'must be a repository-relative path without "..", "." or empty parts',
);

/** The `[environment.setup]` table. */
export const SetupSettingsSchema = z.strictObject({
  /**
   * argv of the setup command; it runs in a directory holding only the
   * base's `inputs` and writes what the tests need into `$PAWL_ENV_DIR`.
   */
  command: z.array(z.string().min(1)).min(1),
  /**
   * Files (or directories, ending in `/`) at the base whose contents key
   * the cache and are the only part of the repository the command sees:
   * a lockfile, `requirements*.txt`, vendored wheels.
   */
  inputs: z.array(inputPathSchema).default([]),
  /** Give this step (and only this step) the runner's network. */
  network: z.boolean().default(false),
  /** Wall-clock limit for the setup step. */
  timeout_seconds: z.number().int().min(1).max(24 * 3600).default(900),
});

/** Typed `[environment.setup]` after defaults. */
export type SetupSettings = z.infer<typeof SetupSettingsSchema>;
