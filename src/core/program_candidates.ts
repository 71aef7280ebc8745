/**
 * Where execvp would look for a program: `name` itself when it holds a
 * `/`, else `name` in each absolute directory of `path`, in order.
 *
 * @module
 */

/**
 * The paths to try for `name` on the PATH `path`.
 *
 * @example
 * ```ts
 * import { programCandidates } from "./program_candidates.ts";
 * const found = programCandidates("python3", "/opt/venv/bin:bin:/usr/bin");
 * if (found.join(" ") !== "/opt/venv/bin/python3 /usr/bin/python3") throw new Error();
 * ```
 */
export function programCandidates(name: string, path: string): string[] {
  return name.includes("/")
    ? [name]
    : path.split(":").filter((d) => d.startsWith("/")).map((d) =>
      `${d}/${name}`
    );
}
