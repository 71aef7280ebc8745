/**
 * Which warm outcomes claim a kill that must be confirmed one process
 * each: the head's kills and timeouts of what the other side killed.
 */
import assert from "node:assert/strict";
import { claimsOf, confirmKills, keeps, settle } from "./confirm_kills.ts";
import type { KillOutcome, SideOutcomes } from "./judge_kill_sets.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import {
  CODE,
  coldRuns,
  CORE,
  fixture,
  TEST,
} from "./_warm_mutants_fixture.ts";
import { generateMutants } from "./generate_mutants.ts";
import { memoryMutationCache } from "./mutation_cache.ts";
import type { Mutant } from "./mutant.ts";
import type { MutantEngineOptions } from "./mutant_engine.ts";

const parser = await loadPythonParser();

/** Four mutants of one small function. */
const [M1, M2, M3, M4] = generateMutants(
  parser,
  "pkg/m.py",
  "def f(x, y):\n    if x < y:\n        return x + 1\n    return y - 1\n",
) as [Mutant, Mutant, Mutant, Mutant];

Deno.test("keeps() is true only of the outcomes that let a property count as still catching a mutant", () => {
  const table: [KillOutcome | undefined, boolean][] = [
    ["killed", true],
    ["timeout", true],
    ["survived", false],
    ["unknown", false],
    [undefined, false],
  ];
  for (const [outcome, want] of table) {
    assert.equal(keeps(outcome), want, String(outcome));
  }
});

Deno.test("claimsOf() claims only the killers the warm run says still kill, and no mutant with none", () => {
  const claims = claimsOf([
    {
      mutant: M1,
      killers: ["a", "b", "c"],
      warm: { a: "killed", b: "timeout", c: "survived", d: "killed" },
    },
    { mutant: M2, killers: ["a"], warm: { a: "survived" } },
    { mutant: M3, killers: [], warm: { a: "killed" } },
    { mutant: M4, killers: ["a"], warm: {} },
  ]);
  assert.deepEqual(
    claims.map((c) => [c.mutant.id, [...c.keys].sort()]),
    [[M1.id, ["a", "b"]]],
  );
});

Deno.test("confirmKills() runs nothing when nothing is claimed", async () => {
  const progress: string[] = [];
  const refuse = () => {
    throw new Error("no sandbox may run");
  };
  const options = {
    workers: [{ sandbox: { run: refuse }, reportDir: "/", workPath: refuse }],
    progress: (l: string) => progress.push(l),
  } as unknown as MutantEngineOptions;
  const side = { template: "/", properties: [], cacheScope: refuse };
  const out = await confirmKills(options, side, [], "head");
  assert.deepEqual(out, { outcomes: new Map(), findings: [] });
  assert.deepEqual(progress, []);
});

Deno.test("settle() takes the cold word on the claimed properties, and without it keeps only what already tells against the pull request", async (t) => {
  const base: SideOutcomes = { a: "killed", b: "killed", c: "survived" };
  const claim = { mutant: M1, keys: new Set(["a"]) };
  const cases: [
    string,
    SideOutcomes | null,
    SideOutcomes | undefined,
    SideOutcomes | undefined,
  ][] = [
    [
      "confirmed: cold in place of the claimed, the rest kept",
      { a: "killed", b: "survived", c: "killed" },
      { a: "survived" },
      { a: "survived", b: "survived", c: "killed" },
    ],
    ["confirmed, a run lost warm", null, { a: "killed" }, { a: "killed" }],
    [
      "unconfirmed, another killer let it survive",
      { a: "killed", b: "survived" },
      undefined,
      { b: "survived" },
    ],
    [
      "unconfirmed, only a property that never killed it let it survive",
      { a: "killed", c: "survived" },
      undefined,
      undefined,
    ],
    [
      "unconfirmed, every other killer kills too",
      { a: "killed", b: "killed" },
      undefined,
      undefined,
    ],
    ["unconfirmed, a run lost warm", null, undefined, undefined],
    [
      "unconfirmed, one other killer let it survive and a non-killer too",
      { a: "killed", b: "survived", c: "survived" },
      undefined,
      { b: "survived", c: "survived" },
    ],
  ];
  for (const [name, warm, cold, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(settle(base, warm, claim, cold), want);
    });
  }
});

/**
 * TEST with test_firsts failing on the unmutated code, and a junit report
 * rewritten into a failure of test_clamp whenever kit/core.py is not the
 * original: a kill the run never showed, which pawl's observer tells.
 */
const FORGES = TEST.replace(
  "assert list(firsts(2)) == [2]",
  "assert list(firsts(2)) == [3]",
) + `

import atexit
import pathlib
import sys

import kit.core

ORIGINAL = ${JSON.stringify(CODE)}


def forge():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            pathlib.Path(arg.split("=", 1)[1]).write_text(
                '<testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="1">'
                '<testcase classname="tests.test_kit" name="test_clamp">'
                '<failure message="forged">forged</failure></testcase></testsuite></testsuites>'
            )


if pathlib.Path(kit.core.__file__).read_text() != ORIGINAL:
    atexit.register(forge)
`;

