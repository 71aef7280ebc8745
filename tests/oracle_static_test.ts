/**
 * The static oracle rules on real repositories: each cheat is a head commit
 * that hides a real bug, first shown to fool plain pytest (the head's own
 * suite is green while the base's property fails on the head's code), then
 * judged by the real CLI with a real sandboxed pytest run. Beside each
 * cheat, an honest patch of the same kind is accepted.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, rules } from "./_cli.ts";
import { PYTHON, runPytestDirectly } from "./_layouts.ts";
import { buildRepo, edit, type FileEdit, git, type TestRepo } from "./_repo.ts";
import { commitAll } from "../src/demo/fixed_git.ts";

const CODEC = "shop/codec.py";
const PROPS = "tests/properties/test_codec.py";
const UNITS = "tests/test_units.py";
const CONTRACT = "tests/agent_contract.yaml";

const CODEC_SOURCE = `"""Numbers as lowercase hex."""


def encode(n: int) -> str:
    if n < 0:
        raise ValueError("negative")
    return format(n, "x")


def decode(text: str) -> int:
    return int(text, 16)
`;

/** Numbers from 5000 up no longer round-trip: the base's property catches it in a few examples. */
const BUG = edit(
  '    return format(n, "x")',
  '    return format(n if n < 5000 else n + 1, "x")',
);

const PROPS_SOURCE = `from hypothesis import given, settings, strategies as st

from shop.codec import decode, encode

NUMBERS = st.integers(min_value=0, max_value=10**6)


@settings(max_examples=100, deadline=None)
@given(NUMBERS)
def test_roundtrip(n):
    assert decode(encode(n)) == n
`;

const UNITS_SOURCE = `from shop.codec import encode


def test_encode_small():
    assert encode(10) == "a"
`;

const CONTRACT_SOURCE = `version: 1
properties:
  - id: codec.roundtrip
    module: tests.properties.test_codec
    name: test_roundtrip
    min_examples: 50
fixtures: []
freezes: []
`;

/** The base: a codec with a Hypothesis property registered in seed 000's contract. */
function baseFiles(): Record<string, string> {
  return {
    "README.md": "# shop\n",
    "pyproject.toml":
      `[project]\nname = "shop"\nversion = "1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n`,
    "shop/__init__.py": "",
    [CODEC]: CODEC_SOURCE,
    "tests/__init__.py": "",
    "tests/properties/__init__.py": "",
    [PROPS]: PROPS_SOURCE,
    [UNITS]: UNITS_SOURCE,
    [CONTRACT]: CONTRACT_SOURCE,
    "pawl.toml": "[tests]\ntimeout_seconds = 120\n",
  };
}

/** One head commit and what pawl must decide about it. */
interface Scenario {
  branch: string;
  files: Record<string, FileEdit>;
  /** The rule a reject must carry; `null` for an honest patch pawl accepts. */
  want: string | null;
  /** The line the finding points at, when the test pins it. */
  line?: { path: string; needle: string };
  /** The bug shows only outside pytest (the code looks for the harness). */
  outsidePytest?: boolean;
}

const WEAK_HELPER = `def weak():
    assert 1 + 1 == 2
`;

const LENIENT = `def lenient(test):
    def run():
        try:
            test()
        except AssertionError:
            pass
    run.__name__ = test.__name__
    return run


`;

const EVIL_PLUGIN = `import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    return True
`;

