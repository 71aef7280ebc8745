import { deepEqual, equal, match } from "node:assert/strict";
import type { MutantResult } from "../mutation/judge_kill_sets.ts";
import type { Mutant } from "../mutation/mutant.ts";
import type { ObservedLines } from "../run/observation.ts";
import { judgeChangedLines, lineRanges } from "./judge_changed_lines.ts";

const FILE = "src/shop/billing.py";

function observed(
  executable: number[],
  executed: number[],
  removed = false,
): ObservedLines {
  return { files: new Map([[FILE, { executable, executed }]]), removed };
}

function mutant(id: string, line: number): Mutant {
  return {
    id,
    file: FILE,
    function: "invoice_total",
    line,
    column: 5,
    endLine: line,
    endColumn: 9,
    start: 0,
    end: 1,
    original: "total",
    replacement: "None",
    operator: "return",
  } as Mutant;
}

function result(m: Mutant, outcome: MutantResult["base"][string]) {
  return { mutant: m, base: { p: outcome }, head: null, cached: false };
}

const ADVISORY = { changed_lines: "advisory" } as const;
const BLOCKING = { changed_lines: "blocking" } as const;

Deno.test("judgeChangedLines() lists the changed lines no test executed as advisory ranges", () => {
  const j = judgeChangedLines({
    changed: new Map([[FILE, [5, 6, 7, 8, 9, 12]]]),
    observed: observed([6, 7, 8, 9, 12], [6, 7]),
    settings: ADVISORY,
  });
  equal(j.findings.length, 1);
  const [f] = j.findings;
  equal(f?.rule, "tests.changed_code_unexecuted");
  equal(f?.blocking, false);
  equal(f?.path, FILE);
  equal(f?.line, 8);
  match(
    f?.message ?? "",
    /^3 of the 5 executable lines .*\(advisory\): src\/shop\/billing\.py:8-9, src\/shop\/billing\.py:12;/,
  );
  deepEqual(j.report, {
    changed: 6,
    traced: "yes",
    executable: 5,
    unexecuted: 3,
    survivors: 0,
  });
});

Deno.test("judgeChangedLines() blocks only when the base's [coverage] says so", () => {
  const input = {
    changed: new Map([[FILE, [8]]]),
    observed: observed([8], []),
  };
  equal(
    judgeChangedLines({ ...input, settings: ADVISORY }).findings[0]?.blocking,
    false,
  );
  equal(
    judgeChangedLines({ ...input, settings: BLOCKING }).findings[0]?.blocking,
    true,
  );
});

Deno.test("judgeChangedLines() has no finding when every changed line ran, or nothing changed", async (t) => {
  await t.step("every line ran", () => {
    const j = judgeChangedLines({
      changed: new Map([[FILE, [3, 4, 5]]]),
      // Line 5 is blank: it has no code.
      observed: observed([3, 4], [3, 4]),
      settings: BLOCKING,
    });
    deepEqual(j.findings, []);
    equal(j.report?.unexecuted, 0);
  });
  await t.step("no code under test changed", () => {
    deepEqual(
      judgeChangedLines({
        changed: new Map(),
        observed: undefined,
        settings: BLOCKING,
      }),
      { findings: [], report: undefined },
    );
  });
});

Deno.test("judgeChangedLines() calls the lines unknown, never unexecuted, when the probes were switched off or the run reported nothing", async (t) => {
  for (
    const [name, lines, traced] of [
      ["removed", observed([8], [], true), "removed"],
      ["absent", undefined, "absent"],
    ] as const
  ) {
    await t.step(name, () => {
      const j = judgeChangedLines({
        changed: new Map([[FILE, [8]]]),
        observed: lines,
        settings: BLOCKING,
      });
      deepEqual(j.findings.map((f) => [f.rule, f.blocking]), [[
        "tests.changed_code_untraced",
        false,
      ]]);
      deepEqual(j.report, { changed: 1, traced, survivors: 0 });
    });
  }
});

Deno.test("judgeChangedLines() calls a file loaded without probes unknown, never unexecuted", () => {
  const j = judgeChangedLines({
    changed: new Map([[FILE, [8, 9]], ["src/shop/other.py", [3]]]),
    observed: {
      files: new Map([
        [FILE, { executable: [8, 9], executed: [], unprobed: true }],
        ["src/shop/other.py", { executable: [3], executed: [] }],
      ]),
      removed: false,
    },
    settings: BLOCKING,
  });
  deepEqual(j.findings.map((f) => [f.rule, f.path, f.blocking]), [
    ["tests.changed_code_unexecuted", "src/shop/other.py", true],
    ["tests.changed_code_untraced", FILE, false],
  ]);
  deepEqual(j.report, {
    changed: 3,
    traced: "yes",
    executable: 1,
    unexecuted: 1,
    unknown: 2,
    survivors: 0,
  });
});

Deno.test("judgeChangedLines() lists the surviving mutants on changed lines only", () => {
  const onChanged = mutant("m1", 8);
  const killed = mutant("m2", 8);
  const elsewhere = mutant("m3", 20);
  const notCovered = mutant("m4", 9);
  const j = judgeChangedLines({
    changed: new Map([[FILE, [8, 9]]]),
    observed: observed([8, 9], [8, 9]),
    mutants: {
      results: [
        result(onChanged, "survived"),
        result(killed, "killed"),
        result(elsewhere, "survived"),
        result(mutant("m5", 8), "unknown"),
      ],
      notCovered: [notCovered],
    },
    settings: ADVISORY,
  });
  deepEqual(j.findings.map((f) => f.rule), ["tests.changed_code_survivors"]);
  match(
    j.findings[0]?.message ?? "",
    /^2 mutants .*billing\.py:8 return .*billing\.py:9 return/,
  );
  equal(j.report?.survivors, 2);
});

Deno.test("lineRanges() joins consecutive lines", () => {
  deepEqual(lineRanges([1, 2, 3, 5, 7, 8]), ["1-3", "5", "7-8"]);
  deepEqual(lineRanges([]), []);
});