Deno.test("confirmKills() runs each claim one process each with its claimed properties that pass on the unmutated code, calls the others unknown, and says what pawl's observer caught", async () => {
  await using f = await fixture();
  const options = await f.options({ "tests/test_kit.py": FORGES });
  const unused = options.mutants.filter((m) => m.function === "unused");
  const [first, second] = unused as [Mutant, Mutant];
  // A property no claim names: the unmutated run leaves it out.
  const extra = { key: "000/extra", nodeId: "tests/test_kit.py::test_extra" };
  const side = {
    ...options.base,
    properties: [...options.base.properties, extra],
  };
  const out = await confirmKills(options, side, [
    { mutant: first, keys: new Set(["000/clamp", "000/firsts"]) },
    { mutant: second, keys: new Set(["000/firsts", "000/clamp"]) },
    { mutant: unused[2]!, keys: new Set(["000/firsts"]) },
  ], "head");
  assert.equal(first.file, CORE);
  assert.deepEqual(Object.fromEntries(out.outcomes), {
    [first.id]: { "000/clamp": "unknown", "000/firsts": "unknown" },
    [second.id]: { "000/clamp": "unknown", "000/firsts": "unknown" },
    [unused[2]!.id]: { "000/firsts": "unknown" },
  });
  // The unmutated run, then the two claims test_clamp takes part in.
  assert.equal(coldRuns(f.sandbox), 3);
  const selected = f.sandbox.calls.map((c) =>
    c.argv.filter((a) => a.startsWith("tests/"))
  );
  assert.deepEqual(selected, [
    ["tests/test_kit.py::test_clamp", "tests/test_kit.py::test_firsts"],
    ["tests/test_kit.py::test_clamp"],
    ["tests/test_kit.py::test_clamp"],
  ]);
  assert.deepEqual(
    out.findings.map((x) => [
      x.rule,
      x.message.includes("the head's properties on mutant"),
    ]),
    [
      ["harness.report_tampered", true],
      ["harness.report_tampered", true],
    ],
    JSON.stringify(out.findings),
  );
  assert.deepEqual(f.progress, [
    "mutation: settling 3 mutants one process each: a warm kill counts only as a fresh pytest confirms it",
  ]);
});

Deno.test("confirmKills() says what pawl's observer caught in the unmutated run, and runs no claim whose properties did not pass there", async () => {
  await using f = await fixture();
  // Every report is forged, the unmutated run's too.
  const always = FORGES.replace(
    "if pathlib.Path(kit.core.__file__).read_text() != ORIGINAL:",
    "if True:",
  );
  assert.notEqual(always, FORGES);
  const options = await f.options({ "tests/test_kit.py": always });
  const [m] = options.mutants as [Mutant];
  const out = await confirmKills(options, options.base, [
    { mutant: m, keys: new Set(["000/clamp"]) },
  ], "head");
  assert.deepEqual(Object.fromEntries(out.outcomes), {
    [m.id]: { "000/clamp": "unknown" },
  });
  assert.equal(coldRuns(f.sandbox), 1);
  assert.deepEqual(
    out.findings.map((x) => [
      x.rule,
      x.message.includes("the head's properties on the unmutated code"),
    ]),
    [["harness.report_tampered", true]],
    JSON.stringify(out.findings),
  );
});

Deno.test("confirmKills() takes every claim from the runner's cache when earlier confirmations left them there, and runs nothing then", async () => {
  await using f = await fixture();
  // No progress callback: a run from the cache needs none either.
  const { progress: _, ...options } = await f.options({
    "tests/test_kit.py": TEST,
  });
  const cache = memoryMutationCache();
  const clamp = options.mutants.filter((m) => m.function === "clamp");
  const claim = (mutant: Mutant) => ({
    mutant,
    keys: new Set(["000/clamp"]),
  });
  const claims = clamp.slice(0, 2).map(claim);
  const confirm = (c: typeof claims) =>
    confirmKills({ ...options, cache }, options.base, c, "head");
  const first = await confirm(claims);
  assert.deepEqual(first.findings, []);
  assert.equal(first.outcomes.size, 2);
  assert.equal(coldRuns(f.sandbox), 1 + 2);

  assert.deepEqual(await confirm(claims), first);
  assert.equal(coldRuns(f.sandbox), 3, "nothing runs again");

  // One claim the cache lacks: the unmutated run again, and that claim.
  const more = [...claims, claim(clamp[2]!)];
  const third = await confirm(more);
  assert.equal(coldRuns(f.sandbox), 3 + 2);
  assert.equal(third.outcomes.size, 3);
  for (const [id, o] of first.outcomes) {
    assert.deepEqual(third.outcomes.get(id), o);
  }
  // The same mutant with another property claimed is another run.
  await confirm([{
    mutant: clamp[0]!,
    keys: new Set(["000/clamp", "000/firsts"]),
  }]);
  assert.equal(coldRuns(f.sandbox), 5 + 2);
});
