/**
 * The demo's result table: one row per patch (patch, verdict, rule), and
 * the reason on its own indented lines, wrapped at word boundaries to the
 * terminal's width, so nothing wraps mid-cell and no advice is cut.
 *
 * @module
 */

/** One patch's result. */
export interface DemoRow {
  /** The agent branch. */
  patch: string;
  /** `accept` or `reject`. */
  verdict: string;
  /** The deciding rule, or `-`. */
  rule: string;
  /** The deciding finding's message, or why the patch passed. */
  reason: string;
}

/** Width used when the output is not a terminal. */
export const DEFAULT_DEMO_WIDTH = 100;

/**
 * Lay out `rows` within `width` columns (at least 40).
 *
 * @example
 * ```ts
 * import { formatDemoTable } from "./_demo_table.ts";
 * const text = formatDemoTable([{ patch: "a", verdict: "accept", rule: "-", reason: "ok" }], 80);
 * if (!text.includes("    ok\n")) throw new Error(text);
 * ```
 */
export function formatDemoTable(
  rows: readonly DemoRow[],
  width: number = DEFAULT_DEMO_WIDTH,
): string {
  const columns = Math.max(40, width);
  const header: [string, string, string] = ["patch", "verdict", "rule"];
  const cells = rows.map((r): [string, string, string] => [
    r.patch,
    r.verdict,
    r.rule,
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.map((c) => c[i]!.length))
  );
  const line = (c: readonly string[]) =>
    c.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w)))];
  rows.forEach((row, i) => {
    out.push(line(cells[i]!));
    out.push(...wrap(row.reason, columns - 4).map((l) => `    ${l}`));
  });
  return out.join("\n") + "\n";
}

/** Break `text` into lines of at most `width` characters at spaces; a longer word gets a line of its own. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (current === "") current = word;
    else if (current.length + 1 + word.length <= width) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current !== "") lines.push(current);
  return lines;
}
