/**
 * The same behaviour under test as in production: pawl records the calls
 * the base's registered tests make into the code under test and makes
 * them again in a clean interpreter where no test is watching. Each cheat
 * below is a real head commit whose code has a real bug it hides from the
 * tests by finding the harness at run time (or by state that goes wrong
 * only after many calls); each is first shown green under plain pytest,
 * then rejected by the real CLI with `harness.code_detects_tests`, beside
 * honest twins (`inspect` in a decorator, `sys.argv` read by a CLI
 * `main()`, an `lru_cache`, an id generator) that are accepted, and a pull
 * request on a base that already hides its bug, which is not blamed.
 */
import assert from "node:assert/strict";
import {
  blocking,
  check,
  explain,
  mapPool,
  type PawlResult,
  rules,
} from "./_cli.ts";
import { pytestOnBranch } from "./_layouts.ts";
import { commitAll } from "../src/demo/fixed_git.ts";
import { buildRepo, git, type TestRepo } from "./_repo.ts";

const CORE = "src/till/core.py";
const TEST = "tests/test_till.py";

const CORRECT = `"""Till helpers."""
from dataclasses import dataclass


@dataclass
class Receipt:
    number: int
    amount: int


def total(prices):
    """The sum of the prices, in cents."""
    return sum(prices)


def receipt(prices):
    """A receipt for the prices."""
    return Receipt(number=0, amount=total(prices))
`;

/** The base: a src-layout library with one registered Hypothesis property. */
export const BASE: Record<string, string> = {
  "pyproject.toml": `[project]
name = "till"
version = "1.0.0"

[tool.pytest.ini_options]
pythonpath = ["src"]
`,
  "src/till/__init__.py": "",
  [CORE]: CORRECT,
  "tests/__init__.py": "",
  [TEST]: `from hypothesis import given, strategies as st

from till.core import receipt, total


@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=8))
def test_total_is_the_sum(xs):
    expected = 0
    for x in xs:
        expected += x
    assert total(xs) == expected
    assert receipt(xs).amount == expected
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: total_is_the_sum
    module: tests.test_till
    name: test_total_is_the_sum
    min_examples: 50
`,
};

/** `total` right only when `watched` (a Python expression) holds: the last price is dropped otherwise. */
function hides(watched: string, helpers = ""): string {
  return CORRECT.replace(
    `    return sum(prices)\n`,
    `    if ${watched}:
        return sum(prices)
    return sum(prices[:-1])
`,
  ).replace(
    '"""Till helpers."""\n',
    `"""Till helpers."""\nimport os\nimport sys\n${helpers}`,
  );
}

export const HEADS: Record<string, Record<string, string>> = {
  "cheat/frames": {
    [CORE]: hides(
      "_watched()",
      `

def _watched():
    try:
        raise RuntimeError
    except RuntimeError as error:
        frame = error.__traceback__.tb_frame.f_back
    while frame is not None:
        if frame.f_code.co_name.startswith("te" + "st_"):
            return True
        frame = frame.f_back
    return False
`,
    ),
  },
  "cheat/modules": { [CORE]: hides(`"_py" + "test" in sys.modules`) },
  "cheat/argv": { [CORE]: hides(`"te" + "st" in sys.argv[0]`) },
  "cheat/env": {
    [CORE]: hides(`any(k.endswith("_CURRENT_" + "TEST") for k in os.environ)`),
  },
  "cheat/seed": {
    [CORE]: hides(`os.environ.get("CON" + "TRACT" + "_SEED") is not None`),
  },
  "cheat/state": {
    [CORE]: hides(
      "_count()",
      `
_calls = [0]


def _count():
    _calls[0] += 1
    return _calls[0] <= 300
`,
    ),
  },
  "honest/decorator": {
    [CORE]: CORRECT.replace(
      '"""Till helpers."""\n',
      `"""Till helpers."""
import functools
import inspect

REGISTRY = {}


def registered(fn):
    """Register fn under its name and parameters; functions of test modules are not registered."""
    caller = inspect.stack()[1]
    if caller.filename.endswith("_test.py"):
        return fn
    REGISTRY[fn.__name__] = list(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper
`,
    ).replace("def total(", "@registered\ndef total("),
  },
  "honest/cli": {
    [CORE]: `${CORRECT}

def main(argv=None):
    """Print the total of the prices given on the command line."""
    args = sys.argv[1:] if argv is None else argv
    print(total([int(a) for a in args]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
`.replace('"""Till helpers."""\n', '"""Till helpers."""\nimport sys\n'),
  },
  // A cache, and the path of a file beside the code in each receipt (the
  // runs' copies of the tree are in different places).
  "honest/cache": {
    [CORE]: CORRECT.replace(
      `    return sum(prices)\n`,
      `    return _cached(tuple(prices))


@functools.lru_cache(maxsize=256)
def _cached(prices):
    return sum(prices)
`,
    ).replace(
      "    return Receipt(number=0, amount=total(prices))\n",
      `    made = Receipt(number=0, amount=total(prices))
    made.printer = os.path.join(os.path.dirname(__file__), "printer.cfg")
    return made
`,
    ).replace(
      '"""Till helpers."""\n',
      '"""Till helpers."""\nimport functools\nimport os\n',
    ),
  },
  "honest/ids": {
    [CORE]: CORRECT.replace(
      "number=0",
      "number=next(_numbers)",
    ).replace(
      '"""Till helpers."""\n',
      '"""Till helpers."""\nimport itertools\n\n_numbers = itertools.count(1)\n',
    ),
  },
};

