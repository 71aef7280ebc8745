import assert from "node:assert/strict";
import { analyzePython } from "../../python/analyze_python.ts";
import { loadPythonParser } from "../../python/load_python_parser.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { checkProperties } from "./check_properties.ts";
import { NO_LINES } from "./read_agent_contract.ts";

const parser = await loadPythonParser();

const TEST = `from hypothesis import given, strategies as st


@given(st.integers())
def test_p(n):
    assert n + 0 == n
`;

function judge(
  conftest: string | undefined,
  minExamples: number,
  options: { env?: Record<string, string>; test?: string } = {},
): string[] {
  const files: Record<string, string> = {
    "tests/test_p.py": options.test ?? TEST,
  };
  if (conftest !== undefined) files["tests/conftest.py"] = conftest;
  const modules = new Map<string, PythonModule>(
    Object.entries(files).map((
      [path, text],
    ) => [path, analyzePython(parser, text)]),
  );
  return checkProperties({
    version: 1,
    fixtures: [],
    freezes: [],
    maxActiveFreezes: 0,
    lines: NO_LINES,
    properties: [{
      id: "p",
      module: "tests.test_p",
      name: "test_p",
      minExamples,
    }],
  }, {
    modules,
    baseModules: modules,
    path: "tests/agent_contract.yaml",
    ...(options.env === undefined ? {} : { env: options.env }),
  })
    .map((f) => `${f.rule}: ${f.message}`);
}

const CI = `from hypothesis import settings

settings.register_profile("ci", max_examples=300)
settings.load_profile("ci")
`;

Deno.test("checkProperties() counts the examples the loaded profile runs", async (t) => {
  await t.step("a profile of 300 satisfies min_examples 300", () => {
    assert.deepEqual(judge(CI, 300), []);
  });
  await t.step("and falls short of 301, naming the profile", () => {
    const found = judge(CI, 301);
    assert.equal(found.length, 1);
    assert.match(
      found[0]!,
      /^property\.examples_below_contract: .*runs 300 examples under the profile "ci" loaded in "tests\/conftest\.py" line 4/,
    );
  });
  await t.step("without a profile, Hypothesis' default of 100 counts", () => {
    assert.equal(judge(undefined, 300).length, 1);
    assert.deepEqual(judge(undefined, 100), []);
  });
  await t.step("a profile pawl cannot read leaves the default", () => {
    const unreadable = CI.replace(
      'load_profile("ci")',
      'load_profile(os.environ["P"])',
    );
    assert.equal(judge(unreadable, 300).length, 1);
  });
});

const BY_VARIABLE = `import os
from hypothesis import settings

settings.register_profile("dev", max_examples=10)
settings.register_profile("ci", max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
`;

Deno.test("checkProperties() follows a profile chosen by a variable of the base's [environment] env", async (t) => {
  await t.step("unset, the call's default applies", () => {
    const found = judge(BY_VARIABLE, 500);
    assert.equal(found.length, 1);
    assert.match(found[0]!, /runs 10 examples under the profile "dev"/);
  });
  await t.step("set, the profile it names runs", () => {
    assert.deepEqual(
      judge(BY_VARIABLE, 500, { env: { HYPOTHESIS_PROFILE: "ci" } }),
      [],
    );
    const found = judge(BY_VARIABLE, 501, {
      env: { HYPOTHESIS_PROFILE: "ci" },
    });
    assert.equal(found.length, 1);
    assert.match(
      found[0]!,
      /runs 500 examples under the profile "ci" .*\$HYPOTHESIS_PROFILE is "ci" in the base's \[environment\] env/,
    );
  });
  await t.step("os.environ[...] reads it too", () => {
    const subscript = BY_VARIABLE.replace(
      'os.environ.get("HYPOTHESIS_PROFILE", "dev")',
      'os.environ["HYPOTHESIS_PROFILE"]',
    );
    assert.deepEqual(
      judge(subscript, 500, { env: { HYPOTHESIS_PROFILE: "ci" } }),
      [],
    );
    assert.equal(judge(subscript, 500).length, 1);
  });
});

