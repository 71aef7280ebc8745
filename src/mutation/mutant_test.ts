import assert from "node:assert/strict";
import { applyMutant, type Mutant, renderMutantDiff } from "./mutant.ts";

/** A mutant of `text` replacing `original`, found at its `nth` occurrence. */
function mutantOf(
  text: string,
  original: string,
  replacement: string,
  nth = 0,
): Mutant {
  let start = -1;
  for (let i = 0; i <= nth; i++) start = text.indexOf(original, start + 1);
  const line = text.slice(0, start).split("\n").length;
  return {
    id: "m000000000000",
    file: "m.py",
    function: "f",
    line,
    column: start - text.lastIndexOf("\n", start - 1),
    endLine: line + original.split("\n").length - 1,
    endColumn: 1,
    start,
    end: start + original.length,
    original,
    replacement,
    operator: "constant",
  };
}

Deno.test("renderMutantDiff() shows the whole lines the mutant touches, before and after", async (t) => {
  const cases: [string, string, string, string, number, string[]][] = [
    ["a mutant mid-line", "def f(a, b):\n    return a < b\n", "<", "<=", 0, [
      "-    return a < b",
      "+    return a <= b",
    ]],
    ["at the very start of the text", "x = 1\ny = 2\n", "x", "z", 0, [
      "-x = 1",
      "+z = 1",
    ]],
    ["the last character of a line", "x = 1\ny = 2\n", "1", "2", 0, [
      "-x = 1",
      "+x = 2",
    ]],
    ["on a last line with no line break", "x = 1\ny = 2", "2", "3", 0, [
      "-y = 2",
      "+y = 3",
    ]],
    [
      "a statement over two lines made one",
      "def f():\n    g(1,\n      2)\n    return 0\n",
      "g(1,\n      2)",
      "pass",
      0,
      ["-    g(1,", "-      2)", "+    pass"],
    ],
    ["an insertion", "def f():\n    return 1\n", "", "return None\n    ", 0, [
      "-def f():",
      "+return None",
      "+    def f():",
    ]],
  ];
  for (const [name, text, original, replacement, nth, lines] of cases) {
    await t.step(name, () => {
      const mutant = mutantOf(text, original, replacement, nth);
      assert.deepEqual(
        renderMutantDiff(text, mutant).split("\n"),
        [
          `--- m.py:${mutant.line}`,
          `+++ m.py:${mutant.line} (constant mutant m000000000000)`,
          ...lines,
        ],
      );
    });
  }
});

Deno.test("applyMutant() replaces exactly the mutant's span", () => {
  const text = "def f(a, b):\n    return a < b\n";
  assert.equal(
    applyMutant(text, mutantOf(text, "<", "<=")),
    "def f(a, b):\n    return a <= b\n",
  );
  assert.equal(
    applyMutant(text, mutantOf(text, "return a < b", "pass")),
    "def f(a, b):\n    pass\n",
  );
});
