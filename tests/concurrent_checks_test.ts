/**
 * Many judgements on one machine at once: six `pawl check` runs of six
 * different real repositories (honest and weakening pull requests, real
 * sandboxed pytest), started together, must give the verdicts the same six
 * give one after another, in two rounds on the same leases. Each run
 * leases a sandbox uid of its own, so no run's cleanup can kill another's
 * tests.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import {
  blocking,
  check,
  explain,
  leftoversOf,
  NOW,
  type PawlResult,
  processesOf,
  rules,
} from "./_cli.ts";
import { freshSeed } from "../src/seeds/fresh_seed.ts";
import { buildRepo, edit, type FileEdit, type TestRepo } from "./_repo.ts";
import { leaseSandboxUid } from "../src/sandbox/lease_uid.ts";

/**
 * This file's own uids: twice as many as the runs, so the same test running
 * from another checkout at the same time rarely makes one wait for a lease.
 */
const FIRST_UID = 64270;
const LAST_UID = FIRST_UID + 11;
const UIDS = `${FIRST_UID}-${LAST_UID}`;

const ROUNDS = 2;

function patch(branch: string): Record<string, FileEdit> {
  return SAMPLE_PATCHES.find((p) => p.branch === branch)!.files;
}

/** One repository per pull request, with the decision and rules it must get. */
const CASES: {
  name: string;
  files: Record<string, FileEdit>;
  decision: "accept" | "reject";
  rules: string[];
}[] = [
  {
    name: "an honest fix with a new property",
    files: patch("agent/honest-fix"),
    decision: "accept",
    rules: [],
  },
  {
    name: "an added passing test",
    files: {
      "tests/test_misc.py":
        "from payments.parser import total_cents\n\n\ndef test_total_of_nothing_is_zero():\n    assert total_cents([]) == 0\n",
    },
    decision: "accept",
    rules: [],
  },
  {
    name: "a parser change that breaks a property",
    files: {
      "payments/parser.py": edit(
        'raise ParseError("empty input")',
        'return Invoice("", 0)',
      ),
    },
    decision: "reject",
    rules: ["property.not_passed", "tests.failed"],
  },
  {
    name: "an added failing test",
    files: {
      "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 5\n",
    },
    decision: "reject",
    rules: ["tests.failed"],
  },
  {
    name: "a conftest hook that reports every test as passed",
    files: patch("agent/conftest-hook"),
    decision: "reject",
    rules: ["harness.conftest_changed"],
  },
  {
    name: "a property turned vacuous",
    files: patch("agent/vacuous-assert"),
    decision: "reject",
    rules: ["property.vacuous"],
  },
];

/** The comparable part of a run: exit code and the whole verdict file. */
function outcome(result: PawlResult): string {
  return `exit ${result.code}\n${result.outText ?? "(no verdict)"}`;
}

Deno.test("six concurrent pawl check runs give the verdicts of six sequential ones, round after round", async (t) => {
  const repos: TestRepo[] = [];
  try {
    for (const c of CASES) {
      repos.push(await buildRepo({ heads: { "agent/pr": c.files } }));
    }
    const run = (repo: TestRepo) =>
      check(repo.dir, "agent/pr", { env: { PAWL_SANDBOX_UIDS: UIDS } });

    const sequential: PawlResult[] = [];
    for (const repo of repos) sequential.push(await run(repo));

    await t.step("one after another, each verdict is the expected one", () => {
      for (const [i, c] of CASES.entries()) {
        const result = sequential[i]!;
        assert.equal(result.verdict?.decision, c.decision, explain(result));
        assert.equal(result.code, c.decision === "accept" ? 0 : 1);
        const found = rules(blocking(result.verdict));
        for (const rule of c.rules) {
          assert.ok(
            found.includes(rule),
            `${c.name}: ${rule}\n${explain(result)}`,
          );
        }
        assert.ok(!found.includes("tests.no_report"), explain(result));
      }
    });

    for (let round = 1; round <= ROUNDS; round++) {
      await t.step(
        `round ${round}: all six at once decide the same`,
        async () => {
          const started = performance.now();
          const results = await Promise.all(repos.map(run));
          const wall = performance.now() - started;
          for (const [i, c] of CASES.entries()) {
            assert.equal(
              outcome(results[i]!),
              outcome(sequential[i]!),
              `${c.name} (round ${round})\n${explain(results[i]!)}`,
            );
          }
          // They did overlap: together they took less than one after another.
          const alone = results.reduce((sum, r) => sum + r.ms, 0);
          assert.ok(wall < alone, `wall ${wall} ms, summed ${alone} ms`);
        },
      );
    }

    await t.step("no test process outlives its run", async () => {
      assert.deepEqual(await leftoversOf(FIRST_UID, LAST_UID), []);
    });
  } finally {
    for (const repo of repos) await repo[Symbol.asyncDispose]();
  }
});

