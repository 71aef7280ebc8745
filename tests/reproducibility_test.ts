/**
 * The verdict is a function of the repository, the revisions, `--now` and
 * the flags: the same inputs give byte-identical JSON, with the clock and
 * full commit ids recorded.
 */
import assert from "node:assert/strict";
import { check, explain, NOW, type PawlResult } from "./_cli.ts";
import { buildRepo, edit, type TestRepo } from "./_repo.ts";

const PARSER = "payments/parser.py";

const CASES = [
  {
    branch: "repro/honest",
    code: 0,
    files: {
      "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 4\n",
    },
  },
  {
    // A failing property, a failing frozen test with its reruns, and a
    // failure message naming a file in the run's temporary tree.
    branch: "repro/failing",
    code: 1,
    files: {
      [PARSER]: (base: string) =>
        edit("|{self.cents}", "|{self.cents:03d}")(
          edit('raise ParseError("empty input")', 'return Invoice("", 0)')(
            base,
          ),
        ),
      "tests/test_paths.py":
        "import os\n\n\ndef test_opens_a_missing_file():\n    open(os.path.join(os.getcwd(), 'missing.json'))\n",
    },
  },
  {
    // A failing assertion that quotes the run's working directory (pytest
    // shortens such strings with "...").
    branch: "repro/cwd",
    code: 1,
    files: {
      "tests/test_cwd.py":
        "import os\n\n\ndef test_runs_somewhere_else():\n    assert os.getcwd() == '/nowhere'\n",
    },
  },
] as const;

Deno.test("pawl check gives byte-identical verdicts for the same inputs", async (t) => {
  await using repo: TestRepo = await buildRepo({
    heads: Object.fromEntries(CASES.map((c) => [c.branch, c.files])),
  });
  /** Each branch's first run: `--now NOW --base main`, as the steps below ask too. */
  const firstRuns = new Map<string, PawlResult>();

  for (const { branch, code } of CASES) {
    await t.step(
      `${branch}: two runs, --out and --json, are byte-identical`,
      async () => {
        const first = await check(repo.dir, branch, { extra: ["--json"] });
        const second = await check(repo.dir, branch, { extra: ["--json"] });
        firstRuns.set(branch, first);
        assert.equal(first.code, code, explain(first));
        assert.equal(second.code, code, explain(second));
        assert.ok(first.outText !== undefined && first.outText.length > 0);
        assert.equal(second.outText, first.outText);
        assert.equal(first.stdout, first.outText);
        assert.equal(second.stdout, first.outText);
        // Full temporary paths of the run are scrubbed. (pytest may shorten
        // a long path past recognition; the job dir's name is derived from
        // the inputs, so even a shortened one is the same on every run.)
        assert.doesNotMatch(first.outText, /\/tmp\/pawl-[0-9a-f]{16}\/work-/);
        if (branch === "repro/failing") {
          const verdict = first.verdict!;
          assert.ok(
            verdict.findings.some((f) => f.rule === "tests.frozen_failed"),
          );
          assert.ok(
            verdict.findings.some((f) => f.rule === "property.not_passed"),
          );
          assert.deepEqual(verdict.tests?.reruns.map((r) => r.used), [2]);
          assert.match(first.outText, /<tree>\/missing\.json/);
        }
      },
    );
  }

  await t.step("the clock is recorded exactly as given", async () => {
    for (
      const now of [
        NOW,
        "2026-11-30T13:00:00+01:00",
        "2026-11-30T12:00:00.250Z",
      ]
    ) {
      // NOW is the first step's run.
      const result = now === NOW
        ? firstRuns.get("repro/honest")!
        : await check(repo.dir, "repro/honest", { now });
      assert.equal(result.code, 0, explain(result));
      assert.equal(result.verdict?.now, now);
    }
  });

  await t.step(
    "revisions are recorded as full commit ids, however they were given",
    async () => {
      const base = await repo.commit("main");
      const head = await repo.commit("repro/honest");
      assert.match(base, /^[0-9a-f]{40}$/);
      const given = [
        ["main", "repro/honest"],
        [base.slice(0, 10), head.slice(0, 12)],
        [base, head],
      ];
      for (const [b, h] of given) {
        // By name, it is the first step's run.
        const result = b === "main"
          ? firstRuns.get(h!)!
          : await check(repo.dir, h!, { base: b! });
        assert.equal(result.code, 0, explain(result));
        assert.equal(result.verdict?.base, base);
        assert.equal(result.verdict?.head, head);
        assert.equal(result.verdict?.repo, repo.dir);
      }
    },
  );
});
