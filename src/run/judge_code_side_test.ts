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

Deno.test("judgeCodeSide() calls a property starved below half of the base's, and by at least the minimum drop", async (t) => {
  const table: [string, number, number, boolean][] = [
    ["exactly half is not starved", 100, 50, false],
    ["one below half is", 100, 49, true],
    [`a drop of exactly ${STARVED_MIN_DROP} below half is`, 19, 9, true],
    [`a drop of ${STARVED_MIN_DROP - 1} below half is not`, 17, 8, false],
    ["a base without valid examples starves nothing", 0, 0, false],
  ];
  for (const [label, before, after, starved] of table) {
    await t.step(`valid examples: ${label}`, () => {
      const found = judge(
        run("/b", [examples(before)]),
        run("/h", [examples(after)]),
      );
      assert.deepEqual(
        found.map((f) => f.rule),
        starved ? ["property.examples_starved_by_code"] : [],
      );
    });
    if (before === 0) continue;
    await t.step(`assert passes: ${label}`, () => {
      const found = judge(
        run("/b", [examples(100), reach("/b", before)]),
        run("/h", [examples(100), reach("/h", after)]),
      );
      assert.deepEqual(
        found.map((f) => f.rule),
        starved ? ["property.examples_starved_by_code"] : [],
      );
    });
  }
  await t.step(
    "a failure at the base leaves the counts to the failure rules",
    () => {
      assert.deepEqual(
        judge(
          run("/b", [examples(100, 0, NODE, 1), reach("/b", 100)]),
          run("/h", [examples(10)]),
        ),
        [],
      );
    },
  );
  await t.step("the messages say what was counted on which code", () => {
    const [valid] = judge(
      run("/b", [examples(100)]),
      run("/h", [examples(40, 900)]),
    );
    assert.equal(
      valid?.message,
      `The base's test of property "p" (${NODE}) executed 40 valid Hypothesis examples on the head's code (900 discarded) but 100 on the base's code, with the same seed 7: the code under test now makes the test discard most of what it tries (tolerance: at least half of the base's valid examples)`,
    );
    assert.equal(valid?.path, "tests/test_p.py");
    assert.equal(valid?.line, 4);
    const [none] = judge(run("/b", [examples(100)]), run("/h", []));
    assert.match(none?.message ?? "", / executed 0 valid .* \(0 discarded\)/);
    const [reached] = judge(
      run("/b", [examples(100), reach("/b", 100)]),
      run("/h", [examples(100), reach("/h", 1)]),
    );
    assert.equal(
      reached?.message,
      `The assert at tests/test_p.py:9 of the base's test of property "p" (${NODE}) passed 1 time on the head's code but 100 times on the base's code, with the same seed 7: the code under test keeps most examples from reaching it (tolerance: at least half of the base's passes)`,
    );
    assert.equal(reached?.path, "tests/test_p.py");
    assert.equal(reached?.line, 9);
  });
  await t.step("an assert outside the copy is not compared", () => {
    const outside = {
      event: "reach",
      nodeid: NODE,
      asserts: [{ file: "/usr/lib/x.py", line: 9, count: 100 }],
    };
    assert.deepEqual(
      judge(run("/b", [examples(100), outside]), run("/h", [examples(100)])),
      [],
    );
  });
  await t.step("asserts of every parametrization add up", () => {
    assert.deepEqual(
      judge(
        run("/b", [examples(100), reach("/b", 100)]),
        run("/h", [
          examples(100),
          reach("/h", 30, `${NODE}[a]`),
          reach("/h", 30, `${NODE}[b]`),
        ]),
      ),
      [],
    );
  });
  await t.step("another test's asserts are not this property's", () => {
    assert.deepEqual(
      judge(
        run("/b", [examples(100), reach("/b", 100, `${NODE}x`)]),
        run("/h", [examples(100)]),
      ),
      [],
    );
  });
});

Deno.test("judgeCodeSide() judges only runs that were observed to the end", async (t) => {
  const discarding = [
    discards([{ file: "/h/src/pkg/core.py", line: 12, count: 5 }]),
  ];
  const stopped = (r: PropertyRun, how: "timedOut" | "outputExceeded") => ({
    ...r,
    run: { ...r.run, result: { ...r.run.result, [how]: true } },
  });
  const table: [string, PropertyRun, PropertyRun, number][] = [
    ["both whole", run("/b", [examples(100)]), run("/h", discarding), 1],
    [
      "a head over its output cap",
      run("/b", [examples(100)]),
      stopped(run("/h", discarding), "outputExceeded"),
      0,
    ],
    [
      "a base at its time limit",
      stopped(run("/b", [examples(100)]), "timedOut"),
      run("/h", discarding),
      0,
    ],
    ["a head without an observation", run("/b", [examples(100)]), {
      ...run("/h", discarding),
      run: { result: run("/h", discarding).run.result, cases: [] },
    }, 0],
    ["a head whose stream never said hello", run("/b", [examples(100)]), {
      ...run("/h", discarding),
      run: {
        ...run("/h", discarding).run,
        observation: parseObservation([[]], "t"),
      },
    }, 0],
  ];
  for (const [label, base, head, count] of table) {
    await t.step(label, () => assert.equal(judge(base, head).length, count));
  }
});

