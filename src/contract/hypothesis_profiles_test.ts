import assert from "node:assert/strict";
import type { Tree } from "../git/git.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import type { PythonFunction } from "../python/python_module.ts";
import {
  type ActiveProfile,
  activeProfile,
  examplesOf,
  type ProfileFile,
  profileFilePaths,
} from "./hypothesis_profiles.ts";

const parser = await loadPythonParser();

const IMPORTS =
  "import os\nimport hypothesis\nfrom hypothesis import settings\n";

/** Files analysed from `path: source` pairs, the imports above each source. */
function files(sources: Record<string, string>): ProfileFile[] {
  return Object.entries(sources).map(([path, text]) => ({
    path,
    module: analyzePython(parser, `${IMPORTS}${text}`),
  }));
}

/** The profile in effect after one conftest.py with `text`. */
function active(text: string, env?: Record<string, string>): ActiveProfile {
  return activeProfile(
    files({ "tests/conftest.py": text }),
    env === undefined ? {} : { env },
  );
}

/** The count the active profile sets, or `?` when pawl cannot tell. */
function count(profile: ActiveProfile): number | "?" {
  return profile.value.kind === "known" ? profile.value.maxExamples : "?";
}

Deno.test("profileFilePaths() lists every conftest.py and the __init__.py files on the tests' way down", async (t) => {
  const entry = (path: string, kind: "file" | "executable" | "tree" = "file") =>
    [path, { path, kind, oid: path, size: 1 }] as const;
  const tree: Tree = new Map([
    entry("tests/unit/test_a.py"),
    entry("__init__.py"),
    entry("tests/__init__.py"),
    entry("tests/unit/__init__.py", "executable"),
    entry("tests/other/__init__.py"),
    entry("src/__init__.py"),
    entry("src/deep/conftest.py"),
    entry("conftest.py"),
    entry("tests/unit/conftest.py", "tree"),
    entry("tests/not_conftest.py"),
    entry("tests/unit/x__init__.py"),
  ]);
  const cases: [string, string[], string[]][] = [
    [
      "a test two folders down: the root's, its folders' and every conftest",
      ["tests/unit/test_a.py"],
      [
        "__init__.py",
        "conftest.py",
        "src/deep/conftest.py",
        "tests/__init__.py",
        "tests/unit/__init__.py",
      ],
    ],
    [
      "a test at the root: only the root's __init__.py",
      ["test_a.py"],
      ["__init__.py", "conftest.py", "src/deep/conftest.py"],
    ],
    [
      "two tests: the folders of both",
      ["tests/other/test_b.py", "src/test_c.py"],
      [
        "__init__.py",
        "conftest.py",
        "src/__init__.py",
        "src/deep/conftest.py",
        "tests/__init__.py",
        "tests/other/__init__.py",
      ],
    ],
    [
      "no tests: every conftest.py still",
      [],
      ["conftest.py", "src/deep/conftest.py"],
    ],
  ];
  for (const [name, tests, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(profileFilePaths(tree, tests), want);
    });
  }
});

