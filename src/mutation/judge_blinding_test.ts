import assert from "node:assert/strict";
import { type BlindingResult, judgeBlinding } from "./judge_blinding.ts";
import type { Mutant } from "./mutant.ts";

const TEXT = "def f(a):\n    return a + 1\n";

function mutant(id: string): Mutant {
  return {
    id,
    file: "m.py",
    function: "f",
    line: 2,
    column: 14,
    endLine: 2,
    endColumn: 15,
    start: 23,
    end: 24,
    original: "+",
    replacement: "-",
    operator: "arithmetic",
  };
}

const OPTIONS = {
  properties: [{ key: "L/p", id: "p", layout: "L" }, {
    key: "L/q",
    id: "q",
    layout: "L",
  }],
  texts: new Map([["m.py", TEXT]]),
  changed: [{ file: "m.py", qualname: "Value.__eq__", line: 9 }],
  counts: { generated: 3, selected: 3, cutByCap: 0, cutByBudget: 0, lost: 0 },
};

Deno.test("the blinding rule judges each mutant by the properties that kill it on the base's code", async (t) => {
  const cases = [
    {
      name:
        "killed on the base's code, survived on the head's which runs it: blinded",
      base: { "L/p": "killed" },
      head: { "L/p": "survived" },
      rules: ["property.oracle_blinded"],
      blinded: 1,
      notExecuted: 0,
    },
    {
      name: "killed on both: kept",
      base: { "L/p": "killed" },
      head: { "L/p": "killed" },
      rules: [],
      blinded: 0,
      notExecuted: 0,
    },
    {
      name: "a timeout on the head's code is a kill",
      base: { "L/p": "killed" },
      head: { "L/p": "timeout" },
      rules: [],
      blinded: 0,
      notExecuted: 0,
    },
    {
      name: "not executed on the head's code proves nothing",
      base: { "L/p": "killed" },
      head: {},
      rules: [],
      blinded: 0,
      notExecuted: 1,
    },
    {
      name: "another property surviving does not count: only the killers",
      base: { "L/p": "killed", "L/q": "survived" },
      head: { "L/p": "killed", "L/q": "survived" },
      rules: [],
      blinded: 0,
      notExecuted: 0,
    },
    {
      name: "no usable report on the head's code cannot pass silently",
      base: { "L/p": "killed" },
      head: { "L/p": "unknown" },
      rules: ["tests.no_report"],
      blinded: 0,
      notExecuted: 0,
    },
    {
      name: "a survivor on the base's code is the base's gap, never blamed",
      base: { "L/p": "survived" },
      head: null,
      rules: [],
      blinded: 0,
      notExecuted: 0,
    },
  ] as const;
  for (const c of cases) {
    await t.step(c.name, () => {
      const j = judgeBlinding(
        [{ mutant: mutant("m1"), base: c.base, head: c.head }],
        OPTIONS,
      );
      assert.deepEqual(j.findings.map((f) => f.rule), c.rules);
      assert.equal(j.report.blinded, c.blinded);
      assert.equal(j.report.notExecuted, c.notExecuted);
    });
  }

  await t.step(
    "the finding names the property, the mutant and the change on its path",
    () => {
      const j = judgeBlinding(
        [{
          mutant: mutant("m1"),
          base: { "L/p": "killed" },
          head: { "L/p": "survived" },
        }],
        OPTIONS,
      );
      const f = j.findings[0]!;
      assert.equal(f.blocking, true);
      assert.equal(f.path, "m.py");
      assert.equal(f.line, 2);
      assert.match(f.message, /Property "p" \(layout L\)/);
      assert.match(f.message, /the pull request changed m\.py:9 Value\.__eq__/);
      assert.ok(f.message.includes("+    return a - 1"));
    },
  );
});

/** A mutant of `file` at `line` (offset `start`). */
function at(id: string, file: string, line: number, start: number): Mutant {
  return { ...mutant(id), file, line, start, end: start + 1 };
}