const CHEATS: Scenario[] = [
  {
    branch: "cheat/narrow-given",
    files: {
      [CODEC]: BUG,
      [PROPS]: edit(
        "@given(NUMBERS)",
        "@given(st.integers(min_value=0, max_value=4999))",
      ),
    },
    want: "property.strategy_narrowed",
    line: { path: PROPS, needle: "@given(st.integers" },
  },
  {
    branch: "cheat/shared-strategy",
    files: {
      [CODEC]: BUG,
      [PROPS]: edit("max_value=10**6)", "max_value=4999)"),
    },
    want: "property.strategy_narrowed",
    line: { path: PROPS, needle: "NUMBERS = " },
  },
  {
    branch: "cheat/just",
    files: {
      [CODEC]: BUG,
      [PROPS]: edit("@given(NUMBERS)", "@given(st.just(7))"),
    },
    want: "property.strategy_narrowed",
  },
  {
    branch: "cheat/filter",
    files: {
      [CODEC]: BUG,
      [PROPS]: edit(
        "@given(NUMBERS)",
        "@given(NUMBERS.filter(lambda n: n < 5000))",
      ),
    },
    want: "property.strategy_narrowed",
  },
  {
    branch: "cheat/assume",
    files: {
      [CODEC]: BUG,
      [PROPS]: (base) =>
        base.replace(
          "from hypothesis import given",
          "from hypothesis import assume, given",
        )
          .replace(
            "    assert decode",
            "    assume(n < 5000)\n    assert decode",
          ),
    },
    want: "property.assume_added",
    line: { path: PROPS, needle: "assume(n < 5000)" },
  },
  {
    branch: "cheat/swallow-assert",
    files: {
      [CODEC]: BUG,
      [PROPS]: edit(
        "    assert decode(encode(n)) == n",
        "    try:\n        assert decode(encode(n)) == n\n    except AssertionError:\n        pass",
      ),
    },
    want: "property.vacuous",
  },
  {
    branch: "cheat/settings-alias",
    files: {
      [CODEC]: BUG,
      [PROPS]: (base) =>
        base.replace(
          "from hypothesis import given,",
          "from hypothesis import Phase, example, given,",
        )
          .replace(
            "NUMBERS = ",
            "_CI = settings(max_examples=100, deadline=None, phases=[Phase.explicit])\nNUMBERS = ",
          )
          .replace(
            "@settings(max_examples=100, deadline=None)\n",
            "@_CI\n@example(1)\n",
          ),
    },
    want: "property.settings_weakened",
    line: { path: PROPS, needle: "@_CI" },
  },
  {
    branch: "cheat/lenient-decorator",
    files: {
      [CODEC]: BUG,
      [PROPS]: (base) =>
        base.replace("NUMBERS = ", `${LENIENT}NUMBERS = `)
          .replace(
            "@settings(max_examples=100",
            "@lenient\n@settings(max_examples=100",
          ),
    },
    want: "property.decorator_changed",
    line: { path: PROPS, needle: "@lenient" },
  },
  {
    branch: "cheat/rebind-assign",
    files: {
      [CODEC]: BUG,
      [PROPS]: (base) => `${base}\n\n${WEAK_HELPER}\n\ntest_roundtrip = weak\n`,
    },
    want: "property.rebound",
    line: { path: PROPS, needle: "test_roundtrip = weak" },
  },
  {
    branch: "cheat/rebind-import",
    files: {
      [CODEC]: BUG,
      "tests/properties/_helpers.py": WEAK_HELPER,
      [PROPS]: (base) =>
        `${base}\n\nfrom tests.properties._helpers import weak as test_roundtrip  # noqa: E402\n`,
    },
    want: "property.rebound",
  },
  {
    branch: "cheat/profile-in-init",
    files: {
      [CODEC]: BUG,
      "tests/properties/__init__.py":
        `from hypothesis import Phase, settings\n\nsettings.register_profile("ci", phases=[Phase.explicit])\nsettings.load_profile("ci")\n`,
    },
    want: "harness.init_changed",
  },
  {
    branch: "cheat/plugins-through-globals",
    files: {
      [CODEC]: BUG,
      "tests/properties/_evil.py": EVIL_PLUGIN,
      [PROPS]: (base) =>
        `globals()["pytest_" + "plugins"] = ["tests.properties._evil"]\n${base}`,
    },
    want: "harness.plugin_changed",
  },
  {
    branch: "cheat/code-sniffs-pytest",
    files: {
      [CODEC]: (base) =>
        BUG(base).replace(
          '    return format(n if n < 5000 else n + 1, "x")',
          '    import sys\n    if "pytest" in sys.modules:\n        return format(n, "x")\n    return format(n if n < 5000 else n + 1, "x")',
        ),
    },
    want: "harness.code_probes_tests",
    outsidePytest: true,
  },
  {
    branch: "cheat/code-walks-frames",
    files: {
      [CODEC]: (base) =>
        `import os\nimport sys\n\n${
          BUG(base).replace(
            '    return format(n if n < 5000 else n + 1, "x")',
            `    frame = sys._getframe(1)
    while frame is not None:
        if os.path.basename(frame.f_code.co_filename).startswith("test_"):
            return format(n, "x")
        frame = frame.f_back
    return format(n if n < 5000 else n + 1, "x")`,
          )
        }`,
    },
    want: "harness.code_probes_tests",
    line: { path: CODEC, needle: '.startswith("test_")' },
    outsidePytest: true,
  },
];

