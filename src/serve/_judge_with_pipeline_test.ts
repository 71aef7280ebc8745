import assert from "node:assert/strict";
import { buildRepo, git } from "../../tests/_repo.ts";
import { GitError } from "../git/git_error.ts";
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

function context(): JobContext {
  return {
    token: undefined,
    apiUrl: "http://127.0.0.1:1",
    attempt: 1,
    log: createLogger({ write: () => {} }).log,
  };
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
    const envelope = JSON.parse(
      await Deno.readTextFile(`${dir}/verdicts/octo/widgets/${head}.dsse.json`),
    );
    assert.equal(envelope.signatures[0].keyid, key.keyid);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