Deno.test("judgeCodeSide() names the Hypothesis objects the head's code patched, per file", async (t) => {
  const names = (n: number) =>
    [...Array(n).keys()].map((i) => `hypothesis.strategies.s${i}`);
  await t.step("one object", () => {
    const [f] = judge(
      run("/b", []),
      run("/h", [patched("hypothesis.strategies.integers", "/h/src/a.py")]),
    );
    assert.equal(
      f?.message,
      `Hypothesis' "hypothesis.strategies.integers" was replaced from src/a.py while the base's tests ran on the head's code, where the base's code leaves it alone: the code under test changes what Hypothesis generates or how it judges examples`,
    );
    assert.equal(f?.path, "src/a.py");
  });
  await t.step("five objects are all named", () => {
    const [f] = judge(
      run("/b", []),
      run("/h", names(5).map((n) => patched(n, "/h/src/a.py"))),
    );
    assert.match(f?.message ?? "", /"hypothesis\.strategies\.s4" were /);
    assert.match(f?.message ?? "", /base's code leaves them alone/);
  });
  await t.step("six objects name five and count the rest", () => {
    const [f] = judge(
      run("/b", []),
      run("/h", names(6).map((n) => patched(n, "/h/src/a.py"))),
    );
    assert.match(
      f?.message ?? "",
      /"hypothesis\.strategies\.s4" and 1 more were replaced from src\/a\.py/,
    );
    assert.doesNotMatch(f?.message ?? "", /s5/);
  });
  await t.step(
    "a removal, or a replacement from outside the copy, has no file",
    () => {
      const found = judge(
        run("/b", []),
        run("/h", [
          {
            event: "patched",
            nodeid: null,
            patches: [{
              name: "hypothesis.given",
              file: "/h/src/a.py",
              removed: true,
            }],
          },
          patched("hypothesis.find", "/usr/lib/x.py"),
          patched("hypothesis.note", "/h/src/b.py"),
        ]),
      );
      assert.deepEqual(found.map((f) => f.path), [undefined, "src/b.py"]);
      assert.ok(
        found[0]?.message.startsWith(
          `Hypothesis' "hypothesis.find", "hypothesis.given" were replaced or removed while`,
        ),
        found[0]?.message,
      );
      assert.ok(
        found[1]?.message.startsWith(
          `Hypothesis' "hypothesis.note" was replaced from src/b.py while`,
        ),
        found[1]?.message,
      );
    },
  );
});

Deno.test("judgeCodeSide() counts a property's own discards, and places the finding at the first", async (t) => {
  await t.step(
    "the first site outside the test side is named, all are counted",
    () => {
      const [f] = judge(
        run("/b", [examples(100)]),
        run("/h/", [
          discards([
            { file: "/h/tests/test_p.py", line: 2, count: 1 },
            { file: "/h/src/pkg/a.py", line: 5, count: 2 },
            { file: "/h/src/pkg/b.py", line: 7, count: 3 },
          ]),
        ]),
      );
      assert.equal(f?.path, "src/pkg/a.py");
      assert.equal(f?.line, 5);
      assert.equal(
        f?.message,
        `The code under test discarded 5 of the Hypothesis examples of property "p" (${NODE}) on seed 7, first at src/pkg/a.py:5, where the base's code discards none: an UnsatisfiedAssumption (or an invalid mark) raised outside the test side hides those inputs from the base's test instead of failing it`,
      );
    },
  );
  await t.step(
    "another test named like the property is not the property",
    () => {
      assert.deepEqual(
        judge(
          run("/b", [examples(100)]),
          run("/h", [
            examples(100),
            discards(
              [{ file: "/h/src/pkg/a.py", line: 5, count: 2 }],
              `${NODE}_slow`,
            ),
          ]),
        ),
        [],
      );
    },
  );
});

Deno.test("judgeCodeSide() reads the observer's files relative to the copy however its directory ends", async (t) => {
  for (const workDir of ["/h", "/h/", "/h//"]) {
    await t.step(JSON.stringify(workDir), () => {
      const found = judge(
        run("/b", [examples(100)]),
        run(workDir, [
          examples(100),
          discards([{ file: "/h/src/pkg/a.py", line: 5, count: 2 }]),
          patched("hypothesis.note", "/h/src/b.py"),
        ]),
      );
      assert.deepEqual(
        found.map((f) => [f.rule, f.path]),
        [
          ["property.examples_discarded_by_code", "src/pkg/a.py"],
          ["harness.hypothesis_patched", "src/b.py"],
        ],
      );
    });
  }
});
