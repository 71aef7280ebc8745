import assert from "node:assert/strict";
import { overreachingReasons } from "./reason_reach.ts";
import type { MutantOutcome } from "./summarize.ts";

const SOURCE = [
  "function f(a) {", // 1
  "  // Stryker disable StringLiteral: only a log reads it", // 2
  '  log("x");', // 3
  "  if (a) {", // 4
  '    return "y";', // 5
  "    // Stryker restore StringLiteral", // 6
  "  }", // 7
  '  return "z";', // 8
  "}", // 9
  "// Stryker disable next-line StringLiteral: a name nobody reads", // 10
  'const n = "n";', // 11
  "// Stryker disable BooleanLiteral: never read", // 12
  "const b = true;", // 13
].join("\n");

function ignored(
  line: number,
  reason: string,
  mutatorName = "StringLiteral",
): MutantOutcome {
  return {
    fileName: "/p/f.ts",
    mutatorName,
    status: "Ignored",
    statusReason: reason,
    location: { start: { line, column: 1 } },
  };
}

Deno.test("overreachingReasons() finds the mutants a reason leaves out below a restore Stryker does not read", () => {
  const log = "only a log reads it";
  const found = overreachingReasons(SOURCE, [
    ignored(3, log),
    ignored(5, log),
    ignored(8, log),
    ignored(11, "a name nobody reads"),
    ignored(13, "never read", "BooleanLiteral"),
    { ...ignored(8, log), status: "Killed" },
    { ...ignored(8, "excluded mutator"), statusReason: "excluded mutator" },
  ]);
  assert.deepEqual(
    found.map((o) => [o.mutant.location.start.line, o.comment, o.restore]),
    [[8, 2, 6], [13, 12, undefined]],
  );
});

Deno.test("overreachingReasons() takes a restore of all mutators or of another list that names the mutator", () => {
  const source = [
    "// Stryker disable StringLiteral,BooleanLiteral: r", // 1
    'const a = "a";', // 2
    "// Stryker restore BooleanLiteral", // 3
    'const b = "b";', // 4
    "// Stryker restore all", // 5
    'const c = "c";', // 6
  ].join("\n");
  const found = overreachingReasons(source, [
    ignored(2, "r"),
    ignored(4, "r"),
    ignored(6, "r"),
  ]);
  assert.deepEqual(
    found.map((o) => [o.mutant.location.start.line, o.restore]),
    [
      [6, 5],
    ],
  );
});