Deno.test("activeProfile() runs the profile calls and keeps the last profile loaded", async (t) => {
  const cases: [string, string, number | "?", string][] = [
    ["no call: Hypothesis' default", "", 100, "default"],
    [
      "a profile registered and loaded",
      'settings.register_profile("ci", max_examples=300)\nsettings.load_profile("ci")',
      300,
      "ci",
    ],
    [
      "a profile registered but not loaded",
      'settings.register_profile("ci", max_examples=300)',
      100,
      "default",
    ],
    [
      "the last of two loads",
      'settings.register_profile("a", max_examples=3)\nsettings.register_profile("b", max_examples=4)\nsettings.load_profile("b")\nsettings.load_profile("a")',
      3,
      "a",
    ],
    [
      "a profile registered again after it was loaded keeps the loaded value",
      'settings.register_profile("a", max_examples=3)\nsettings.load_profile("a")\nsettings.register_profile("a", max_examples=9)',
      3,
      "a",
    ],
    [
      "the name given by keyword",
      'settings.register_profile("ci", max_examples=30)\nsettings.load_profile(name="ci")',
      30,
      "ci",
    ],
    [
      "the name and the count through module-level constants",
      'NAME = "ci"\nALIAS = NAME\nN = 42\nsettings.register_profile(ALIAS, max_examples=N)\nsettings.load_profile(NAME)',
      42,
      "ci",
    ],
    [
      "the default profile loaded by name",
      'settings.load_profile("default")',
      100,
      "default",
    ],
    [
      "a profile loaded that no call registered",
      'settings.load_profile("ci")',
      "?",
      "ci",
    ],
    [
      "a profile loaded before it is registered",
      'settings.load_profile("ci")\nsettings.register_profile("ci", max_examples=300)',
      "?",
      "ci",
    ],
    [
      "a count that is not an integer literal",
      'settings.register_profile("ci", max_examples=300.0)\nsettings.load_profile("ci")',
      "?",
      "ci",
    ],
    [
      "a name that is not a plain string literal",
      'settings.register_profile(f"ci", max_examples=300)\nsettings.load_profile("ci")',
      "?",
      "ci",
    ],
    [
      "a name with an escape in it",
      'settings.register_profile("c\\i", max_examples=300)\nsettings.load_profile("c\\i")',
      "?",
      "?",
    ],
    [
      "a profile registered from a ** splat",
      'settings.register_profile("ci", **OPTIONS)\nsettings.load_profile("ci")',
      "?",
      "ci",
    ],
    [
      "a ** splat after max_examples: the keyword wins",
      'settings.register_profile("ci", max_examples=5, **OPTIONS)\nsettings.load_profile("ci")',
      5,
      "ci",
    ],
    [
      "a name computed by a call",
      'settings.load_profile(pick("ci"))',
      "?",
      "?",
    ],
  ];
  for (const [name, text, want, profile] of cases) {
    await t.step(name, () => {
      const got = active(text);
      assert.equal(count(got), want);
      assert.equal(got.name, profile);
    });
  }
});

Deno.test("activeProfile() takes a registration under a name it cannot read as one that may replace any profile", async (t) => {
  await t.step("a profile registered before it", () => {
    const got = active(
      'settings.register_profile("ci", max_examples=300)\nsettings.register_profile(NAME, max_examples=1)\nsettings.load_profile("ci")',
    );
    assert.equal(count(got), "?");
    assert.match(
      (got.value as { why: string }).why,
      /line 5 registers a profile whose name is not a string literal/,
    );
  });
  await t.step("the default profile itself", () => {
    const got = active(
      'settings.register_profile(NAME, max_examples=1)\nsettings.load_profile("default")',
    );
    assert.equal(count(got), "?");
    const examples = examplesOf(fn(), got);
    assert.equal(examples.count, 100);
    assert.match(examples.unresolved ?? "", /not a string literal/);
  });
  await t.step("a profile registered after it is read", () => {
    const got = active(
      'settings.register_profile(NAME, max_examples=1)\nsettings.register_profile("ci", max_examples=300)\nsettings.load_profile("ci")',
    );
    assert.equal(count(got), 300);
  });
});

