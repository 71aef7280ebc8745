import assert from "node:assert/strict";
import { judgeCodeSide, STARVED_MIN_DROP } from "./judge_code_side.ts";
import type { PropertyRun } from "./judge_property_runs.ts";
import { parseObservation } from "./observation.ts";

const NODE = "tests/test_p.py::test_p";
const PROPERTIES = [{
  id: "p",
  nodeId: NODE,
  path: "tests/test_p.py",
  line: 4,
}];

/** A run in `workDir` whose observer streamed `events` (objects, as JSON lines). */
function run(
  workDir: string,
  events: Record<string, unknown>[],
  stopped = false,
): PropertyRun {
  return {
    workDir,
    rows: [],
    run: {
      result: {
        code: 0,
        signal: null,
        timedOut: stopped,
        outputExceeded: false,
        outputHead: "",
        outputTail: "",
        outputBytes: 0,
      },
      cases: [],
      observation: parseObservation([[
        '{"event":"hello","token":"t"}',
        ...events.map((e) => JSON.stringify(e)),
      ]], "t"),
    },
  };
}

function examples(
  valid: number,
  invalid = 0,
  nodeid = NODE,
  interesting = 0,
) {
  return {
    event: "examples",
    nodeid,
    valid,
    invalid,
    overrun: 0,
    interesting,
  };
}

function reach(workDir: string, count: number, nodeid = NODE) {
  return {
    event: "reach",
    nodeid,
    asserts: [{ file: `${workDir}/tests/test_p.py`, line: 9, count }],
  };
}

function discards(
  sites: { file: string; line: number; count: number }[],
  nodeid = NODE,
) {
  return { event: "discards", nodeid, sites };
}

function patched(name: string, file: string, nodeid: string | null = null) {
  return { event: "patched", nodeid, patches: [{ name, file }] };
}

const isTestSide = (path: string) => path.startsWith("tests/");

function judge(base: PropertyRun, head: PropertyRun) {
  return judgeCodeSide(base, head, {
    properties: PROPERTIES,
    seed: 7,
    isTestSide,
  });
}