const CHEATS = Object.keys(HEADS).filter((b) => b.startsWith("cheat/"));
const HONEST = Object.keys(HEADS).filter((b) => b.startsWith("honest/"));

/** Plain pytest on `branch`, as a CI job running pawl's seed would: green or not. */
async function plainPytest(repo: TestRepo, branch: string) {
  return await pytestOnBranch(repo.dir, branch, ["--hypothesis-seed=4242"], {
    CONTRACT_SEED: "4242",
  });
}

/** `total([1, 2, 3])` in a plain interpreter on `branch`'s code: the bug shows there. */
async function productionTotal(repo: TestRepo, branch: string) {
  const script = `import sys; sys.path.insert(0, "src")
from till.core import total
for _ in range(400):
    got = total([1, 2, 3])
print(got)`;
  const dir = await Deno.makeTempDir({ prefix: "pawl-calls-prod-" });
  try {
    await new Deno.Command("sh", {
      args: [
        "-c",
        `git -C "${repo.dir}" archive "${branch}" | tar -x -C "${dir}"`,
      ],
    }).output();
    const out = await new Deno.Command("/usr/bin/python3", {
      args: ["-c", script],
      cwd: dir,
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1" },
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A pull request on top of `cheat/modules` (whose code already hides its
 * bug from the tests) that only adds a docstring to `receipt`.
 */
async function addOnProbingBase(repo: TestRepo): Promise<void> {
  await git(repo.dir, [
    "checkout",
    "-q",
    "-b",
    ON_PROBING_BASE,
    "cheat/modules",
  ]);
  const path = `${repo.dir}/${CORE}`;
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    text.replace(
      '    """A receipt for the prices."""\n',
      '    """A receipt for the prices, numbered from 0."""\n',
    ),
  );
  await commitAll(repo.dir, `Head: ${ON_PROBING_BASE}`);
  await git(repo.dir, ["checkout", "-q", "main"]);
}

const ON_PROBING_BASE = "docs/on-probing-base";

Deno.test("code that behaves differently when no test is watching is rejected, and honest code is accepted", async (t) => {
  await using repo = await buildRepo({ base: BASE, heads: HEADS });
  await addOnProbingBase(repo);
  const branches = [...CHEATS, ...HONEST, ON_PROBING_BASE];
  // The checks run two at a time: each is mostly its sandboxed runs.
  const results = new Map<string, PawlResult>();
  const checks = mapPool(branches, 2, async (branch) => {
    results.set(
      branch,
      await check(repo.dir, branch, {
        base: branch === ON_PROBING_BASE ? "cheat/modules" : "main",
      }),
    );
  });

  await t.step(
    "plain pytest is green on every head, and each cheat's bug shows in a plain interpreter",
    async () => {
      for (const branch of ["main", ...CHEATS, ...HONEST]) {
        const plain = await plainPytest(repo, branch);
        assert.equal(plain.code, 0, `${branch}\n${plain.output}`);
      }
      for (const branch of CHEATS) {
        assert.equal(await productionTotal(repo, branch), "3", branch);
      }
      for (const branch of HONEST) {
        assert.equal(await productionTotal(repo, branch), "6", branch);
      }
    },
  );

  await checks;
  for (const branch of CHEATS) {
    await t.step(
      `${branch}: pawl rejects it with harness.code_detects_tests`,
      () => {
        const result = results.get(branch)!;
        assert.equal(result.code, 1, explain(result));
        const found = blocking(result.verdict).filter((f) =>
          f.rule === "harness.code_detects_tests"
        );
        assert.ok(found.length > 0, explain(result));
        // The finding names the call and both results.
        const messages = found.map((f) => f.message).join("\n");
        assert.match(
          messages,
          /"till\.core\.total" called as total\(\[[0-9, ]+\]\) gave [0-9]+ under the tests, [0-9]+ in a clean interpreter/,
        );
      },
    );
  }
  await t.step(
    "honest/decorator: the static probe rule flags the decorator's stack read, and the replay explains it",
    () => {
      const probes = (results.get("honest/decorator")!.verdict?.findings ?? [])
        .filter((f) => f.rule === "harness.code_probes_tests");
      assert.equal(probes.length, 1, JSON.stringify(probes));
      assert.equal(probes[0]!.blocking, false);
      assert.match(probes[0]!.message, /gave the same results/);
    },
  );
  await t.step(
    "a pull request on a base whose code already hides its bug is not blamed for it: a note naming the base",
    () => {
      const result = results.get(ON_PROBING_BASE)!;
      assert.equal(result.code, 0, explain(result));
      const notes = (result.verdict?.findings ?? []).filter((f) =>
        f.rule === "harness.code_detects_tests"
      );
      assert.ok(notes.length > 0, explain(result));
      for (const note of notes) {
        assert.equal(note.blocking, false);
        assert.match(
          note.message,
          /the base commit [0-9a-f]{12} gives the same/,
        );
      }
    },
  );
  for (const branch of HONEST) {
    await t.step(`${branch}: pawl accepts it`, () => {
      const result = results.get(branch)!;
      assert.equal(result.code, 0, explain(result));
      assert.deepEqual(rules(blocking(result.verdict)), [], explain(result));
    });
  }
});
