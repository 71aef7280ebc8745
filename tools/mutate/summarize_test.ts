import assert from "node:assert/strict";
import {
  describeMutant,
  type MutantOutcome,
  originalText,
  score,
  tallyByFile,
  total,
} from "./summarize.ts";

const at = (
  fileName: string,
  status: string,
  extra: Partial<MutantOutcome> = {},
): MutantOutcome => ({
  fileName,
  mutatorName: "EqualityOperator",
  replacement: "a <= b",
  status,
  location: { start: { line: 3, column: 7 } },
  ...extra,
});

Deno.test("a tally counts killed and timed-out mutants as detected, survivors and unreached ones as undetected, and keeps the rest out of the score", () => {
  const results = [
    at("/r/src/b.ts", "Killed"),
    at("/r/src/b.ts", "Timeout"),
    at("/r/src/b.ts", "Survived"),
    at("/r/src/a.ts", "NoCoverage"),
    at("/r/src/a.ts", "Ignored"),
    at("/r/src/a.ts", "CompileError"),
    at("/r/src/a.ts", "RuntimeError"),
  ];
  const tallies = tallyByFile(results, "/r");
  assert.deepEqual(tallies, [
    { file: "src/a.ts", detected: 0, undetected: 1, ignored: 1, invalid: 2 },
    { file: "src/b.ts", detected: 2, undetected: 1, ignored: 0, invalid: 0 },
  ]);
  const all = total("all", tallies);
  assert.deepEqual(all, {
    file: "all",
    detected: 2,
    undetected: 2,
    ignored: 1,
    invalid: 2,
  });
  assert.deepEqual(score(all), 50);
  assert.deepEqual(score({ detected: 0, undetected: 0 }), null);
  assert.deepEqual(score({ detected: 9, undetected: 1 }), 90);
});

Deno.test("a mutant is described by its place, its mutator and what the code became, on one line", () => {
  assert.deepEqual(
    describeMutant(at("/r/src/b.ts", "Survived"), "/r"),
    "src/b.ts:3:7 EqualityOperator → a <= b",
  );
  assert.deepEqual(
    describeMutant(
      at("/r/src/b.ts", "Survived", { replacement: "{\n  return x;\n}" }),
      "/r",
    ),
    "src/b.ts:3:7 EqualityOperator → { return x; }",
  );
  assert.deepEqual(
    describeMutant(at("/r/src/b.ts", "Survived", { replacement: "" }), "/r"),
    "src/b.ts:3:7 EqualityOperator",
  );
  assert.deepEqual(
    describeMutant(
      at("/r/src/b.ts", "Survived", { replacement: "x".repeat(100) }),
      "/r",
    ),
    `src/b.ts:3:7 EqualityOperator → ${"x".repeat(77)}...`,
  );
});

Deno.test("with the file's source, a mutant also shows the code it replaced", async (t) => {
  const source = "const a = 1;\nif (a <= b && c) {\n  go();\n}\n";
  const mutant = (
    start: [number, number],
    end: [number, number],
    replacement: string,
  ) => ({
    ...at("/r/src/b.ts", "Survived", { replacement }),
    location: {
      start: { line: start[0], column: start[1] },
      end: { line: end[0], column: end[1] },
    },
  });
  await t.step("a span on one line", () => {
    assert.equal(
      describeMutant(mutant([2, 5], [2, 11], "a > b"), "/r", source),
      "src/b.ts:2:5 EqualityOperator a <= b → a > b",
    );
    assert.equal(
      originalText(source, mutant([2, 5], [2, 16], "").location),
      "a <= b && c",
    );
  });
  await t.step("a span over lines, shown on one", () => {
    assert.equal(
      describeMutant(mutant([2, 18], [4, 2], "{}"), "/r", source),
      "src/b.ts:2:18 EqualityOperator { go(); } → {}",
    );
  });
  await t.step(
    "a span past the text, or without an end, shows only the replacement",
    () => {
      assert.equal(
        originalText(source, mutant([9, 1], [9, 3], "x").location),
        undefined,
      );
      assert.equal(
        describeMutant(at("/r/src/b.ts", "Survived"), "/r", source),
        "src/b.ts:3:7 EqualityOperator → a <= b",
      );
    },
  );
});
