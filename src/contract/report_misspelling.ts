/**
 * A misspelt key in a file read against a schema raises two problems: the
 * unknown key, and the key it was meant to be, now "missing". The
 * misspelling is the one to report, with its "did you mean".
 *
 * @module
 */

/** The parts of a described schema problem this rule reads. */
export interface KeyProblem {
  /** The key path, formatted as the file's reader formats it. */
  key: string;
  /** For an unknown key: the key path it was probably meant to be. */
  meant?: string | undefined;
  /** The problem is a missing key. */
  missing?: boolean | undefined;
}

/**
 * `problems` without each missing key that an unknown key was probably
 * meant to be; order kept.
 *
 * @example
 * ```ts
 * import { reportMisspelling } from "./report_misspelling.ts";
 * const left = reportMisspelling([
 *   { key: "tests.command", missing: true },
 *   { key: "tests.comand", meant: "tests.command" },
 * ]);
 * if (left.length !== 1 || left[0]!.key !== "tests.comand") throw new Error();
 * ```
 */
export function reportMisspelling<T extends KeyProblem>(
  problems: readonly T[],
): T[] {
  const meant = new Set(problems.map((p) => p.meant));
  return problems.filter((p) => !(p.missing === true && meant.has(p.key)));
}
