/**
 * Lines as Python counts them: `\r\n`, `\n` and a lone `\r` each end one.
 *
 * @module
 */

const BREAK = /\r\n|\r|\n/g;

/** The line starts of one text, for offset ↔ line look-ups. */
export class PythonLines {
  /** Offset of each line's first character; `starts[0]` is 0. */
  readonly starts: readonly number[];
  readonly #text: string;

  /** Index the line starts of `text`. */
  constructor(text: string) {
    this.#text = text;
    const starts = [0];
    for (const m of text.matchAll(BREAK)) starts.push(m.index + m[0].length);
    this.starts = starts;
  }

  /** The 1-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    // Stryker disable next-line ArithmeticOperator: a probe past the last start reads undefined, which is never at or before an offset, so the search moves down
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the start of the line holding `offset`. */
  lineStart(offset: number): number {
    return this.starts[this.lineOf(offset) - 1] as number;
  }

  /** The blank space between the start of `offset`'s line and `offset`, or undefined when other text comes first. */
  indentBefore(offset: number): string | undefined {
    const before = this.#text.slice(this.lineStart(offset), offset);
    return /^[ \t\f]*$/.test(before) ? before : undefined;
  }

  /** The text of the line holding `offset`, from `offset` to its line break (excluded). */
  text(offset: number): string {
    const next = this.starts[this.lineOf(offset)] ?? this.#text.length;
    // Stryker disable next-line Regex: the slice ends at the next line's start, so its one line break, if any, is its end
    return this.#text.slice(offset, next).replace(/(\r\n|\r|\n)$/, "");
  }

  /** The line starts strictly inside `(start, end)`. */
  startsWithin(start: number, end: number): number[] {
    const out: number[] = [];
    // From the start of the line after `start`'s: the first past `start`.
    for (let i = this.lineOf(start); i < this.starts.length; i++) {
      const p = this.starts[i] as number;
      if (p >= end) break;
      out.push(p);
    }
    return out;
  }
}

/** The 1-based line of each of `offsets` in `text`, counted as Python does. */
export function linesAt(
  text: string,
  offsets: Iterable<number>,
): Map<number, number> {
  const lines = new PythonLines(text);
  const out = new Map<number, number>();
  for (const offset of offsets) out.set(offset, lines.lineOf(offset));
  return out;
}
