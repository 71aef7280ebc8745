import assert from "node:assert/strict";
import fc from "fast-check";
import { didYouMean } from "./did_you_mean.ts";

Deno.test("didYouMean() suggests only near misses", async (t) => {
  const known = ["min_examples", "module", "name", "id"];
  const cases: [string, string | undefined][] = [
    ["min_exampels", "min_examples"],
    ["Min_Examples", "min_examples"],
    ["modul", "module"],
    ["nam", "name"],
    ["owner", undefined],
    ["examples", undefined],
    ["i", undefined],
  ];
  for (const [name, expected] of cases) {
    await t.step(name, () => assert.equal(didYouMean(name, known), expected));
  }
});

Deno.test("didYouMean() allows at most a third of the longer name's length, and never more than three edits", async (t) => {
  const cases: [string, string, string[], string | undefined][] = [
    ["one edit in a name of three", "nme", ["name"], "name"],
    ["one edit in a name of two", "ix", ["id"], undefined],
    ["two edits in a name of six", "mdle", ["module"], "module"],
    ["two edits where a third allows one", "ab", ["abcde"], undefined],
    [
      "three edits in a name of nine",
      "min_exmpl",
      ["min_examples"],
      "min_examples",
    ],
    ["four edits in a name of twelve", "min_exam", ["min_examples"], undefined],
    ["the name itself is no suggestion", "name", ["name"], undefined],
    ["the nearer of two", "nam", ["nxmx", "name"], "name"],
    ["the first of two as near", "nme", ["nme1", "nme2"], "nme1"],
  ];
  for (const [name, typed, known, want] of cases) {
    await t.step(name, () => assert.equal(didYouMean(typed, known), want));
  }
});

/** Levenshtein distance, written the plain recursive way. */
function distance(a: string, b: string): number {
  const memo = new Map<string, number>();
  const d = (i: number, j: number): number => {
    if (i === 0) return j;
    if (j === 0) return i;
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const value = Math.min(
      d(i - 1, j) + 1,
      d(i, j - 1) + 1,
      d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
    );
    memo.set(key, value);
    return value;
  };
  return d(a.length, b.length);
}

Deno.test("didYouMean() suggests the first known name at the least edit distance within the allowance", () => {
  const word = fc.stringMatching(/^[abc_]{0,9}$/);
  fc.assert(
    fc.property(word, fc.array(word, { maxLength: 5 }), (typed, known) => {
      let want: string | undefined;
      let best = Infinity;
      for (const candidate of known) {
        if (candidate === typed) continue;
        const edits = distance(typed, candidate);
        const allowed = Math.min(
          3,
          Math.floor(Math.max(typed.length, candidate.length) / 3),
        );
        if (edits <= allowed && edits < best) [want, best] = [candidate, edits];
      }
      assert.equal(didYouMean(typed, known), want);
    }),
    { numRuns: 500 },
  );
});