Deno.test("activeProfile() reads a profile's parent settings", async (t) => {
  const load = (register: string) =>
    `settings.register_profile("base", max_examples=7)\nsettings.load_profile("base")\n${register}\nsettings.load_profile("ci")`;
  const cases: [string, string, number | "?"][] = [
    [
      "no parent: the settings in effect when it is registered",
      'settings.register_profile("ci", deadline=None)',
      7,
    ],
    [
      "parent=None: the same",
      'settings.register_profile("ci", parent=None)',
      7,
    ],
    [
      "a parent profile by get_profile",
      'settings.register_profile("other", max_examples=11)\nsettings.register_profile("ci", parent=settings.get_profile("other"))',
      11,
    ],
    [
      "a parent profile by get_profile, given by position",
      'settings.register_profile("other", max_examples=11)\nsettings.register_profile("ci", settings.get_profile("other"))',
      11,
    ],
    [
      "a parent profile no call registered",
      'settings.register_profile("ci", parent=settings.get_profile("other"))',
      "?",
    ],
    [
      "a parent profile whose name is computed",
      'settings.register_profile("ci", parent=settings.get_profile(pick()))',
      "?",
    ],
    [
      "a parent settings object with max_examples",
      'settings.register_profile("ci", settings(max_examples=13))',
      13,
    ],
    [
      "a parent settings object spelled through the module",
      'settings.register_profile("ci", parent=hypothesis.settings(max_examples=13))',
      13,
    ],
    [
      "a parent settings object without max_examples",
      'settings.register_profile("ci", settings(deadline=None))',
      7,
    ],
    [
      "a parent settings object with its own parent",
      'settings.register_profile("ci", settings(OTHER, deadline=None))',
      "?",
    ],
    [
      "a parent settings object from a ** splat",
      'settings.register_profile("ci", settings(**OPTIONS))',
      "?",
    ],
    [
      "a parent settings object with max_examples that is not a literal",
      'settings.register_profile("ci", settings(max_examples=pick()))',
      "?",
    ],
    [
      "a parent pawl cannot read",
      'settings.register_profile("ci", parent=OTHER)',
      "?",
    ],
    [
      "a parent that is an item of settings, not a call",
      'settings.register_profile("ci", parent=settings[0])',
      "?",
    ],
    [
      "a parent from another function named like a registered profile",
      'settings.register_profile("other", max_examples=11)\nsettings.register_profile("ci", parent=make("other"))',
      "?",
    ],
    [
      "a parent from a call of a call",
      'settings.register_profile("ci", parent=make()())',
      "?",
    ],
    [
      "max_examples beside a parent: max_examples wins",
      'settings.register_profile("ci", settings(max_examples=13), max_examples=17)',
      17,
    ],
  ];
  for (const [name, register, want] of cases) {
    await t.step(name, () => {
      const got = active(load(register));
      assert.equal(count(got), want);
      assert.equal(got.value.kind, want === "?" ? "unknown" : "known");
      if (want === "?") {
        assert.match(
          (got.value as { why: string }).why,
          /"tests\/conftest\.py" line \d+ /,
        );
      }
    });
  }
});

