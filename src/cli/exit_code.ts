/**
 * The small, stable exit-code set.
 *
 * @module
 */
import type { Decision } from "../core/verdict.ts";

/** 0 accept, 1 reject, 2 could not decide. */
export const EXIT = { accept: 0, reject: 1, undecided: 2 } as const;

/** The exit code for a decision. */
export function exitCodeFor(decision: Decision): number {
  return decision === "accept" ? EXIT.accept : EXIT.reject;
}