Deno.test("judgeCodeSide() blames on the pull request only what the base's tests do not see on the base's code", async (t) => {
  const cases: {
    name: string;
    base: PropertyRun;
    head: PropertyRun;
    rules: string[];
    message?: RegExp;
  }[] = [
    {
      name: "the code discards examples the base's code never discarded",
      base: run("/b", [examples(100)]),
      head: run("/h", [
        examples(100, 60),
        discards([
          { file: "/h/src/pkg/core.py", line: 12, count: 55 },
          { file: "/h/tests/test_p.py", line: 8, count: 5 },
        ]),
      ]),
      rules: ["property.examples_discarded_by_code"],
      message: /discarded 55 .* first at src\/pkg\/core\.py:12/,
    },
    {
      name: "a parametrized property's discards count under its node id",
      base: run("/b", [examples(100)]),
      head: run("/h", [
        discards(
          [{ file: "/h/src/pkg/core.py", line: 3, count: 2 }],
          `${NODE}[1]`,
        ),
      ]),
      rules: ["property.examples_discarded_by_code"],
    },
    {
      name:
        "the test's own assume() discards more: the test side, not the code",
      base: run("/b", [examples(100, 5)]),
      head: run("/h", [
        examples(100, 40),
        discards([{ file: "/h/tests/test_p.py", line: 8, count: 40 }]),
      ]),
      rules: [],
    },
    {
      name: "the base's code discards too: not the pull request's",
      base: run("/b", [
        examples(100, 3),
        discards([{ file: "/b/src/pkg/core.py", line: 9, count: 3 }]),
      ]),
      head: run("/h", [
        examples(100, 30),
        discards([{ file: "/h/src/pkg/core.py", line: 12, count: 30 }]),
      ]),
      rules: [],
    },
    {
      name:
        "a discard raised outside the repository (an installed library) is not judged",
      base: run("/b", [examples(100)]),
      head: run("/h", [
        examples(100, 9),
        discards([{ file: "/usr/lib/python3/x.py", line: 1, count: 9 }]),
      ]),
      rules: [],
    },
    {
      name: "valid examples below half of the base's are a starved property",
      base: run("/b", [examples(100)]),
      head: run("/h", [examples(40, 900)]),
      rules: ["property.examples_starved_by_code"],
      message: /executed 40 valid .* but 100 on the base's code/,
    },
    {
      name: "no examples at all on the head's code are a starved property",
      base: run("/b", [examples(100)]),
      head: run("/h", []),
      rules: ["property.examples_starved_by_code"],
    },
    {
      name: "an honest drop to more than half stays accepted",
      base: run("/b", [examples(100)]),
      head: run("/h", [examples(51, 400)]),
      rules: [],
    },
    {
      name: `a drop of fewer than ${STARVED_MIN_DROP} examples stays accepted`,
      base: run("/b", [examples(STARVED_MIN_DROP + 2)]),
      head: run("/h", [examples(3)]),
      rules: [],
    },
    {
      name: "a Hypothesis object patched on the head's code only",
      base: run("/b", [examples(100)]),
      head: run("/h", [
        examples(100),
        patched("hypothesis.strategies.integers", "/h/src/pkg/__init__.py"),
        patched(
          "hypothesis.strategies._internal.core.integers",
          "/h/src/pkg/__init__.py",
          NODE,
        ),
      ]),
      rules: ["harness.hypothesis_patched"],
      message:
        /"hypothesis\.strategies\._internal\.core\.integers", "hypothesis\.strategies\.integers" were replaced from src\/pkg\/__init__\.py/,
    },
    {
      name: "a Hypothesis object the base's code patches the same way",
      base: run("/b", [
        patched("hypothesis.strategies.integers", "/b/src/pkg/__init__.py"),
      ]),
      head: run("/h", [
        patched("hypothesis.strategies.integers", "/h/src/pkg/__init__.py"),
      ]),
      rules: [],
    },
    {
      name: "an assert the head's code lets pass less than half as often",
      base: run("/b", [examples(100), reach("/b", 100)]),
      head: run("/h", [examples(100), reach("/h", 30, `${NODE}[x]`)]),
      rules: ["property.examples_starved_by_code"],
      message:
        /assert at tests\/test_p\.py:9 .* passed 30 times on the head's code but 100 times/,
    },
    {
      name: "an assert no longer reached at all",
      base: run("/b", [examples(100), reach("/b", 100)]),
      head: run("/h", [examples(100)]),
      rules: ["property.examples_starved_by_code"],
    },
    {
      name: "an assert passing more than half as often stays accepted",
      base: run("/b", [examples(100), reach("/b", 100)]),
      head: run("/h", [examples(100), reach("/h", 60)]),
      rules: [],
    },
    {
      name: "a property that found a failure is left to the failure rules",
      base: run("/b", [examples(100), reach("/b", 100)]),
      head: run("/h", [
        examples(3, 50, NODE, 1),
        discards([{ file: "/h/src/pkg/core.py", line: 12, count: 50 }]),
      ]),
      rules: [],
    },
    {
      name: "a property the base's code never ran is not compared",
      base: run("/b", []),
      head: run("/h", [
        examples(100, 9),
        discards([{ file: "/h/src/pkg/core.py", line: 12, count: 9 }]),
      ]),
      rules: [],
    },
    {
      name: "a run cut short decides nothing",
      base: run("/b", [examples(100)]),
      head: run("/h", [
        discards([{ file: "/h/src/pkg/core.py", line: 12, count: 55 }]),
      ], true),
      rules: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = judge(c.base, c.head);
      assert.deepEqual(findings.map((f) => f.rule), c.rules);
      assert.ok(findings.every((f) => f.blocking));
      if (c.message !== undefined) {
        assert.match(findings[0]?.message ?? "", c.message);
      }
    });
  }
});

Deno.test("judgeCodeSide() names the raising file and line of a code-side discard", () => {
  const [f] = judge(
    run("/b", [examples(100)]),
    run("/h", [
      discards([{ file: "/h/src/pkg/core.py", line: 12, count: 1 }]),
    ]),
  );
  assert.equal(f?.path, "src/pkg/core.py");
  assert.equal(f?.line, 12);
});