Deno.test("activeProfile() follows a profile chosen by the environment", async (t) => {
  const registered =
    'settings.register_profile("dev", max_examples=10)\nsettings.register_profile("ci", max_examples=500)\n';
  const cases: [
    string,
    string,
    Record<string, string>,
    number | "?",
    string?,
  ][] = [
    [
      "os.environ.get with a default, unset",
      'settings.load_profile(os.environ.get("P", "dev"))',
      {},
      10,
      "$P is unset in pawl's sandbox, so its default applies",
    ],
    [
      "os.environ.get with a default, set in [environment] env",
      'settings.load_profile(os.environ.get("P", "dev"))',
      { P: "ci" },
      500,
      '$P is "ci" in the base\'s [environment] env',
    ],
    [
      "os.getenv with a default by keyword, unset",
      'settings.load_profile(os.getenv("P", default="dev"))',
      { OTHER: "ci" },
      10,
      "$P is unset in pawl's sandbox, so its default applies",
    ],
    [
      "os.getenv, set",
      'settings.load_profile(os.getenv("P"))',
      { P: "ci" },
      500,
      '$P is "ci" in the base\'s [environment] env',
    ],
    [
      "os.environ.get without a default, unset",
      'settings.load_profile(os.environ.get("P"))',
      {},
      "?",
    ],
    [
      "os.environ.get with a computed default",
      'settings.load_profile(os.environ.get("P", pick()))',
      {},
      "?",
    ],
    [
      "a variable whose name is computed, with no env",
      'settings.load_profile(os.environ.get(pick(), "dev"))',
      {},
      10,
      "an environment variable is unset in pawl's sandbox, so its default applies",
    ],
    [
      "a variable whose name is computed, with an env that may set it",
      'settings.load_profile(os.environ.get(pick(), "dev"))',
      { P: "ci" },
      "?",
    ],
    [
      "os.environ[...] set",
      'settings.load_profile(os.environ["P"])',
      { P: "ci" },
      500,
      '$P is "ci" in the base\'s [environment] env',
    ],
    [
      "os.environ[...] unset",
      'settings.load_profile(os.environ["P"])',
      { OTHER: "ci" },
      "?",
    ],
    [
      "a subscript of another mapping",
      'settings.load_profile(NAMES["P"])',
      { P: "ci" },
      "?",
    ],
    [
      "another function's call",
      'settings.load_profile(lookup("P", "dev"))',
      { P: "ci" },
      "?",
    ],
  ];
  for (const [name, load, env, want, via] of cases) {
    await t.step(name, () => {
      const got = active(`${registered}${load}`, env);
      assert.equal(count(got), want);
      assert.equal(got.via, via);
      assert.deepEqual(got.loadedAt, { path: "tests/conftest.py", line: 6 });
    });
  }
  await t.step("an unreadable choice says what it depends on", () => {
    const why = (load: string, env: Record<string, string> = {}) =>
      (active(`${registered}${load}`, env).value as { why: string }).why;
    assert.match(
      why('settings.load_profile(os.environ.get("P"))'),
      /loads a profile chosen by \$P, which has no default/,
    );
    assert.match(
      why('settings.load_profile(os.environ.get("P", pick()))'),
      /loads a profile chosen by \$P with a computed default/,
    );
    assert.match(
      why('settings.load_profile(os.environ.get(pick(), "dev"))', { P: "ci" }),
      /loads a profile chosen by an environment variable whose name is not a string literal/,
    );
    assert.match(
      why('settings.load_profile(os.environ["P"])'),
      /loads a profile named by an environment variable without a default/,
    );
    assert.match(
      why("settings.load_profile(pick())"),
      /loads a profile whose name is computed/,
    );
  });
});

Deno.test("activeProfile() takes the files in pytest's collection order, whatever order they come in", async (t) => {
  const register =
    'settings.register_profile("a", max_examples=1)\nsettings.register_profile("b", max_examples=2)\nsettings.register_profile("c", max_examples=3)\n';
  const load = (name: string) => `settings.load_profile("${name}")\n`;
  const cases: [string, Record<string, string>, number][] = [
    [
      "a folder's conftest.py before its __init__.py",
      { "tests/__init__.py": load("b"), "tests/conftest.py": load("a") },
      2,
    ],
    [
      "a folder's __init__.py before its test modules",
      { "tests/test_x.py": load("b"), "tests/__init__.py": load("a") },
      2,
    ],
    [
      "a parent folder's conftest.py before a subfolder's",
      { "tests/sub/conftest.py": load("b"), "tests/conftest.py": load("a") },
      2,
    ],
    [
      "the root's conftest.py before any folder's",
      { "tests/conftest.py": load("b"), "conftest.py": load("a") },
      2,
    ],
    [
      "a folder named like conftest.py, by its name",
      { "conftest.py/test_x.py": load("b"), "a/test_y.py": load("a") },
      2,
    ],
    [
      "entries of a folder by name",
      { "tests/test_b.py": load("b"), "tests/test_a.py": load("a") },
      2,
    ],
    [
      "a subfolder among a folder's test modules by name",
      {
        "tests/test_z.py": load("c"),
        "tests/sub/conftest.py": load("b"),
        "tests/test_a.py": load("a"),
      },
      3,
    ],
  ];
  for (const [name, sources, want] of cases) {
    await t.step(name, () => {
      const all = files(
        Object.fromEntries(
          Object.entries(sources).map(([path, text]) => [
            path,
            `${register}${text}`,
          ]),
        ),
      );
      assert.equal(count(activeProfile(all)), want);
      assert.equal(count(activeProfile([...all].reverse())), want);
    });
  }
  await t.step(
    "the calls of one file by line, whatever order they come in",
    () => {
      const [file] = files({
        "conftest.py": `${register}${load("a")}${load("c")}`,
      });
      const calls = [...file!.module.profileCalls!].reverse();
      const got = activeProfile([{
        path: "conftest.py",
        module: { ...file!.module, profileCalls: calls },
      }]);
      assert.equal(count(got), 3);
    },
  );
});