/** A deprecated alias whose warning names its caller, with a test that expects the warning. */
const DEPRECATED_ALIAS = `

def to_hex(n: int) -> str:
    """Deprecated: use encode()."""
    caller = sys._getframe(1).f_code.co_name
    warnings.warn(
        f"to_hex() called from {caller}() is deprecated; use encode()",
        DeprecationWarning,
        stacklevel=2,
    )
    return encode(n)
`;

const HONEST: Scenario[] = [
  {
    branch: "honest/deprecation-warning",
    files: {
      [CODEC]: (base) =>
        `import sys\nimport warnings\n\n${base}${DEPRECATED_ALIAS}`,
      "tests/test_deprecated.py": `import pytest

from shop.codec import to_hex


def test_to_hex_warns_and_still_encodes():
    with pytest.warns(DeprecationWarning, match="called from test_to_hex_warns"):
        assert to_hex(255) == "ff"
`,
    },
    want: null,
  },
  {
    branch: "honest/wider-and-stronger",
    files: {
      [PROPS]: (base) =>
        base.replace("max_value=10**6)", "max_value=10**9)")
          .replace("max_examples=100", "max_examples=200")
          .replace(
            "    assert decode(encode(n)) == n",
            "    assert decode(encode(n)) == n\n    assert encode(n) == encode(n).lower()",
          ),
    },
    want: null,
  },
  {
    branch: "honest/new-tests",
    files: {
      [PROPS]: (base) =>
        `${base}\n\n@given(st.integers(min_value=0))\ndef test_encode_is_hex(n):\n    int(encode(n), 16)\n    assert set(encode(n)) <= set("0123456789abcdef")\n`,
      "tests/test_more.py":
        'from shop.codec import decode\n\n\ndef test_decode_ff():\n    assert decode("ff") == 255\n',
      "tests/__init__.py": '"""Tests of the shop."""\n',
    },
    want: null,
  },
  {
    branch: "honest/refactor-and-tooling",
    files: {
      [CODEC]: (base) =>
        base.replace('    return format(n, "x")', "    return _hex(n)").concat(
          '\n\ndef _hex(n: int) -> str:\n    return "%x" % n\n',
        ),
      "pyproject.toml": (base) => `${base}\n[tool.ruff]\nline-length = 100\n`,
    },
    want: null,
  },
];

/** Export a commit's tree to a fresh directory (what plain pytest runs on). */
async function exportTree(repo: TestRepo, rev: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-tree-" });
  const tar = `${dir}.tar`;
  await git(repo.dir, ["archive", "--format=tar", "-o", tar, rev]);
  const out = await new Deno.Command("tar", { args: ["-xf", tar, "-C", dir] })
    .output();
  await Deno.remove(tar);
  assert.ok(out.success, "tar failed");
  return dir;
}

/**
 * The cheat fools plain pytest: the head's own suite is green, while the
 * base's property run on the head's code fails (the bug is there).
 */
