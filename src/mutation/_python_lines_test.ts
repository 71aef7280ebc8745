import assert from "node:assert/strict";
import fc from "fast-check";
import { linesAt, PythonLines } from "./_python_lines.ts";

/** Texts of a few letters, blanks and every kind of line break. */
const texts = fc.array(fc.constantFrom("a", "b", " ", "\t", "\r", "\n", "\r\n"))
  .map((parts) => parts.join(""));

/** The line starts as Python finds them, one character at a time. */
function startsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\r" && text[i + 1] === "\n") continue;
    if (text[i] === "\r" || text[i] === "\n") starts.push(i + 1);
  }
  return starts;
}

Deno.test("PythonLines ends a line at \\r\\n, \\n and a lone \\r, as Python does", async (t) => {
  const cases: [string, string, number[]][] = [
    ["no break", "ab", [0]],
    ["\\n", "a\nb", [0, 2]],
    ["\\r\\n is one break", "a\r\nb", [0, 3]],
    ["a lone \\r", "a\rb", [0, 2]],
    ["\\n\\r is two", "a\n\rb", [0, 2, 3]],
    ["a break at the end", "a\n", [0, 2]],
    ["empty", "", [0]],
  ];
  for (const [name, text, starts] of cases) {
    await t.step(
      name,
      () => assert.deepEqual(new PythonLines(text).starts, starts),
    );
  }
});

Deno.test("PythonLines looks up each offset's line, its start, its text and its indent as a scan of the text does", () => {
  fc.assert(
    fc.property(
      texts,
      fc.nat(),
      fc.nat(),
      (text, a, b) => {
        const lines = new PythonLines(text);
        const starts = startsOf(text);
        assert.deepEqual(lines.starts, starts);
        const offset = a % (text.length + 1);
        const line = starts.filter((s) => s <= offset).length;
        assert.equal(lines.lineOf(offset), line);
        assert.equal(linesAt(text, [offset]).get(offset), line);
        const start = starts[line - 1]!;
        assert.equal(lines.lineStart(offset), start);
        const next = starts[line] ?? text.length;
        assert.equal(
          lines.text(offset),
          text.slice(offset, next).replace(/\r\n$|\r$|\n$/, ""),
        );
        const before = text.slice(start, offset);
        assert.equal(
          lines.indentBefore(offset),
          /^[ \t]*$/.test(before) ? before : undefined,
        );
        const end = b % (text.length + 2);
        assert.deepEqual(
          lines.startsWithin(offset, end),
          starts.filter((s) => s > offset && s < end),
        );
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("PythonLines.indentBefore() takes spaces, tabs and form feeds, and nothing else", async (t) => {
  const cases: [string, string, number, string | undefined][] = [
    ["spaces", "x\n  y", 4, "  "],
    ["a tab and a form feed", "\t\fy", 2, "\t\f"],
    ["at the line's start", "x\ny", 2, ""],
    ["text first", "x\n a y", 5, undefined],
    ["a non-breaking space", "\u00a0y", 1, undefined],
  ];
  for (const [name, text, offset, indent] of cases) {
    await t.step(
      name,
      () => assert.equal(new PythonLines(text).indentBefore(offset), indent),
    );
  }
});

Deno.test("linesAt() gives the line of every offset asked for", () => {
  assert.deepEqual(
    [...linesAt("a\nb\r\nc\rd", [0, 2, 4, 5, 7, 8])],
    [[0, 1], [2, 2], [4, 2], [5, 3], [7, 4], [8, 4]],
  );
});