/** A Hypothesis test, with `@settings(max_examples=...)` when `written` is given. */
function fn(
  written?: number,
  stateful?: PythonFunction["stateful"],
): PythonFunction {
  return {
    name: "test_a",
    qualname: "test_a",
    line: 2,
    endLine: 3,
    source: "",
    decorators: [],
    usesHypothesis: true,
    skips: [],
    exampleAssertions: 0,
    ...(written === undefined ? {} : {
      settings: {
        line: 9,
        keywords: { max_examples: String(written) },
        maxExamples: written,
      },
    }),
    ...(stateful === undefined ? {} : { stateful }),
  };
}

Deno.test("examplesOf() takes a test's own max_examples over the profile, and says where a count comes from", async (t) => {
  const machine = (binding: "assign" | "class" | "def") => ({
    machine: "M",
    binding,
    nodeName: "TestM::runTest",
    steps: [],
  });
  const loaded: ActiveProfile = {
    name: "ci",
    value: { kind: "known", maxExamples: 300 },
    loadedAt: { path: "tests/conftest.py", line: 4 },
  };
  const cases: [string, PythonFunction, ActiveProfile, unknown][] = [
    [
      "its own @settings",
      fn(5),
      loaded,
      { count: 5, from: "settings" },
    ],
    [
      "a state machine's TestCase settings",
      fn(5, machine("assign")),
      loaded,
      {
        count: 5,
        from: "settings",
        detail: "its state machine's settings (line 9)",
      },
    ],
    [
      "a state machine's TestCase class settings",
      fn(5, machine("class")),
      loaded,
      {
        count: 5,
        from: "settings",
        detail: "its state machine's settings (line 9)",
      },
    ],
    [
      "a test function that runs a machine, with its own @settings",
      fn(5, machine("def")),
      loaded,
      { count: 5, from: "settings" },
    ],
    [
      "a loaded profile",
      fn(),
      loaded,
      {
        count: 300,
        from: "profile",
        detail: 'profile "ci" loaded in "tests/conftest.py" line 4',
      },
    ],
    [
      "a profile chosen through the environment",
      fn(),
      { ...loaded, via: "$P is unset" },
      {
        count: 300,
        from: "profile",
        detail:
          'profile "ci" loaded in "tests/conftest.py" line 4 ($P is unset)',
      },
    ],
    [
      "no profile loaded",
      fn(),
      { name: "default", value: { kind: "known", maxExamples: 100 } },
      { count: 100, from: "default" },
    ],
    [
      "a profile pawl cannot read",
      fn(),
      { ...loaded, value: { kind: "unknown", why: "it is computed" } },
      { count: 100, from: "default", unresolved: "it is computed" },
    ],
  ];
  for (const [name, test, profile, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(examplesOf(test, profile), want);
    });
  }
});

