/**
 * Whether a string may be an entry of `[environment] pythonpath`: the rule
 * the settings' schema enforces, and what a message suggesting such an
 * entry checks first. Pure.
 *
 * @module
 */

/**
 * Why `value` cannot be a `pythonpath` entry, or `undefined` when it can.
 *
 * @example
 * ```ts
 * import { pythonpathProblem } from "./pythonpath_problem.ts";
 * if (pythonpathProblem("src") !== undefined) throw new Error();
 * if (pythonpathProblem("../elsewhere") === undefined) throw new Error();
 * ```
 */
export function pythonpathProblem(value: string): string | undefined {
  if (value === "") return "must not be empty";
  if (/[\0:\n\r]/.test(value)) {
    return 'must be a directory path without NUL, newlines or ":" (the PYTHONPATH separator)';
  }
  if (value.startsWith("/")) {
    return 'must be relative to the repository root (such as "src"), not absolute';
  }
  if (value === ".") return undefined;
  const parts = value.replace(/\/+$/, "").split("/");
  if (parts.some((p) => p === ".." || p === "." || p === "")) {
    return 'must stay inside the repository: no "..", "." or empty parts';
  }
  return undefined;
}