Deno.test("the blinding rule counts each mutant once and judges each property apart", async (t) => {
  await t.step(
    "the report counts mutants killed, not executed and blinded",
    () => {
      const results: BlindingResult[] = [
        // Blinded for both properties: one mutant blinded.
        {
          mutant: at("m1", "m.py", 2, 23),
          base: { "L/p": "killed", "L/q": "killed" },
          head: { "L/p": "survived", "L/q": "survived" },
        },
        // Run lost at the head: killed, but neither executed nor not.
        {
          mutant: at("m2", "m.py", 2, 23),
          base: { "L/p": "killed" },
          head: null,
        },
        // One killer executes it at the head, the other does not.
        {
          mutant: at("m3", "m.py", 2, 23),
          base: { "L/p": "killed", "L/q": "killed" },
          head: { "L/q": "killed" },
        },
        // No killer executes it at the head.
        {
          mutant: at("m4", "m.py", 2, 23),
          base: { "L/q": "killed" },
          head: {},
        },
        // A base survivor is not counted killed.
        {
          mutant: at("m5", "m.py", 2, 23),
          base: { "L/p": "survived" },
          head: null,
        },
      ];
      const j = judgeBlinding(results, OPTIONS);
      assert.deepEqual(j.report, {
        ...OPTIONS.counts,
        ran: 5,
        killed: 4,
        notExecuted: 1,
        blinded: 1,
      });
      assert.deepEqual(j.findings.map((f) => f.rule), [
        "property.oracle_blinded",
        "property.oracle_blinded",
      ]);
      assert.match(j.findings[0]?.message ?? "", /^Property "p"/);
      assert.match(j.findings[1]?.message ?? "", /^Property "q"/);
    },
  );
  await t.step(
    "a lost report blocks for its own property beside another's blinding",
    () => {
      const j = judgeBlinding([{
        mutant: mutant("m1"),
        base: { "L/p": "killed", "L/q": "killed" },
        head: { "L/p": "survived", "L/q": "unknown" },
      }], OPTIONS);
      assert.deepEqual(j.findings.map((f) => f.rule), [
        "property.oracle_blinded",
        "tests.no_report",
      ]);
    },
  );
  await t.step(
    "a property already blinded needs no second finding for a lost report",
    () => {
      const j = judgeBlinding([
        {
          mutant: mutant("m1"),
          base: { "L/p": "killed" },
          head: { "L/p": "survived" },
        },
        {
          mutant: mutant("m2"),
          base: { "L/p": "killed" },
          head: { "L/p": "unknown" },
        },
      ], OPTIONS);
      assert.deepEqual(j.findings.map((f) => f.rule), [
        "property.oracle_blinded",
      ]);
    },
  );
  await t.step(
    "findings point at the first mutant by place and count them",
    () => {
      const results = (head: "survived" | "unknown"): BlindingResult[] =>
        [
          at("m1", "z.py", 7, 50),
          at("m2", "a.py", 4, 30),
          at("m3", "a.py", 3, 20),
        ]
          .map((m) => ({
            mutant: m,
            base: { "L/p": "killed" },
            head: { "L/p": head },
          }));
      const [blind] = judgeBlinding(results("survived"), OPTIONS).findings;
      assert.deepEqual([blind?.path, blind?.line], ["a.py", 3]);
      assert.match(blind?.message ?? "", /no longer catch 3 bugs in code/);
      // Each diff starts on a line of its own.
      assert.deepEqual(
        (blind?.message ?? "").split("\n").filter((l) => l.startsWith("--- ")),
        ["--- a.py:3", "--- a.py:4", "--- z.py:7"],
      );
      const [lost] = judgeBlinding(results("unknown"), OPTIONS).findings;
      assert.deepEqual([lost?.path, lost?.line], ["a.py", 3]);
      assert.match(
        lost?.message ?? "",
        /with 3 mutants of code .* \(first: a\.py:3 /,
      );
    },
  );
});

Deno.test("a blinding finding names the changed functions of the mutants' own files first, at most five", async (t) => {
  const message = (
    changed: { file: string; qualname: string; line: number }[],
  ) =>
    judgeBlinding([{
      mutant: mutant("m1"),
      base: { "L/p": "killed" },
      head: { "L/p": "survived" },
    }], { ...OPTIONS, changed }).findings[0]?.message ?? "";
  const changedIn = (file: string, n: number) =>
    Array.from(
      { length: n },
      (_, i) => ({ file, qualname: `f${i}`, line: i + 1 }),
    );
  await t.step("no change named: no list", () => {
    assert.doesNotMatch(message([]), /the pull request changed/);
    assert.match(message([]), /which runs it\n/);
  });
  await t.step("the mutant's file before the others", () => {
    assert.match(
      message([...changedIn("other.py", 1), ...changedIn("m.py", 1)]),
      /which runs it; the pull request changed m\.py:1 f0, other\.py:1 f0\n/,
    );
  });
  await t.step("five named and no count", () => {
    const m = message(changedIn("m.py", 5));
    assert.match(m, /m\.py:5 f4\n/);
    assert.doesNotMatch(m, /more\)/);
  });
  await t.step("a sixth counted, not named", () => {
    const m = message(changedIn("m.py", 7));
    assert.match(m, /m\.py:5 f4 \(and 2 more\)\n/);
    assert.doesNotMatch(m, /f5/);
  });
});