Deno.test("checkProperties() reads a profile the registered test module loads, as propose does", () => {
  const test = `from hypothesis import given, settings, strategies as st

settings.register_profile("thorough", max_examples=400)
settings.load_profile("thorough")


@given(st.integers())
def test_p(n):
    assert n + 0 == n
`;
  assert.deepEqual(judge(undefined, 400, { test }), []);
  const found = judge(undefined, 401, { test });
  assert.equal(found.length, 1);
  assert.match(
    found[0]!,
    /runs 400 examples under the profile "thorough" loaded in "tests\/test_p\.py" line 4/,
  );
});

Deno.test("checkProperties() reads profiles only from conftest and __init__ files and the registered test modules, that parse", async (t) => {
  const judgeWith = (files: Record<string, string>, minExamples: number) => {
    const modules = new Map<string, PythonModule>(
      Object.entries({ "tests/test_p.py": TEST, ...files }).map((
        [path, text],
      ) => [path, analyzePython(parser, text)]),
    );
    return checkProperties({
      version: 1,
      fixtures: [],
      freezes: [],
      maxActiveFreezes: 0,
      lines: NO_LINES,
      properties: [{
        id: "p",
        module: "tests.test_p",
        name: "test_p",
        minExamples,
      }],
    }, { modules, baseModules: modules, path: "tests/agent_contract.yaml" })
      .map((f) => f.message);
  };
  await t.step("a package's __init__ file is read", () => {
    assert.deepEqual(judgeWith({ "tests/__init__.py": CI }, 300), []);
  });
  await t.step("a conftest at the root is read", () => {
    assert.deepEqual(judgeWith({ "conftest.py": CI }, 300), []);
  });
  await t.step("a helper whose name only ends in conftest is not", () => {
    assert.equal(judgeWith({ "tests/my_conftest.py": CI }, 300).length, 1);
  });
  await t.step("a conftest with a syntax error is not", () => {
    const broken = `${CI}\ndef broken(:\n    pass\n`;
    assert.notEqual(analyzePython(parser, broken).syntaxError, undefined);
    assert.equal(judgeWith({ "tests/conftest.py": broken }, 300).length, 1);
  });
});

Deno.test("checkProperties() applies a loaded profile only to a Hypothesis test that sets no max_examples of its own", async (t) => {
  const cases: [string, string, number, RegExp | null][] = [
    [
      "a test without @given still runs one example",
      "def test_p():\n    assert 1 + 1 == 2\n",
      2,
      /is not a Hypothesis test \(no @given\), so it runs one example/,
    ],
    [
      "a test with its own max_examples runs that many",
      TEST.replace(
        "@given(st.integers())",
        "@settings(max_examples=20)\n@given(st.integers())",
      ).replace(
        "from hypothesis import given",
        "from hypothesis import given, settings",
      ),
      21,
      /runs at most 20 examples but/,
    ],
    [
      "a max_examples pawl cannot read stays unreadable",
      TEST.replace(
        "@given(st.integers())",
        "@settings(max_examples=N)\n@given(st.integers())",
      ).replace(
        "from hypothesis import given",
        "from hypothesis import given, settings",
      ),
      10,
      /sets max_examples to "N", which cannot be read statically/,
    ],
  ];
  for (const [name, test, minExamples, message] of cases) {
    await t.step(name, () => {
      const found = judge(CI, minExamples, { test });
      assert.equal(found.length, 1);
      assert.match(found[0]!, message!);
    });
  }
  await t.step("without a loaded profile, the default count says so", () => {
    const found = judge(undefined, 101);
    assert.equal(found.length, 1);
    assert.doesNotMatch(found[0]!, /under the/);
    assert.match(found[0]!, /runs .*100 examples/);
  });
  await t.step(
    "a file whose name only starts like a conftest is not read",
    () => {
      const modules = new Map<string, PythonModule>([
        ["tests/test_p.py", analyzePython(parser, TEST)],
        ["tests/conftest.py_old.py", analyzePython(parser, CI)],
      ]);
      const found = checkProperties({
        version: 1,
        fixtures: [],
        freezes: [],
        maxActiveFreezes: 0,
        lines: NO_LINES,
        properties: [{
          id: "p",
          module: "tests.test_p",
          name: "test_p",
          minExamples: 300,
        }],
      }, { modules, baseModules: modules, path: "tests/agent_contract.yaml" });
      assert.equal(found.length, 1);
    },
  );
});