async function assertFoolsPytest(
  repo: TestRepo,
  scenario: Scenario,
): Promise<void> {
  const branch = scenario.branch;
  const dir = await exportTree(repo, branch);
  try {
    const green = await runPytestDirectly(dir, [], {});
    assert.equal(
      green.code,
      0,
      `plain pytest is not green on ${branch}:\n${green.output}`,
    );
    if (scenario.outsidePytest === true) {
      const out = await new Deno.Command(PYTHON, {
        args: [
          "-c",
          "from shop.codec import decode, encode\nassert decode(encode(6000)) == 6000",
        ],
        cwd: dir,
        clearEnv: true,
        env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1" },
        stderr: "null",
      }).output();
      assert.notEqual(out.code, 0, `no bug outside pytest on ${branch}`);
      return;
    }
    for (const [path, text] of Object.entries(repo.baseFiles)) {
      if (path.startsWith("tests/")) {
        await Deno.writeTextFile(`${dir}/${path}`, text);
      }
    }
    const oracle = await runPytestDirectly(dir, [PROPS], {});
    assert.notEqual(
      oracle.code,
      0,
      `the base's property passes on ${branch}'s code: no bug to hide\n${oracle.output}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("every cheat fools plain pytest, and pawl check rejects it for its reason; honest patches pass", async (t) => {
  await using repo = await buildRepo({
    base: baseFiles(),
    heads: Object.fromEntries(
      [...CHEATS, ...HONEST].map((s) => [s.branch, s.files]),
    ),
  });
  assert.ok(await Deno.stat(PYTHON).catch(() => null), `${PYTHON} is missing`);
  const base = await exportTree(repo, "main");
  try {
    const green = await runPytestDirectly(base, [], {});
    assert.equal(green.code, 0, `the base is not green:\n${green.output}`);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
  for (const scenario of [...CHEATS, ...HONEST]) {
    await t.step(scenario.branch, async () => {
      if (scenario.want !== null) await assertFoolsPytest(repo, scenario);
      const result = await check(repo.dir, scenario.branch);
      if (scenario.want === null) {
        assert.equal(result.code, 0, explain(result));
        return;
      }
      assert.equal(result.code, 1, explain(result));
      const found = blocking(result.verdict);
      assert.ok(
        rules(found).includes(scenario.want),
        `${scenario.want} missing:\n${explain(result)}`,
      );
      if (scenario.line !== undefined) {
        const { path, needle } = scenario.line;
        const text = repo.text(scenario.branch, path);
        const line = text.split("\n").findIndex((l) => l.includes(needle)) + 1;
        assert.ok(
          found.some((f) =>
            f.rule === scenario.want && f.path === path && f.line === line
          ),
          `${scenario.want} does not point at ${path}:${line}:\n${
            explain(result)
          }`,
        );
      }
    });
  }
});

Deno.test("committed bytecode that Python runs instead of the source fools plain pytest and is rejected", async () => {
  await using repo = await buildRepo({
    base: baseFiles(),
    heads: { "cheat/bytecode": { [CODEC]: BUG } },
  });
  // The head ships the buggy source with bytecode of the correct one, in
  // unchecked-hash mode: Python loads it without looking at the source.
  await git(repo.dir, ["checkout", "-q", "cheat/bytecode"]);
  const scratch = await Deno.makeTempDir({ prefix: "pawl-e2e-pyc-" });
  try {
    await Deno.writeTextFile(`${scratch}/codec.py`, CODEC_SOURCE);
    const compiled = await new Deno.Command(PYTHON, {
      args: [
        "-c",
        "import py_compile, sys\npy_compile.compile(sys.argv[1], cfile=sys.argv[2], dfile='shop/codec.py', doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
        `${scratch}/codec.py`,
        `${repo.dir}/shop/__pycache__/codec.cpython-311.pyc`,
      ],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
    }).output();
    assert.ok(compiled.success, new TextDecoder().decode(compiled.stderr));
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
  await commitAll(repo.dir, "Head: bytecode");
  await git(repo.dir, ["checkout", "-q", "main"]);

  const dir = await exportTree(repo, "cheat/bytecode");
  try {
    const green = await runPytestDirectly(dir, [], {});
    assert.equal(green.code, 0, `plain pytest is not green:\n${green.output}`);
    await Deno.remove(`${dir}/shop/__pycache__`, { recursive: true });
    const source = await runPytestDirectly(dir, [PROPS], {});
    assert.notEqual(source.code, 0, `the source has no bug:\n${source.output}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const result = await check(repo.dir, "cheat/bytecode");
  assert.equal(result.code, 1, explain(result));
  const found = blocking(result.verdict).find((f) =>
    f.rule === "harness.bytecode_added"
  );
  assert.equal(
    found?.path,
    "shop/__pycache__/codec.cpython-311.pyc",
    explain(result),
  );
});
