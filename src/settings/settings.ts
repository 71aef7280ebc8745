/**
 * pawl's own settings, read from `pawl.toml` at the base commit only.
 *
 * @module
 */
import { z } from "zod";

/** The `[tests]` table: how the suite is run. */
export const TestsSettingsSchema = z.strictObject({
  /** Which runner's conventions apply (report format, selection syntax). */
  runner: z.enum(["pytest", "deno"]).default("pytest"),
  /** argv of the test command; pawl appends its report and selection flags. */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** Wall-clock limit for one run of the suite. */
  timeout_seconds: z.number().int().min(1).max(24 * 3600).default(600),
  /** Output cap for one run, in MiB. */
  max_output_mib: z.number().int().min(1).max(1024).default(16),
  /** Process cap for the sandbox uid. */
  max_processes: z.number().int().min(8).max(65536).default(512),
});

/** The whole `pawl.toml`. */
export const SettingsSchema = z.strictObject({
  tests: TestsSettingsSchema.default({
    runner: "pytest",
    timeout_seconds: 600,
    max_output_mib: 16,
    max_processes: 512,
  }),
});

/** Typed settings after defaults. */
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings used when the base commit has no `pawl.toml`. */
export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
