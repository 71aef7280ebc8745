/**
 * The warm mutant engine end to end: the real CLI, the real sandbox, real
 * pytest and Hypothesis, `[mutation]` on. With the default test command
 * (`python3 -m pytest ...`) mutants run in one warm interpreter per
 * sandbox; the same command behind `env` is not that form, so every
 * mutant runs one pytest process each, the old way. Both give the same
 * verdicts; an endless loop costs about a normal run's CPU time; mutants
 * no test reaches are counted and never run; and a head test that can
 * tell a forked run from a fresh one (and so would fail in every mutant's
 * run, killing them all) does not hide its weakening.
 */
import assert from "node:assert/strict";
import { check, explain, mapPool, type PawlResult } from "./_cli.ts";
import { BASE, CORE, HONEST, TEST, WEAK } from "./_mutation_kit.ts";
import { buildRepo, edit } from "./_repo.ts";

/** uids of this file's own CLI runs (every mutant sandbox leases from them). */
const UIDS = "64660-64699";

/** The default test command behind `env`: the same run, never warm. */
const COLD_SETTINGS = `[tests]
command = ["env", "python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
`;

interface Mutation {
  ran: number;
  killed: number;
  survived: number;
  timedOut: number;
  weakened: number;
  selected: number;
  notCovered: number;
  cutByBudget: number;
  notRun?: string;
}

function mutationOf(result: PawlResult): Mutation {
  const tests = result.verdict?.tests as unknown as { mutation?: Mutation };
  assert.ok(tests?.mutation !== undefined, explain(result));
  return tests.mutation;
}

/** A private temp root: an empty mutation cache, so every mutant runs. */
async function privateTempRoot(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "pw" });
  await Deno.chmod(path, 0o755);
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

function judge(
  repo: string,
  head: string,
  temp: string,
  extra: readonly string[] = [],
): Promise<PawlResult> {
  return check(repo, head, {
    env: { PAWL_SANDBOX_UIDS: UIDS, TMPDIR: temp },
    quiet: false,
    extra,
  });
}

Deno.test("the warm engine gives the verdicts mutants run one process each give", async () => {
  const heads: Record<string, Record<string, (t: string) => string>> = {
    "honest/stronger": { [TEST]: HONEST },
  };
  for (const [branch, w] of Object.entries(WEAK)) {
    heads[branch] = { [TEST]: w.edit };
  }
  await using warm = await buildRepo({ base: BASE, heads });
  await using cold = await buildRepo({
    base: { ...BASE, "pawl.toml": `${BASE["pawl.toml"]}${COLD_SETTINGS}` },
    heads,
  });
  await using temp = await privateTempRoot();
  const branches = Object.keys(heads);
  const runs = await mapPool(
    branches.flatMap((b) => [[warm.dir, b], [cold.dir, b]] as const),
    2,
    ([dir, b]) => judge(dir, b, temp.path),
  );
  let compared = 0;
  for (const [i, branch] of branches.entries()) {
    const [w, c] = [runs[2 * i]!, runs[2 * i + 1]!];
    assert.equal(w.code, c.code, `${branch}\n${explain(w)}\n${explain(c)}`);
    if (mutationOf(w).notRun !== undefined) {
      // Rejected by the sources alone: neither engine runs a mutant.
      assert.equal(mutationOf(c).notRun, mutationOf(w).notRun, branch);
      continue;
    }
    compared++;
    assert.match(w.stderr, /mutation: running \d+ of \d+ mutants in \d+ warm/);
    assert.doesNotMatch(c.stderr, /warm interpreters/);
    assert.equal(w.code, c.code, `${branch}\n${explain(w)}\n${explain(c)}`);
    const findings = (r: PawlResult) =>
      (r.verdict?.findings ?? []).map((f) =>
        [f.rule, f.message, f.path, f.line].join("\n")
      ).sort();
    assert.deepEqual(findings(w), findings(c), branch);
    const counts = (m: Mutation) => {
      const { ran, killed, survived, timedOut, weakened } = m;
      return { ran, killed, survived, timedOut, weakened };
    };
    assert.deepEqual(counts(mutationOf(w)), counts(mutationOf(c)), branch);
    assert.equal(mutationOf(w).notCovered, 0, branch);
  }
  // The honest strengthening and at least one weakening the kill sets
  // alone decide.
  assert.ok(compared >= 2, `${compared} compared`);
});

/** A module whose mutants include endless loops, and a function no test calls. */
const LOOPS: Record<string, string> = {
  "pyproject.toml": BASE["pyproject.toml"]!,
  "pawl.toml": "[mutation]\nenabled = true\nmax_mutants = 200\n",
  "src/kit/__init__.py": "from .count import count_up, unused\n",
  "src/kit/count.py": `def count_up(n):
    i = 0
    while i < n:
        i += 1
    return i


def unused(x):
    return x * 3 + 1
`,
  "tests/__init__.py": "",
  "tests/test_count.py":
    `from hypothesis import given, settings, strategies as st

from kit import count_up


@settings(max_examples=30)
@given(st.integers(0, 50))
def test_count_up(n):
    assert count_up(n) == n
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: count_up
    module: tests.test_count
    name: test_count_up
    min_examples: 20
`,
};