Deno.test("pawl check whose every sandbox uid is held elsewhere cannot decide, and says how to widen the range", async () => {
  const uid = LAST_UID + 1;
  await using repo = await buildRepo({
    heads: { "agent/pr": CASES[1]!.files },
  });
  // Another judgement holds the range's only uid for the whole wait.
  await using _held = await leaseSandboxUid({
    range: { first: uid, last: uid },
    waitMs: 120_000,
  });
  const result = await check(repo.dir, "agent/pr", {
    env: { PAWL_SANDBOX_UIDS: String(uid), PAWL_SANDBOX_UID_WAIT: "1" },
  });
  assert.equal(result.code, 2, explain(result));
  assert.equal(result.verdict?.decision as string, "undecided");
  assert.match(
    result.stderr,
    new RegExp(
      `^pawl: could not decide: Cannot lease a sandbox uid: all 1 of ${uid}-${uid} are held by other pawl runs \\(locks in "/run/pawl/uids"\\) and none came free within 1 s; widen the range with "--sandbox-uids ${uid}-${
        uid + 63
      }" or PAWL_SANDBOX_UIDS=${uid}-${uid + 63}`,
      "m",
    ),
  );
});

Deno.test("pawl check whose tests are killed from outside cannot decide, and names the signal", async () => {
  const uid = LAST_UID + 2;
  // A token of its own makes the head commit, and so the run's fresh seed
  // on pytest's command line, tell this run from the same test's run in
  // another checkout (which may lease the same uid before or after it).
  const token = crypto.randomUUID();
  await using repo = await buildRepo({
    heads: {
      "agent/pr": {
        "tests/test_slow.py":
          `import time\n\nTOKEN = "${token}"\n\n\ndef test_slow():\n    time.sleep(60)\n`,
      },
    },
  });
  const seed = freshSeed(await repo.commit("agent/pr"), NOW);
  const running = check(repo.dir, "agent/pr", {
    env: { PAWL_SANDBOX_UIDS: String(uid) },
  });
  // Stands in for an administrator or the out-of-memory killer: SIGKILL
  // whatever runs as the run's uid once pytest is in the slow test.
  let killed = 0;
  for (let i = 0; i < 1500 && killed === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const line of await processesOf(uid)) {
      if (
        !line.includes(`pytest`) || !line.includes(`--hypothesis-seed=${seed} `)
      ) continue;
      try {
        Deno.kill(Number(line.split(" ")[0]), "SIGKILL");
        killed++;
      } catch {
        // it ended on its own meanwhile
      }
    }
  }
  const result = await running;
  assert.ok(killed > 0, "pytest never ran");
  assert.equal(result.code, 2, explain(result));
  assert.equal(result.verdict?.decision as string, "undecided");
  assert.match(
    result.stderr,
    /pawl: could not decide: Cannot judge the test run: "[^"]+" was killed by SIGKILL, which pawl did not send/,
  );
});
