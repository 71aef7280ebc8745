/**
 * A mutant: one small change to the code under test that a strong oracle
 * should notice.
 *
 * @module
 */
import { MUTATION_OPERATOR_NAMES } from "../settings/mutation_settings.ts";

/** The kinds of change pawl makes, as `[mutation] operators` names them. */
export type MutationOperator =
  /** `<` ↔ `<=`, `==` ↔ `!=`, `in` ↔ `not in`, `is` ↔ `is not`, … */
  | "comparison"
  /** `and` ↔ `or`, `not x` → `x`. */
  | "boolean"
  /** `+` ↔ `-`, `*` ↔ `/`, `//` → `/`, `%` → `*`, `**` → `*`, augmented forms. */
  | "arithmetic"
  /** An integer off by one, a non-empty string emptied, `True` ↔ `False`. */
  | "constant"
  /** A statement of a function body replaced by `pass`. */
  | "statement"
  /** `return None` before a function body's first statement; a returned value replaced by `None`. */
  | "return"
  /** The condition of an `if`, `elif`, `while` or conditional expression negated. */
  | "negate"
  /** One bound or the step of a slice dropped. */
  | "slice";

/**
 * Every operator, in report order: the names `[mutation] operators` takes.
 * The assignment checks that the settings name no operator unknown here.
 */
export const MUTATION_OPERATORS: readonly MutationOperator[] =
  MUTATION_OPERATOR_NAMES;
// ...and that they name every operator known here.
const _everyOperatorNamed: readonly (typeof MUTATION_OPERATOR_NAMES)[number][] =
  [] as MutationOperator[];

/** One mutant of one file. */
export interface Mutant {
  /** Stable id: a digest of file, range and replacement (`m` + 12 hex digits). */
  id: string;
  /** Repository-relative file. */
  file: string;
  /** Qualified name of the function the change is in (`Class.method`). */
  function: string;
  /** 1-based line of the change's start. */
  line: number;
  /** 1-based column of the change's start. */
  column: number;
  /** 1-based line of the change's end. */
  endLine: number;
  /** 1-based column just after the change's end. */
  endColumn: number;
  /** Start offset into the file's decoded text (UTF-16 code units). */
  start: number;
  /** End offset (exclusive). */
  end: number;
  /** The text replaced. */
  original: string;
  /** What replaces it. */
  replacement: string;
  /** The kind of change. */
  operator: MutationOperator;
}

/**
 * The mutant in one line, as findings list it: `file:line operator
 * "original" → "replacement"`.
 *
 * @example
 * ```ts
 * import { describeMutant } from "./mutant.ts";
 * const m = { id: "m0", file: "m.py", function: "f", line: 3, column: 1,
 *   endLine: 3, endColumn: 2, start: 0, end: 1, original: "<",
 *   replacement: "<=", operator: "comparison" as const };
 * if (describeMutant(m) !== 'm.py:3 comparison "<" → "<="') throw new Error();
 * ```
 */
export function describeMutant(m: Mutant): string {
  return `${m.file}:${m.line} ${m.operator} ${JSON.stringify(m.original)} → ${
    JSON.stringify(m.replacement)
  }`;
}

/** The file's text with the mutant applied. */
export function applyMutant(text: string, mutant: Mutant): string {
  return text.slice(0, mutant.start) + mutant.replacement +
    text.slice(mutant.end);
}

/**
 * The mutant as a small unified diff of the lines it touches, headed by
 * `file:line`.
 *
 * @example
 * ```ts
 * import { renderMutantDiff } from "./mutant.ts";
 * const diff = renderMutantDiff("x = a < b\n", {
 *   id: "m0", file: "m.py", function: "f", line: 1, column: 7, endLine: 1,
 *   endColumn: 8, start: 6, end: 7, original: "<", replacement: "<=",
 *   operator: "comparison",
 * });
 * if (!diff.includes("+x = a <= b")) throw new Error(diff);
 * ```
 */
export function renderMutantDiff(text: string, mutant: Mutant): string {
  const lineStart = text.lastIndexOf("\n", mutant.start - 1) + 1;
  const nl = text.indexOf("\n", Math.max(mutant.end, mutant.start));
  const lineEnd = nl === -1 ? text.length : nl;
  const before = text.slice(lineStart, lineEnd);
  const after = text.slice(lineStart, mutant.start) + mutant.replacement +
    text.slice(mutant.end, lineEnd);
  const minus = before.split("\n").map((l) => `-${l}`);
  const plus = after.split("\n").map((l) => `+${l}`);
  return [
    `--- ${mutant.file}:${mutant.line}`,
    `+++ ${mutant.file}:${mutant.line} (${mutant.operator} mutant ${mutant.id})`,
    ...minus,
    ...plus,
  ].join("\n");
}
