import assert from "node:assert/strict";
import { makeBareRemote, startFakeGitHub } from "../../tests/_fake_github.ts";
import { buildRepo, defaultBaseFiles, git } from "../../tests/_repo.ts";
import { GitError } from "../git/git_error.ts";
import { leaseSandboxUid } from "../sandbox/lease_uid.ts";
import { generateKeyPair } from "../sign/generate_key_pair.ts";
import { readSigningKey } from "../sign/signing_key.ts";
import type { JobSpec } from "./job.ts";
import { type JobContext, TransientError } from "./judge.ts";
import { createLogger } from "./logger.ts";
import { createPipelineJudge } from "./_judge_with_pipeline.ts";

function job(parts: Partial<JobSpec>): JobSpec {
  return {
    owner: "o",
    repo: "r",
    number: 3,
    baseSha: "a".repeat(40),
    headSha: "c".repeat(40),
    cloneUrl: "file:///nowhere",
    now: "2026-11-30T11:00:00Z",
    clockField: "pull_request.updated_at",
    event: "pull_request.opened",
    deliveryId: "d",
    ...parts,
  };
}

function context(parts: Partial<JobContext> = {}): JobContext {
  return {
    token: undefined,
    apiUrl: "http://127.0.0.1:1",
    attempt: 1,
    log: createLogger({ write: () => {} }).log,
    ...parts,
  };
}

/** A log line of the job: its event and fields. */
type Logged = { event: string } & Record<string, unknown>;

/** A context whose log lines go to `logged`, each also shown to `onLine`. */
function recording(
  logged: Logged[],
  onLine: (line: Logged) => void = () => {},
): JobContext {
  return context({
    log: (event, fields = {}) => {
      const line = { ...fields, event };
      logged.push(line);
      onLine(line);
    },
  });
}