Deno.test("activeProfile() reads how register_profile and load_profile are called", async (t) => {
  const chain = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `N${i} = ${i === n - 1 ? '"ci"' : `N${i + 1}`}`,
    ).join("\n");
  const cases: [string, string, number | "?", RegExp?][] = [
    [
      "the name given by keyword",
      'settings.register_profile(name="ci", max_examples=5)\nsettings.load_profile("ci")',
      5,
    ],
    [
      "keywords from a ** splat",
      'settings.register_profile("ci", **OPTIONS)\nsettings.load_profile("ci")',
      "?",
      /line 4 registers a profile from a \*\* splat/,
    ],
    [
      "arguments from a * splat",
      'settings.register_profile("ci", *ARGS)\nsettings.load_profile("ci")',
      "?",
      /line 4 registers a profile from a \*\* splat/,
    ],
    [
      "a name in triple quotes, which pawl does not read: it may be any profile",
      'settings.register_profile("ci", max_examples=3)\nsettings.register_profile("""ci""", max_examples=5)\nsettings.load_profile("ci")',
      "?",
      /line 5 registers a profile whose name is not a string literal/,
    ],
    [
      "a name followed through four module-level names",
      `${
        chain(4)
      }\nsettings.register_profile("ci", max_examples=5)\nsettings.load_profile(N0)`,
      5,
    ],
    [
      "a name five names away, past what pawl follows",
      `${
        chain(5)
      }\nsettings.register_profile("ci", max_examples=5)\nsettings.load_profile(N0)`,
      "?",
      /loads a profile whose name is computed/,
    ],
    [
      "names that refer to each other",
      'A = B\nB = A\nsettings.register_profile("ci", max_examples=5)\nsettings.load_profile(A)',
      "?",
      /loads a profile whose name is computed/,
    ],
    [
      "a load without a name",
      "settings.load_profile()",
      "?",
      /line 4 loads a profile whose name is computed/,
    ],
    [
      "a parent profile by get_profile that no call registered",
      'settings.register_profile("ci", parent=settings.get_profile("other"))\nsettings.load_profile("ci")',
      "?",
      /line 4 registers a profile whose parent settings pawl cannot read/,
    ],
  ];
  for (const [name, text, want, why] of cases) {
    await t.step(name, () => {
      const got = active(text);
      assert.equal(count(got), want);
      assert.equal(got.value.kind, want === "?" ? "unknown" : "known");
      if (why !== undefined) {
        assert.match((got.value as { why: string }).why, why);
      }
    });
  }
  await t.step(
    "a profile loaded by a literal name says where, and no other way it was chosen",
    () => {
      assert.deepEqual(
        active(
          'settings.register_profile("ci", max_examples=5)\nsettings.load_profile("ci")',
        ),
        {
          name: "ci",
          value: { kind: "known", maxExamples: 5 },
          loadedAt: { path: "tests/conftest.py", line: 5 },
        },
      );
    },
  );
  await t.step(
    "an [environment] variable named `undefined` names no computed variable",
    () => {
      const got = active(
        'settings.register_profile("ci", max_examples=5)\nsettings.load_profile(os.environ[pick()])',
        { undefined: "ci" },
      );
      assert.equal(count(got), "?");
    },
  );
  await t.step(
    "a parent spelled `settings` where the name is not imported from hypothesis",
    () => {
      const got = activeProfile([{
        path: "tests/conftest.py",
        module: analyzePython(
          parser,
          'import hypothesis\nhypothesis.settings.register_profile("ci", settings(max_examples=13))\nhypothesis.settings.load_profile("ci")\n',
        ),
      }]);
      assert.equal(count(got), 13);
    },
  );
});

Deno.test("activeProfile() takes a package's __init__.py before its modules, whatever their names", () => {
  const got = activeProfile(files({
    "pkg/Upper_test.py": 'settings.load_profile("b")',
    "pkg/__init__.py":
      'settings.register_profile("a", max_examples=3)\nsettings.register_profile("b", max_examples=4)\nsettings.load_profile("a")',
  }));
  assert.equal(got.name, "b");
  assert.equal(count(got), 4);
});
