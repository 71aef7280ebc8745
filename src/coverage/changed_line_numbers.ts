/**
 * Which lines of a file's head text the pull request added or changed: the
 * head's lines outside a longest common subsequence of the base's and the
 * head's lines (Myers' O((N+M)D) algorithm, the one `git diff` uses by
 * default). A file the base lacks is changed whole.
 *
 * @module
 */

/** The most edits a diff explores before it counts the rest of the file as changed. */
export const MAX_EDITS = 20_000;

/**
 * The 1-based line numbers of `headText` that are not in `baseText`
 * (added or changed), ascending. Line ends do not count: `\r\n` and `\n`
 * are the same line.
 *
 * @example
 * ```ts
 * import { changedLineNumbers } from "./changed_line_numbers.ts";
 * const lines = changedLineNumbers("a\nb\nc\n", "a\nB\nc\nd\n");
 * if (lines.join() !== "2,4") throw new Error();
 * ```
 */
export function changedLineNumbers(
  baseText: string | undefined,
  headText: string,
): number[] {
  const head = splitLines(headText);
  if (baseText === undefined) return head.map((_, i) => i + 1);
  const base = splitLines(baseText);
  // The common head and tail are kept without search.
  let start = 0;
  while (
    start < base.length && start < head.length && base[start] === head[start]
  ) start++;
  let endBase = base.length;
  let endHead = head.length;
  while (
    endBase > start && endHead > start &&
    base[endBase - 1] === head[endHead - 1]
  ) {
    endBase--;
    endHead--;
  }
  const kept = commonHeadLines(
    base.slice(start, endBase),
    head.slice(start, endHead),
  );
  const out: number[] = [];
  for (let i = start; i < endHead; i++) {
    if (!kept.has(i - start)) out.push(i + 1);
  }
  return out;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n").map((l) =>
    l.endsWith("\r") ? l.slice(0, -1) : l
  );
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Indices of `b`'s lines in a longest common subsequence with `a` (Myers'
 * greedy forward search with the trace kept for the way back); none when
 * the two differ by more than {@linkcode MAX_EDITS} lines.
 */
function commonHeadLines(a: string[], b: string[]): Set<number> {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
        ? v[offset + k + 1]!
        : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  const kept = new Set<number>();
  if (found < 0) return kept;
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const before = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d ||
      (k !== d && before[offset + k - 1]! < before[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = before[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      kept.add(y);
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    kept.add(y);
  }
  return kept;
}
