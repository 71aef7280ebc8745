import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type {
  PythonFunction,
  PythonModule,
  SkipMarker,
} from "../python/python_module.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { checkSkips } from "./check_skips.ts";

function fn(name: string, skips: SkipMarker[] = []): PythonFunction {
  return {
    name,
    qualname: name,
    line: 1,
    endLine: 2,
    source: `def ${name}():\n    assert f()`,
    decorators: [],
    usesHypothesis: false,
    skips,
    exampleAssertions: 0,
  };
}

function mod(...fns: PythonFunction[]): PythonModule {
  return { functions: new Map(fns.map((f) => [f.qualname, f])) };
}

Deno.test("checkSkips() flags only skips added to existing tests", async (t) => {
  const cases: {
    name: string;
    base: PythonModule;
    head: PythonModule;
    want: [string, number | undefined][];
  }[] = [
    {
      name: "a skip added to an existing test is a reject at the marker line",
      base: mod(fn("test_a")),
      head: mod(fn("test_a", [{ kind: "skip", line: 7 }])),
      want: [["tests.skip_added", 7]],
    },
    {
      name: "an xfail added next to an existing skipif is a reject",
      base: mod(fn("test_a", [{ kind: "skipif", line: 3 }])),
      head: mod(
        fn("test_a", [{ kind: "skipif", line: 3 }, { kind: "xfail", line: 4 }]),
      ),
      want: [["tests.skip_added", 4]],
    },
    {
      name: "an unchanged skip is not a finding",
      base: mod(fn("test_a", [{ kind: "skipif", line: 3 }])),
      head: mod(fn("test_a", [{ kind: "skipif", line: 5 }])),
      want: [],
    },
    {
      name: "removing a skip is a strengthening",
      base: mod(fn("test_a", [{ kind: "skip", line: 3 }])),
      head: mod(fn("test_a")),
      want: [],
    },
    {
      name: "a new test that is skipped takes nothing away",
      base: mod(fn("test_a")),
      head: mod(fn("test_a"), fn("test_b", [{ kind: "skip", line: 9 }])),
      want: [],
    },
    {
      name: "helpers that are not tests are ignored",
      base: mod(fn("helper")),
      head: mod(fn("helper", [{ kind: "importorskip", line: 2 }])),
      want: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const found = checkSkips([{ status: "M", path: "tests/test_a.py" }], {
        baseModules: new Map([["tests/test_a.py", c.base]]),
        headModules: new Map([["tests/test_a.py", c.head]]),
      });
      assertEquals(found.map((f) => [f.rule, f.line]), c.want);
    });
  }
});

Deno.test("checkSkips() flags a skip added to a state machine's TestCase once", async () => {
  const parser = await loadPythonParser();
  const machine = (mark: string) =>
    `import pytest
from hypothesis.stateful import RuleBasedStateMachine, invariant


class Counter(RuleBasedStateMachine):
    @invariant()
    def ok(self):
        assert True is not False


${mark}class TestCounter(Counter.TestCase):
    pass
`;
  const path = "tests/test_counter.py";
  const found = checkSkips([{ path, status: "M" }], {
    baseModules: new Map([[path, analyzePython(parser, machine(""))]]),
    headModules: new Map([[
      path,
      analyzePython(parser, machine("@pytest.mark.skip\n")),
    ]]),
  });
  assertEquals(found.map((f) => [f.rule, f.line]), [["tests.skip_added", 11]]);
});