Deno.test("the pipeline judge takes a clone that failed as worth another attempt", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-judge-" });
  try {
    const judge = createPipelineJudge({ tempRoot: dir });
    await assert.rejects(
      judge(job({ cloneUrl: `file://${dir}/no-such-repo` }), context()),
      (error: unknown) => {
        assert.ok(error instanceof TransientError, String(error));
        assert.ok(error.cause instanceof GitError);
        assert.match(error.message, /^Cannot clone/);
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the pipeline judge takes an event clock it cannot read as no reason to try again", async () => {
  const judge = createPipelineJudge();
  await assert.rejects(
    judge(job({ now: "yesterday" }), context()),
    (error: unknown) => {
      assert.ok(!(error instanceof TransientError), String(error));
      assert.match(String(error), /pull_request\.updated_at/);
      return true;
    },
  );
});

Deno.test("the pipeline judge takes a base without a contract as no reason to try again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-judge-" });
  const git = async (...args: string[]) => {
    const out = await new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
      cwd: `${dir}/repo`,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout).trim();
  };
  try {
    await Deno.mkdir(`${dir}/repo`);
    await git("init", "-q", "-b", "main");
    await Deno.writeTextFile(`${dir}/repo/README.md`, "no contract here\n");
    await git("add", ".");
    await git("commit", "-qm", "start");
    const sha = await git("rev-parse", "HEAD");
    await git("update-ref", "refs/pull/3/head", sha);
    const judge = createPipelineJudge({ tempRoot: dir });
    await assert.rejects(
      judge(
        job({ cloneUrl: `file://${dir}/repo`, baseSha: sha, headSha: sha }),
        context(),
      ),
      (error: unknown) => {
        assert.ok(!(error instanceof TransientError), String(error));
        assert.match(String(error), /has no contract/);
        return true;
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the pipeline judge judges a fork's head found only under the pull request's ref, and files its signed verdict under the owner and repository in lower case", async () => {
  await using repo = await buildRepo({
    heads: { fork: { "NOTES.md": "a fork's change\n" } },
  });
  const base = await repo.commit("main");
  const head = await repo.commit("fork");
  await git(repo.dir, ["update-ref", "refs/pull/7/head", head]);
  await git(repo.dir, ["branch", "-D", "fork"]);
  const dir = await Deno.makeTempDir({ prefix: "pawl-judge-" });
  try {
    const key = await readSigningKey(
      (await generateKeyPair()).privateKeyPem,
      "generated",
    );
    const judge = createPipelineJudge({
      signing: { key },
      verdictDir: `${dir}/verdicts`,
    });
    const outcome = await judge(
      job({
        owner: "Octo",
        repo: "Widgets",
        number: 7,
        cloneUrl: `file://${repo.dir}`,
        baseSha: base,
        headSha: head,
      }),
      context(),
    );
    assert.equal(outcome.kind, "verdict");
    if (outcome.kind !== "verdict") return;
    assert.equal(outcome.verdict.head, head);
    assert.equal(outcome.verdict.options.isolation, "auto");
    assert.equal(outcome.verdict.options.allowFixtureRotate, false);
    assert.ok(outcome.markdown.includes(key.keyid), outcome.markdown);
    const text = await Deno.readTextFile(
      `${dir}/verdicts/octo/widgets/${head}.dsse.json`,
    );
    const envelope = JSON.parse(text);
    assert.equal(envelope.signatures[0].keyid, key.keyid);
    assert.ok(text.endsWith("}\n"), "the envelope file ends its last line");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the pipeline judge runs the base's tests one commit deep, on the event's clock, with the sandbox PATH, setup cache and temp root it was given, and the signing key's file hidden", async () => {
  // Short: the sandbox's unix sockets live under the temp root.
  const dir = await Deno.makeTempDir({ prefix: "pj" });
  const cleanups = [() => Deno.remove(dir, { recursive: true })];
  try {
    await Deno.chmod(dir, 0o755);
    const pem = (await generateKeyPair()).privateKeyPem;
    // Outside /tmp, which the sandbox replaces with its own, and readable
    // by the sandbox uid but for the hiding.
    const keyDir = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "pj" });
    cleanups.push(() => Deno.remove(keyDir, { recursive: true }));
    await Deno.chmod(keyDir, 0o755);
    const keyPath = `${keyDir}/signing.pem`;
    await Deno.writeTextFile(keyPath, pem);
    await Deno.chmod(keyPath, 0o644);
    await using repo = await buildRepo({
      base: {
        ...defaultBaseFiles(),
        "pawl.toml": `[environment.setup]
command = ["sh", "-c", "echo ready > \\"$PAWL_ENV_DIR/marker\\""]
`,
        "tests/test_sandbox_view.py": `import os


def test_path_is_the_runners():
    assert os.environ["PATH"].endswith(":/opt/judge-test/bin")


def test_signing_key_is_hidden():
    try:
        with open(${JSON.stringify(keyPath)}) as f:
            text = f.read()
    except OSError:
        text = ""
    assert "PRIVATE KEY" not in text
`,
      },
      heads: { feature: { "NOTES.md": "a change\n" } },
    });
    const base = await repo.commit("main");
    const head = await repo.commit("feature");
    await git(repo.dir, ["update-ref", "refs/pull/7/head", head]);
    const tempRoot = `${dir}/tmp`;
    await Deno.mkdir(tempRoot);
    const judge = createPipelineJudge({
      signing: { key: await readSigningKey(pem, "generated"), path: keyPath },
      verdictDir: `${dir}/verdicts`,
      sandboxPath: "/usr/local/bin:/usr/bin:/bin:/opt/judge-test/bin",
      setupCache: `${dir}/setup-cache`,
      tempRoot,
    });
    const logged: Logged[] = [];
    let inTempRoot: string[] = [];
    const outcome = await judge(
      job({
        number: 7,
        cloneUrl: `file://${repo.dir}`,
        baseSha: base,
        headSha: head,
        clockField: "check_suite.updated_at",
      }),
      recording(logged, (line) => {
        if (String(line.step).startsWith("running the tests")) {
          inTempRoot = [...Deno.readDirSync(tempRoot)].map((e) => e.name);
        }
      }),
    );
    assert.equal(outcome.kind, "verdict");
    if (outcome.kind !== "verdict") return;
    const { verdict } = outcome;
    assert.deepEqual(verdict.clock, {
      source: "event",
      field: "check_suite.updated_at",
    });
    assert.deepEqual(
      verdict.tests?.summary,
      {
        total: 6,
        passed: 6,
        failed: 0,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      JSON.stringify(verdict.tests?.summary),
    );
    assert.equal(verdict.tests?.setup?.key.length, 64);
    assert.ok(
      (await Array.fromAsync(Deno.readDir(`${dir}/setup-cache`))).some((e) =>
        e.name === verdict.tests?.setup?.key
      ),
      "the setup step's result is kept in the given cache",
    );
    assert.ok(
      inTempRoot.some((name) => name.startsWith("pawl-")),
      `the judgement works under the temp root: ${inTempRoot}`,
    );
    const steps = logged.filter((l) => l.event === "job.step").map((l) =>
      String(l.step)
    );
    assert.ok(steps.length > 3, JSON.stringify(logged));
    assert.ok(
      steps.some((s) => s.endsWith("one commit deep")),
      JSON.stringify(steps),
    );
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
});

Deno.test("the pipeline judge fetches the pull request's head ref by name, so a repository without it is copied whole", async () => {
  await using repo = await buildRepo({
    base: { "README.md": "no contract\n" },
  });
  const sha = await repo.commit("main");
  const judge = createPipelineJudge();
  const logged: Logged[] = [];
  await assert.rejects(
    judge(
      job({
        number: 9,
        cloneUrl: `file://${repo.dir}`,
        baseSha: sha,
        headSha: sha,
      }),
      recording(logged),
    ),
    /has no contract/,
  );
  const fetched = logged.find((l) => String(l.step).startsWith("fetched "));
  assert.ok(fetched !== undefined, JSON.stringify(logged));
  assert.doesNotMatch(String(fetched.step), /one commit deep/);
});

Deno.test("the pipeline judge abandons a clone that stalls for the given seconds, as worth another attempt", async () => {
  await using repo = await buildRepo();
  await using remote = await makeBareRemote(repo.dir);
  await using github = startFakeGitHub({ token: "ghs_stall" });
  github.addRepository("o/r", { gitDir: remote.gitDir, cloneVia: "http" });
  // Released at the deadline (or the end): a clone still waiting then is
  // answered, and the judgement goes on instead of failing.
  const { promise: released, resolve: release } = Promise.withResolvers<
    void
  >();
  let pastDeadline = false;
  const deadline = setTimeout(() => {
    pastDeadline = true;
    release();
  }, 30_000);
  github.inject({ path: /^\/git\//, times: 100, hold: released });
  try {
    const judge = createPipelineJudge({ gitStallSeconds: 1 });
    const sha = await repo.commit("main");
    await assert.rejects(
      judge(
        job({
          cloneUrl: `${github.origin}/git/o/r.git`,
          baseSha: sha,
          headSha: sha,
        }),
        context({ token: "ghs_stall" }),
      ),
      (error: unknown) => {
        assert.ok(error instanceof TransientError, String(error));
        assert.match(error.message, /^Cannot clone/);
        assert.ok(!pastDeadline, "given up while the server still stalled");
        return true;
      },
    );
  } finally {
    clearTimeout(deadline);
    release();
  }
});

Deno.test("the pipeline judge takes a base commit the repository lacks as no reason to try again", async () => {
  await using repo = await buildRepo();
  const head = await repo.commit("main");
  const judge = createPipelineJudge();
  await assert.rejects(
    judge(
      job({
        cloneUrl: `file://${repo.dir}`,
        baseSha: "b".repeat(40),
        headSha: head,
      }),
      context(),
    ),
    (error: unknown) => {
      assert.ok(error instanceof GitError, String(error));
      assert.ok(!(error instanceof TransientError));
      return true;
    },
  );
});

Deno.test("the pipeline judge leases its sandbox uid from the given range, logs its wait for a busy one as a note, and without a key files and names no signature", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-judge-" });
  try {
    const range = { first: 64905, last: 64905 };
    const lockDir = `${dir}/uids`;
    await Deno.mkdir(lockDir, { mode: 0o700 });
    await using repo = await buildRepo();
    const sha = await repo.commit("main");
    const held = await leaseSandboxUid({ range, lockDir, waitMs: 0 });
    const judge = createPipelineJudge({
      sandboxLease: { range, lockDir, waitMs: 60_000 },
      verdictDir: `${dir}/verdicts`,
    });
    const logged: Logged[] = [];
    const { promise: noted, resolve: note } = Promise.withResolvers<void>();
    const judging = judge(
      job({ cloneUrl: `file://${repo.dir}`, baseSha: sha, headSha: sha }),
      recording(logged, (line) => {
        if (line.event === "job.note") note();
      }),
    );
    try {
      await Promise.race([
        noted,
        judging.then(() => {
          throw new Error("judged without waiting for the uid");
        }),
      ]);
    } finally {
      await held.release();
    }
    const outcome = await judging;
    const notes = logged.filter((l) => l.event === "job.note");
    assert.equal(notes.length, 1, JSON.stringify(logged));
    assert.match(String(notes[0]?.note), /every sandbox uid of 64905-64905/);
    assert.equal(outcome.kind, "verdict");
    if (outcome.kind !== "verdict") return;
    assert.equal(outcome.verdict.decision, "accept");
    assert.doesNotMatch(outcome.markdown, /Signed with key/);
    await assert.rejects(Deno.stat(`${dir}/verdicts`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the pipeline judge leaves a uid of its range free for the workers beside it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-judge-" });
  try {
    const range = { first: 64910, last: 64911 };
    const lockDir = `${dir}/uids`;
    await Deno.mkdir(lockDir, { mode: 0o700 });
    await using repo = await buildRepo();
    const sha = await repo.commit("main");
    const judge = createPipelineJudge({
      sandboxLease: { range, lockDir, waitMs: 60_000 },
      othersWaiting: 1,
    });
    // The other worker asks for a uid, without waiting, once this
    // judgement's tests run.
    let other: ReturnType<typeof leaseSandboxUid> | undefined;
    const outcome = await judge(
      job({ cloneUrl: `file://${repo.dir}`, baseSha: sha, headSha: sha }),
      recording([], (line) => {
        if (
          other === undefined &&
          String(line.step).startsWith("running the tests")
        ) {
          other = leaseSandboxUid({ range, lockDir, waitMs: 0 });
          other.catch(() => undefined);
        }
      }),
    );
    assert.equal(outcome.kind, "verdict");
    assert.ok(other !== undefined, "the tests ran");
    const lease = await other;
    assert.equal(lease.uid, 64911);
    await lease.release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
