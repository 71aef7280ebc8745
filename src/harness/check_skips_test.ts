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

Deno.test("checkSkips() counts skips per kind and names the first one added", async (t) => {
  const path = "tests/test_a.py";
  const judge = (
    base: PythonModule,
    head: PythonModule,
    status: "A" | "M" | "D" | "T" = "M",
  ) =>
    checkSkips([{ status, path }], {
      baseModules: new Map([[path, base]]),
      headModules: new Map([[path, head]]),
    }).map((f) => `${f.rule}@${f.path}:${f.line} ${f.message}`);
  const message = (kind: string, test: string) =>
    `The pull request added "${kind}" to test "${test}": a skipped test is a deleted test; fix the code or ask a human for a freeze`;
  await t.step("a second skip of a kind the test had once is added", () => {
    assertEquals(
      judge(
        mod(fn("test_a", [{ kind: "skip", line: 3 }])),
        mod(
          fn("test_a", [{ kind: "skip", line: 3 }, { kind: "skip", line: 4 }]),
        ),
      ),
      [`tests.skip_added@${path}:4 ${message("skip", "test_a")}`],
    );
  });
  await t.step("a skip traded for an xfail is an added xfail", () => {
    assertEquals(
      judge(
        mod(fn("test_a", [{ kind: "skip", line: 3 }])),
        mod(fn("test_a", [{ kind: "xfail", line: 3 }])),
      ),
      [`tests.skip_added@${path}:3 ${message("xfail", "test_a")}`],
    );
  });
  await t.step(
    "the first of several added skips is named, once per test",
    () => {
      assertEquals(
        judge(
          mod(fn("test_a"), fn("test_b")),
          mod(
            fn("test_a", [
              { kind: "importorskip", line: 5 },
              { kind: "skipif", line: 6 },
            ]),
            fn("test_b", [{ kind: "xfail", line: 9 }]),
          ),
        ),
        [
          `tests.skip_added@${path}:5 ${message("importorskip", "test_a")}`,
          `tests.skip_added@${path}:9 ${message("xfail", "test_b")}`,
        ],
      );
    },
  );
  await t.step("any name pytest collects by its test prefix is a test", () => {
    assertEquals(
      judge(
        mod(fn("testing_rounding")),
        mod(fn("testing_rounding", [{ kind: "skip", line: 2 }])),
      ),
      [`tests.skip_added@${path}:2 ${message("skip", "testing_rounding")}`],
    );
  });
  await t.step("a name that only ends in test is not collected", () => {
    assertEquals(
      judge(
        mod(fn("helper_test")),
        mod(fn("helper_test", [{ kind: "skip", line: 2 }])),
      ),
      [],
    );
  });
  await t.step("only a file that changed in place is compared", () => {
    const base = mod(fn("test_a"));
    const head = mod(fn("test_a", [{ kind: "skip", line: 2 }]));
    assertEquals(judge(base, head, "T"), []);
    assertEquals(judge(base, head, "A"), []);
  });
  await t.step("a file with no analysis on one side is not compared", () => {
    const head = mod(fn("test_a", [{ kind: "skip", line: 2 }]));
    assertEquals(
      checkSkips([{ status: "M", path }], {
        baseModules: new Map(),
        headModules: new Map([[path, head]]),
      }),
      [],
    );
    assertEquals(
      checkSkips([{ status: "M", path }], {
        baseModules: new Map([[path, mod(fn("test_a"))]]),
        headModules: new Map(),
      }),
      [],
    );
  });
  await t.step("a file that is not Python is not compared", () => {
    const other = "tests/test_a.txt";
    assertEquals(
      checkSkips([{ status: "M", path: other }], {
        baseModules: new Map([[other, mod(fn("test_a"))]]),
        headModules: new Map([[
          other,
          mod(fn("test_a", [{ kind: "skip", line: 2 }])),
        ]]),
      }),
      [],
    );
  });
});

Deno.test("checkSkips() leaves a skip on a function pytest does not collect, even one that runs a state machine", async () => {
  const parser = await loadPythonParser();
  const source = (mark: string) =>
    `import pytest
from hypothesis.stateful import RuleBasedStateMachine, invariant, run_state_machine_as_test


class Counter(RuleBasedStateMachine):
    @invariant()
    def ok(self):
        assert True is not False


${mark}def check_counter():
    run_state_machine_as_test(Counter)
`;
  const path = "tests/test_counter.py";
  const found = checkSkips([{ path, status: "M" }], {
    baseModules: new Map([[path, analyzePython(parser, source(""))]]),
    headModules: new Map([[
      path,
      analyzePython(parser, source("@pytest.mark.skip\n")),
    ]]),
  });
  assertEquals(found, []);
});
