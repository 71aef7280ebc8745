import assert from "node:assert/strict";
import { judgeBlinding } from "./judge_blinding.ts";
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
