/**
 * The runner's part of a setup cache key: which image (`/etc/os-release`)
 * and which interpreters, by the bytes of the files they resolve to on the
 * sandbox PATH. Another Python, or the same path with other bytes after an
 * image update, is another key.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { ProgramIdentity, RunnerIdentity } from "./setup_key.ts";
import { programCandidates } from "../core/program_candidates.ts";

/** Options for {@linkcode readRunnerIdentity}. */
export interface ReadRunnerIdentityOptions {
  /** The sandbox PATH. */
  path: string;
  /** Programs to resolve (a name is looked up on `path`; a path is taken as is). */
  programs: readonly string[];
  /** The os-release file (default `/etc/os-release`). */
  osRelease?: string;
}

/** Resolve and hash the runner's programs and image. */
export async function readRunnerIdentity(
  options: ReadRunnerIdentityOptions,
): Promise<RunnerIdentity> {
  const programs: ProgramIdentity[] = [];
  for (const name of [...new Set(options.programs)]) {
    const resolved = await resolveProgram(name, options.path);
    programs.push({
      name,
      path: resolved ?? null,
      sha256: resolved === undefined ? null : await sha256File(resolved),
    });
  }
  const osRelease = options.osRelease ?? "/etc/os-release";
  let os: string | null = null;
  try {
    os = await sha256File(await Deno.realPath(osRelease));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return { osRelease: os, path: options.path, programs };
}

/** The canonical path of `name` as execvp would find it on `path`. */
async function resolveProgram(
  name: string,
  path: string,
): Promise<string | undefined> {
  for (const candidate of programCandidates(name, path)) {
    try {
      const real = await Deno.realPath(candidate);
      const info = await Deno.stat(real);
      if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) return real;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  const file = await Deno.open(path, { read: true });
  // Reading the stream to its end closes the file.
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}
