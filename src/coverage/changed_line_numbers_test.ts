import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { changedLineNumbers } from "./changed_line_numbers.ts";

Deno.test("changedLineNumbers() lists the head's added and changed lines", async (t) => {
  const cases: [string, string | undefined, string, number[]][] = [
    ["a new file is changed whole", undefined, "a\nb\n", [1, 2]],
    ["the same text has no change", "a\nb\n", "a\nb\n", []],
    ["a changed line", "a\nb\nc\n", "a\nB\nc\n", [2]],
    ["an added line", "a\nc\n", "a\nb\nc\n", [2]],
    ["a removed line changes no head line", "a\nb\nc\n", "a\nc\n", []],
    ["a moved block counts where it landed", "a\nb\nc\nd\n", "c\nd\na\nb\n", [
      3,
      4,
    ]],
    ["line ends do not count", "a\r\nb\r\n", "a\nb\n", []],
    ["a last line without an end", "a\nb", "a\nb\nc", [3]],
  ];
  for (const [name, base, head, expected] of cases) {
    await t.step(name, () => {
      deepEqual(changedLineNumbers(base, head), expected);
    });
  }
});

Deno.test("changedLineNumbers() keeps every line of a longest common subsequence", () => {
  const lines = fc.array(fc.constantFrom("a", "b", "c", "d"), {
    maxLength: 30,
  });
  fc.assert(fc.property(lines, lines, (base, head) => {
    const changed = changedLineNumbers(base.join("\n"), head.join("\n"));
    const kept = head.filter((_, i) => !changed.includes(i + 1));
    // The kept lines are a subsequence of the base, as long as the LCS.
    let j = 0;
    for (const line of base) if (line === kept[j]) j++;
    deepEqual(j, kept.length);
    deepEqual(kept.length, lcsLength(base, head));
  }));
});

function lcsLength(a: string[], b: string[]): number {
  const row = new Array(b.length + 1).fill(0) as number[];
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = x === b[j - 1]
        ? diagonal + 1
        : Math.max(above, row[j - 1] as number);
      diagonal = above;
    }
  }
  return row[b.length] as number;
}