Deno.test("an endless loop of a warm mutant costs about a normal run, and mutants no test reaches are counted and never run", async () => {
  await using repo = await buildRepo({
    base: LOOPS,
    // A test-side change, so the mutants run (with the test side the
    // base's, no kill set could change and none would).
    heads: {
      "tests/more": {
        "tests/test_count.py": LOOPS["tests/test_count.py"]!.replace(
          "max_examples=30",
          "max_examples=40",
        ),
      },
    },
  });
  await using temp = await privateTempRoot();
  const reportPath = `${temp.path}/mutation.json`;
  const result = await judge(repo.dir, "tests/more", temp.path, [
    "--mutation-report",
    reportPath,
  ]);
  assert.equal(result.code, 0, explain(result));
  const m = mutationOf(result);
  assert.ok(m.timedOut >= 1, JSON.stringify(m));
  // Each stopped child's CPU time, and the limit its tests' baseline
  // time gave it: about a normal run, far below the cold floor of ten
  // seconds and more.
  const stopped = [
    ...result.stderr.matchAll(
      /stopped after ([\d.]+) s of CPU time, its limit from the baseline's ([\d.]+) s/g,
    ),
  ].map(([, used, limit]) => ({ used: Number(used), limit: Number(limit) }));
  assert.equal(stopped.length, m.timedOut, result.stderr);
  for (const { used, limit } of stopped) {
    assert.ok(limit < 4, `a limit of ${limit} s`);
    assert.ok(used <= limit + 0.5, `${used} s used of ${limit} s`);
  }
  const report = JSON.parse(await Deno.readTextFile(reportPath));
  const mutants = report.files["src/kit/count.py"].mutants as {
    status: string;
    description: string;
  }[];
  const uncovered = mutants.filter((x) => x.status === "NoCoverage");
  assert.ok(uncovered.length > 0);
  assert.equal(m.notCovered, uncovered.length);
  assert.ok(uncovered.every((x) => x.description.includes(" in unused:")));
  assert.ok(
    mutants.filter((x) => x.description.includes(" in unused:")).every((x) =>
      x.status === "NoCoverage"
    ),
  );
  assert.equal(m.ran + m.notCovered + m.cutByBudget, m.selected);
});

/** Weakened tests that also fail whenever their run is not a fresh process. */
const TELLS: Record<string, (t: string) => string> = {
  // A marker the first run leaves in the tree.
  "tell/marker": (t) =>
    edit(
      "from hypothesis import given,",
      "import pathlib\n\nimport pytest\nfrom hypothesis import given,",
    )(
      edit(
        "@settings(max_examples=40)\n@given(st.integers(), st.integers(), st.integers())\ndef test_clamp_exact(x, a, b):\n",
        `@pytest.fixture(scope="module")
def fresh_tree():
    marker = pathlib.Path(__file__).with_name(".ran")
    fresh = not marker.exists()
    marker.touch()
    return fresh


@settings(max_examples=40)
@given(st.integers(), st.integers(), st.integers())
def test_clamp_exact(fresh_tree, x, a, b):
    assert fresh_tree
`,
      )(WEAK["weak/membership"]!.edit(t)),
    ),
  // The process id at import.
  "tell/pid": (t) =>
    edit("import math\n", "import math\nimport os\n\nPID = os.getpid()\n")(
      edit(
        "    lo, hi = min(a, b), max(a, b)\n",
        "    assert os.getpid() == PID\n    lo, hi = min(a, b), max(a, b)\n",
      )(WEAK["weak/membership"]!.edit(t)),
    ),
};

Deno.test("a head test that fails in every forked run, to kill every mutant, does not hide its weakening", async (t) => {
  const heads = Object.fromEntries(
    Object.entries(TELLS).map(([branch, e]) => [branch, { [TEST]: e }]),
  );
  await using repo = await buildRepo({ base: BASE, heads });
  await using temp = await privateTempRoot();
  for (const branch of Object.keys(heads)) {
    await t.step(branch, async () => {
      const result = await judge(repo.dir, branch, temp.path);
      assert.equal(result.code, 1, explain(result));
      // The head's own runs pass: only the kill-set rule can see it.
      const tests = result.verdict?.tests as unknown as {
        properties: { id: string; outcome: string }[];
      };
      assert.ok(
        tests.properties.every((p) => p.outcome === "passed"),
        explain(result),
      );
      const weakened = (result.verdict?.findings ?? []).filter((f) =>
        f.rule === "property.oracle_weakened" &&
        f.message.includes('"clamp_exact"')
      );
      assert.equal(weakened.length, 1, explain(result));
      assert.equal(weakened[0]?.path, CORE);
      assert.match(result.stderr, /head.*(forked run|warm interpreter)/);
    });
  }
});
