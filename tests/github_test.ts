/**
 * GitHub in and out, end to end: the real CLI judges pull requests that a
 * fake GitHub (a real HTTP server on 127.0.0.1, with git's smart HTTP
 * protocol behind it) describes, on real git repositories with real
 * pytest runs, and publishes check runs, statuses and one sticky comment
 * back to it.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { MARKDOWN_MARKER } from "../src/report/render_markdown.ts";
import {
  explain,
  NOW,
  pawl,
  type PawlResult,
  type VerdictJson,
} from "./_cli.ts";
import {
  type BareRemote,
  type FakeGitHub,
  makeBareRemote,
  startFakeGitHub,
} from "./_fake_github.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

const TOKEN = "ghs_pawlE2eSecretToken0123456789abcdef";
const TOKEN_BASIC = btoa(`x-access-token:${TOKEN}`);

const patch = (branch: string) => {
  const found = SAMPLE_PATCHES.find((p) => p.branch === branch);
  if (found === undefined) throw new Error(`No sample patch "${branch}"`);
  return found.files;
};

/** A test module with `n` failing tests (one finding with a path each). */
function failingTests(n: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `def test_fails_${String(i).padStart(2, "0")}():\n    assert ${i} < 0\n`,
  ).join("\n\n");
}

const HEADS = {
  "pr/honest": patch("agent/honest-fix"),
  "pr/weaken": patch("agent/delete-property"),
  "pr/many": { "tests/test_many.py": failingTests(60) },
  "pr/no-contract": { "tests/agent_contract.yaml": null },
};

/** One repository for every case, with its commit ids. */
interface World {
  repo: TestRepo;
  sha: Record<"main" | keyof typeof HEADS, string>;
}

async function buildWorld(): Promise<World> {
  const repo = await buildRepo({ heads: HEADS });
  const sha = { main: await repo.commit("main") } as World["sha"];
  for (const branch of Object.keys(HEADS) as (keyof typeof HEADS)[]) {
    sha[branch] = await repo.commit(branch);
  }
  return { repo, sha };
}

/** The environment of a GitHub run: nothing from the machine running the tests leaks in. */
function ghEnv(
  gh: FakeGitHub,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: gh.url,
    GITHUB_EVENT_PATH: "",
    GITHUB_EVENT_NAME: "",
    GITHUB_REPOSITORY: "",
    GITHUB_STEP_SUMMARY: "",
    PAWL_SIGNING_KEY: "",
    PAWL_GITHUB_RETRY_BASE_MS: "5",
    ...extra,
  };
}

/** `pawl <command> --pr o/r#N --now NOW --quiet ...extra` against `gh`. */
function prRun(
  gh: FakeGitHub,
  number: number,
  options: {
    command?: "check" | "diff";
    extra?: string[];
    env?: Record<string, string>;
    pr?: string;
  } = {},
): Promise<PawlResult> {
  return pawl([
    options.command ?? "check",
    "--pr",
    options.pr ?? `o/r#${number}`,
    "--now",
    NOW,
    "--quiet",
    ...(options.extra ?? []),
  ], { env: ghEnv(gh, options.env) });
}

/** Assert the token shows up nowhere a person or a log could see it. */
function assertNoToken(result: PawlResult): void {
  for (
    const [name, text] of [
      ["stdout", result.stdout],
      ["stderr", result.stderr],
      ["verdict", result.outText ?? ""],
    ]
  ) {
    assert.ok(!text!.includes(TOKEN), `token in ${name}\n${explain(result)}`);
    assert.ok(!text!.includes(TOKEN_BASIC), `token in ${name}`);
  }
}

type VerdictWithClock = VerdictJson & {
  clock?: { source: string; field?: string };
};

/** A fake serving `o/r` from `remote`, with pull request `number`. */
function fakeWith(
  remote: BareRemote,
  pull: {
    number: number;
    baseSha: string;
    headSha: string;
    headRef?: string;
    headRepo?: string | null;
    updatedAt?: string;
  },
  options: { token?: boolean; cloneVia?: "file" | "http"; apiPrefix?: string } =
    {},
): FakeGitHub {
  const gh = startFakeGitHub({
    ...(options.token === false ? {} : { token: TOKEN }),
    ...(options.apiPrefix === undefined
      ? {}
      : { apiPrefix: options.apiPrefix }),
  });
  gh.addRepository("o/r", {
    gitDir: remote.gitDir,
    cloneVia: options.cloneVia ?? "file",
  });
  gh.addPullRequest("o/r", pull);
  return gh;
}

Deno.test("pawl check --pr judges the commit ids the API reports, not where the branches point now", async () => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 7: "pr/honest" });
  await using gh = fakeWith(remote, {
    number: 7,
    baseSha: sha.main,
    headSha: sha["pr/honest"],
    headRef: "pr/honest",
  });
  // After the API answered, every name moves to a weakening commit.
  await remote.setRef("refs/heads/main", sha["pr/weaken"]);
  await remote.setRef("refs/heads/pr/honest", sha["pr/weaken"]);
  await remote.setRef("refs/pull/7/head", sha["pr/weaken"]);

  const result = await pawl([
    "check",
    "--pr",
    "o/r#7",
    "--now",
    NOW,
    "--no-publish",
  ], { env: ghEnv(gh) });
  assert.equal(result.code, 0, explain(result));
  assert.equal(result.verdict?.decision, "accept");
  assert.equal(result.verdict?.base, sha.main);
  assert.equal(result.verdict?.head, sha["pr/honest"]);
  assert.equal(result.verdict?.repo, `file://${remote.gitDir}`);
  assert.ok(result.verdict?.tests !== null, "the suite ran");
  // Progress says how much was fetched, and that it was one commit deep.
  assert.match(
    result.stderr,
    /fetched \d+ objects \([\d.]+ (?:B|KiB|MiB)\), one commit deep/,
  );
  // --no-publish: the pull request was read, nothing was written.
  assert.deepEqual(
    gh.apiRequests().map((r) => `${r.method} ${r.path}`),
    ["GET /repos/o/r/pulls/7"],
  );
  assert.equal(gh.checkRuns.length + gh.statuses.length, 0);
  assert.equal(gh.comments.length, 0);
  assertNoToken(result);
});

Deno.test("a fork's head commit comes from refs/pull/N/head over token-authenticated https, and the token stays secret", async () => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 8: "pr/weaken" });
  // The fork's branch does not exist in the base repository.
  await remote.deleteRef("refs/heads/pr/weaken");
  await using gh = fakeWith(remote, {
    number: 8,
    baseSha: sha.main,
    headSha: sha["pr/weaken"],
    headRef: "pr/weaken",
    headRepo: "forker/r",
  }, { cloneVia: "http" });

  // A git on PATH that logs its command lines and its config environment.
  const wrapDir = await Deno.makeTempDir({ prefix: "pawl-e2e-gitwrap-" });
  try {
    const realGit = new TextDecoder().decode(
      (await new Deno.Command("sh", {
        args: ["-c", "command -v git"],
        stdout: "piped",
      }).output()).stdout,
    ).trim();
    await Deno.writeTextFile(
      `${wrapDir}/git`,
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${wrapDir}/argv.log'\nenv | grep '^GIT_CONFIG_' >> '${wrapDir}/env.log'\nexec '${realGit}' "$@"\n`,
    );
    await Deno.chmod(`${wrapDir}/git`, 0o755);
    const result = await prRun(gh, 8, {
      pr: `${gh.origin}/o/r/pull/8`,
      env: { PATH: `${wrapDir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
    });
    assert.equal(result.code, 1, explain(result));
    assert.equal(result.verdict?.head, sha["pr/weaken"]);
    assert.equal(result.verdict?.base, sha.main);
    assert.equal(result.verdict?.repo, `${gh.origin}/git/o/r.git`);

    // git fetched from the base repository (never the fork), authenticated.
    const gitRequests = gh.requests.filter((r) => r.path.startsWith("/git/"));
    assert.ok(gitRequests.length > 0);
    for (const request of gitRequests) {
      assert.match(request.path, /^\/git\/o\/r\.git\//);
      assert.equal(request.headers["authorization"], `Basic ${TOKEN_BASIC}`);
      assert.equal(request.status, 200);
    }
    const argv = await Deno.readTextFile(`${wrapDir}/argv.log`);
    assert.match(argv, /fetch --depth=1/);
    assert.match(argv, /refs\/pull\/8\/head/);
    assert.ok(!argv.includes(TOKEN) && !argv.includes(TOKEN_BASIC));
    assert.ok(!argv.includes("extraheader"), "no config on the command line");
    // The header travelled in the environment, scoped to the clone's origin.
    const env = await Deno.readTextFile(`${wrapDir}/env.log`);
    assert.match(
      env,
      new RegExp(
        `GIT_CONFIG_KEY_0=http\\.${
          gh.origin.replaceAll(".", "\\.")
        }/\\.extraheader`,
      ),
    );
    assertNoToken(result);

    // Published on the base repository, for the head commit.
    assert.equal(gh.checkRuns.length, 1);
    assert.equal(gh.checkRuns[0]!.headSha, sha["pr/weaken"]);
    assert.equal(gh.checkRuns[0]!.conclusion, "failure");
    assert.equal(gh.statuses.at(-1)?.state, "failure");
  } finally {
    await Deno.remove(wrapDir, { recursive: true });
  }
});

Deno.test("in GitHub Actions, pawl check reads the pull_request event and --now-from event records the event's clock", async (t) => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 7: "pr/honest" });
  const updatedAt = "2026-11-30T10:30:00Z";
  await using gh = fakeWith(remote, {
    number: 7,
    baseSha: sha.main,
    headSha: sha["pr/honest"],
    updatedAt,
  });
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-event-" });
  try {
    const eventPath = `${dir}/event.json`;
    await Deno.writeTextFile(
      eventPath,
      JSON.stringify({
        action: "synchronize",
        number: 7,
        "pull_request": gh.pullRequestJson("o/r", 7),
        repository: { "full_name": "o/r" },
      }),
    );
    const actions = (name: string) =>
      ghEnv(gh, {
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: "o/r",
        GITHUB_EVENT_NAME: name,
      });

    await t.step("check --now-from event: no --pr, no --repo", async () => {
      const first = await pawl(["check", "--now-from", "event", "--quiet"], {
        env: actions("pull_request"),
      });
      assert.equal(first.code, 0, explain(first));
      const verdict = first.verdict as VerdictWithClock;
      assert.equal(verdict.now, updatedAt);
      assert.deepEqual(verdict.clock, {
        source: "event",
        field: "pull_request.updated_at",
      });
      assert.equal(verdict.head, sha["pr/honest"]);
      assert.equal(verdict.base, sha.main);
      // The payload held the whole pull request: the API was not asked.
      assert.ok(!gh.apiRequests("GET").some((r) => r.path.includes("/pulls/")));
      assert.equal(gh.checkRuns.at(-1)?.conclusion, "success");
      assert.equal(gh.checkRuns.at(-1)?.headSha, sha["pr/honest"]);
      assert.match(gh.checkRuns.at(-1)!.summary, /pull_request\.updated_at/);

      const second = await pawl(["check", "--now-from", "event", "--quiet"], {
        env: actions("pull_request"),
      });
      assert.equal(second.code, 0, explain(second));
      assert.equal(second.outText, first.outText, "byte-identical verdicts");
    });

    await t.step("pull_request_target with pawl diff and --now", async () => {
      const result = await pawl(["diff", "--now", NOW, "--quiet"], {
        env: actions("pull_request_target"),
      });
      assert.equal(result.code, 0, explain(result));
      assert.equal(result.verdict?.now, NOW);
      assert.equal((result.verdict as VerdictWithClock).clock, undefined);
    });

    await t.step("an event that is not about a pull request", async () => {
      const result = await pawl(["diff", "--now", NOW, "--quiet"], {
        env: actions("push"),
      });
      assert.equal(result.code, 2, explain(result));
      assert.match(result.stderr, /event "push" is not a pull request event/);
    });

    await t.step("--now and --now-from event together", async () => {
      const result = await pawl(
        ["diff", "--now", NOW, "--now-from", "event", "--quiet"],
        { env: actions("pull_request") },
      );
      assert.equal(result.code, 2, explain(result));
      assert.match(result.stderr, /exclude each other/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("publishing: one check run with every annotation in batches of 50, one status, one sticky comment updated on the next run", async () => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 9: "pr/many" });
  await using gh = fakeWith(remote, {
    number: 9,
    baseSha: sha.main,
    headSha: sha["pr/many"],
  });
  // 120 other comments first (one quoting the marker), so pawl's lands on page 2.
  for (let i = 0; i < 120; i++) {
    gh.addComment(
      "o/r",
      9,
      i === 3 ? `> ${MARKDOWN_MARKER}\n> quoted` : `comment ${i}`,
    );
  }

  const first = await prRun(gh, 9);
  assert.equal(first.code, 1, explain(first));
  const withPath = first.verdict!.findings.filter((f) => f.path !== undefined);
  assert.ok(
    withPath.length > 50,
    `only ${withPath.length} findings with a path`,
  );

  assert.equal(gh.checkRuns.length, 1);
  const run = gh.checkRuns[0]!;
  assert.equal(run.name, "pawl");
  assert.equal(run.status, "completed");
  assert.equal(run.conclusion, "failure");
  assert.equal(run.headSha, sha["pr/many"]);
  assert.match(run.title, /^Reject: \d+ blocking findings$/);
  assert.match(run.summary, /\| Decision \| \*\*reject\*\* \|/);
  // Created in progress while judging, completed in place with 50, then
  // PATCHed 50 at a time.
  const creates = gh.apiRequests("POST").filter((r) =>
    r.path === "/repos/o/r/check-runs"
  );
  const patches = gh.apiRequests("PATCH").filter((r) =>
    r.path === `/repos/o/r/check-runs/${run.id}`
  );
  assert.equal(creates.length, 1);
  assert.equal((creates[0]!.body as { status: string }).status, "in_progress");
  assert.equal((patches[0]!.body as { status: string }).status, "completed");
  const sizes = patches.map((r) =>
    (r.body as { output: { annotations: unknown[] } }).output.annotations
      .length
  );
  assert.deepEqual(
    sizes,
    Array.from(
      { length: Math.ceil(withPath.length / 50) },
      (_, i) => Math.min(50, withPath.length - i * 50),
    ),
  );
  assert.deepEqual(
    run.annotations.map((a) => [
      a["path"],
      a["start_line"],
      a["annotation_level"],
      a["title"],
    ]),
    withPath.map((f) => [
      f.path,
      f.line ?? 1,
      f.blocking ? "failure" : "notice",
      f.rule,
    ]),
  );
  assert.ok(
    run.annotations.some((a) =>
      a["path"] === "tests/test_many.py" && a["annotation_level"] === "failure"
    ),
  );

  // Pending while judging, then replaced by the verdict.
  assert.deepEqual(gh.statuses.map((s) => s.state), ["pending", "failure"]);
  const status = gh.statuses[1]!;
  assert.equal(status.context, "pawl");
  assert.equal(status.state, "failure");
  assert.equal(status.sha, sha["pr/many"]);
  assert.ok(Array.from(status.description).length <= 140, status.description);
  assert.match(status.description, /^Reject: /);
  assert.equal(status.targetUrl, `${gh.origin}/o/r/runs/${run.id}`);

  const sticky = () =>
    gh.comments.filter((c) => c.body.startsWith(MARKDOWN_MARKER));
  assert.equal(gh.comments.length, 121);
  assert.equal(sticky().length, 1);
  const comment = sticky()[0]!;
  assert.match(comment.body, /reject/i);
  assert.equal(comment.user, "github-actions[bot]");

  // The next run finds the comment on page 2 and updates it.
  comment.body = `${MARKDOWN_MARKER}\nstale`;
  const second = await prRun(gh, 9);
  assert.equal(second.code, 1, explain(second));
  assert.equal(gh.comments.length, 121, "no second comment");
  assert.equal(sticky().length, 1);
  assert.equal(sticky()[0]!.id, comment.id);
  assert.match(sticky()[0]!.body, /reject/i);
  // A finished check run cannot be reopened: the second run has its own.
  assert.deepEqual(
    gh.checkRuns.map((r) => [r.id === run.id, r.status, r.conclusion]),
    [[true, "completed", "failure"], [false, "completed", "failure"]],
  );
  assert.equal(
    gh.apiRequests("PATCH").filter((r) =>
      r.path === `/repos/o/r/issues/comments/${comment.id}`
    ).length,
    1,
  );
  assert.equal(
    gh.apiRequests("POST").filter((r) => r.path.endsWith("/comments")).length,
    1,
  );
  assert.ok(
    gh.apiRequests("GET").some((r) =>
      r.path === "/repos/o/r/issues/9/comments" && r.query["page"] === "2"
    ),
    "the comment list was paginated",
  );
  assertNoToken(first);
  assertNoToken(second);
});

Deno.test("pawl check --pr --publish shows a check run in progress and a pending status while it judges, then completes that check run in place", async () => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 6: "pr/honest" });
  await using gh = fakeWith(remote, {
    number: 6,
    baseSha: sha.main,
    headSha: sha["pr/honest"],
  }, { cloneVia: "http" });
  // The clone waits until the pull request has been looked at.
  const looked = Promise.withResolvers<void>();
  gh.inject({ path: /^\/git\//, hold: looked.promise });
  const running = prRun(gh, 6);
  const deadline = Date.now() + 60_000;
  while (gh.statuses.length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  looked.resolve();
  assert.deepEqual(
    gh.checkRuns.map((r) => [r.headSha, r.status, r.conclusion, r.title]),
    [[sha["pr/honest"], "in_progress", null, "Judging"]],
  );
  assert.deepEqual(gh.statuses.map((s) => s.state), ["pending"]);
  const id = gh.checkRuns[0]!.id;
  const result = await running;
  assert.equal(result.code, 0, explain(result));
  assert.deepEqual(
    gh.checkRuns.map((r) => [r.id, r.status, r.conclusion]),
    [[id, "completed", "success"]],
  );
  assert.deepEqual(gh.statuses.map((s) => s.state), ["pending", "success"]);
  assertNoToken(result);
});

Deno.test("GitHub failures: retried on 5xx and rate limits, otherwise reported on stderr without changing the exit code", async (t) => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 5: "pr/weaken" });
  const pull = { number: 5, baseSha: sha.main, headSha: sha["pr/weaken"] };
  // pawl diff on a weakening: exit 1 whatever happens to publishing.
  const run = (
    gh: FakeGitHub,
    env: Record<string, string> = {},
    extra: string[] = [],
  ) => prRun(gh, 5, { command: "diff", env, extra });
  /** Successful writes of the verdict of each kind so far (not the in-progress marks). */
  const published = (gh: FakeGitHub) => {
    const ok = gh.apiRequests().filter((r) =>
      r.method !== "GET" && r.status >= 200 && r.status < 300
    );
    const field = (r: { body: unknown }, key: string) =>
      (r.body as Record<string, unknown> | undefined)?.[key];
    return {
      checkRuns:
        ok.filter((r) =>
          r.path.includes("/check-runs") && field(r, "conclusion") !== undefined
        ).length,
      statuses:
        ok.filter((r) =>
          r.path.includes("/statuses/") && field(r, "state") !== "pending"
        ).length,
      comments: ok.filter((r) => r.path.includes("/comments")).length,
    };
  };
  const all = { checkRuns: 1, statuses: 1, comments: 1 };

  await t.step("500 twice, then success: retried", async () => {
    await using gh = fakeWith(remote, pull);
    gh.inject({
      method: "POST",
      path: "/repos/o/r/check-runs",
      status: 500,
      times: 2,
    });
    const result = await run(gh);
    assert.equal(result.code, 1, explain(result));
    assert.doesNotMatch(result.stderr, /could not publish/);
    assert.deepEqual(
      gh.apiRequests("POST").filter((r) => r.path.endsWith("/check-runs"))
        .map((r) => r.status),
      [500, 500, 201],
    );
    assert.deepEqual(published(gh), all);
  });

  await t.step("403 rate limit: retried after the reset", async () => {
    await using gh = fakeWith(remote, pull);
    const reset = gh.injectRateLimit(
      { method: "POST", path: `/repos/o/r/statuses/${sha["pr/weaken"]}` },
      1,
    );
    // Real waits here: the retry must come after the reset.
    const result = await run(gh, { PAWL_GITHUB_RETRY_BASE_MS: "" });
    assert.equal(result.code, 1, explain(result));
    assert.doesNotMatch(result.stderr, /could not publish/);
    // The pending status meets the limit; the verdict's follows.
    const tries = gh.apiRequests("POST").filter((r) =>
      r.path.includes("/statuses/")
    );
    assert.deepEqual(tries.map((r) => r.status), [403, 201, 201]);
    assert.ok(
      tries[1]!.at >= reset * 1000,
      `retried at ${tries[1]!.at}, before the reset ${reset * 1000}`,
    );
    assert.deepEqual(published(gh), all);
  });

  await t.step(
    "slow answers: a slow one is waited for, a hung one times out",
    async () => {
      await using gh = fakeWith(remote, pull);
      gh.inject({
        method: "POST",
        path: "/repos/o/r/check-runs",
        delayMs: 200,
      });
      gh.inject({
        method: "POST",
        path: `/repos/o/r/statuses/${sha["pr/weaken"]}`,
        delayMs: 2000,
        status: 504,
        times: 10,
      });
      const result = await run(gh, { PAWL_GITHUB_TIMEOUT_MS: "500" });
      assert.equal(result.code, 1, explain(result));
      assert.match(
        result.stderr,
        /set the commit status .*no answer within 500 ms/,
      );
      assert.deepEqual(published(gh), {
        checkRuns: 1,
        statuses: 0,
        comments: 1,
      });
    },
  );

  const failures: {
    name: string;
    inject: { method: string; path: string | RegExp; status: number };
    stderr: RegExp;
    left: Partial<ReturnType<typeof published>>;
  }[] = [
    {
      name: "403 on the check run names checks: write",
      inject: { method: "POST", path: "/repos/o/r/check-runs", status: 403 },
      stderr:
        /create the check run on "o\/r": GitHub answered 403 \("Resource not accessible by integration"\): the token lacks the permission "checks: write"/,
      left: { checkRuns: 0, statuses: 1, comments: 1 },
    },
    {
      name: "403 on the status names statuses: write",
      inject: { method: "POST", path: /\/statuses\//, status: 403 },
      stderr: /"statuses: write"/,
      left: { checkRuns: 1, statuses: 0, comments: 1 },
    },
    {
      name: "403 on the comment names pull-requests: write",
      inject: { method: "POST", path: /\/comments$/, status: 403 },
      stderr: /"pull-requests: write" \(or "issues: write"\)/,
      left: { checkRuns: 1, statuses: 1, comments: 0 },
    },
    {
      name: "401 says the token is invalid",
      inject: { method: "POST", path: /./, status: 401 },
      stderr:
        /GitHub answered 401 \("Bad credentials"\): the token \(GITHUB_TOKEN\) is missing, expired or invalid/,
      left: { checkRuns: 0, statuses: 0, comments: 0 },
    },
    {
      name: "404 names the permission too",
      inject: { method: "POST", path: "/repos/o/r/check-runs", status: 404 },
      stderr:
        /GitHub answered 404 \("Not Found"\): it does not exist or the token cannot see it; the token needs "checks: write"/,
      left: { checkRuns: 0, statuses: 1, comments: 1 },
    },
    {
      name: "500 for good gives up after the retries",
      inject: { method: "POST", path: /./, status: 502 },
      stderr: /GitHub answered 502 \("Bad Gateway"\), also after retrying/,
      left: { checkRuns: 0, statuses: 0, comments: 0 },
    },
  ];
  for (const failure of failures) {
    await t.step(failure.name, async () => {
      await using gh = fakeWith(remote, pull);
      gh.inject({ ...failure.inject, times: 100 });
      for (const json of [false, true]) {
        const before = published(gh);
        const result = await run(gh, {}, json ? ["--json"] : []);
        assert.equal(result.code, 1, explain(result));
        assert.equal(result.verdict?.decision, "reject");
        assert.match(result.stderr, failure.stderr);
        assert.match(
          result.stderr,
          /the decision and the exit code are unchanged/,
        );
        if (json) {
          // --json: stdout is the verdict and nothing else.
          assert.equal(JSON.parse(result.stdout).decision, "reject");
        }
        assertNoToken(result);
        const after = published(gh);
        for (const [key, count] of Object.entries(failure.left)) {
          const k = key as keyof typeof after;
          assert.equal(after[k] - before[k], count, `${key}: ${result.stderr}`);
        }
      }
    });
  }

  await t.step("--no-publish sends nothing", async () => {
    await using gh = fakeWith(remote, pull);
    const result = await run(gh, {}, ["--no-publish"]);
    assert.equal(result.code, 1, explain(result));
    assert.deepEqual(gh.apiRequests().map((r) => r.method), ["GET"]);
  });

  await t.step(
    "no token: nothing is published, and --publish is refused",
    async () => {
      await using gh = fakeWith(remote, pull, { token: false });
      const quiet = await run(gh, { GITHUB_TOKEN: "" });
      assert.equal(quiet.code, 1, explain(quiet));
      assert.deepEqual(gh.apiRequests().map((r) => r.method), ["GET"]);
      const demanded = await run(gh, { GITHUB_TOKEN: "" }, ["--publish"]);
      assert.equal(demanded.code, 2, explain(demanded));
      assert.match(
        demanded.stderr,
        /"--publish" needs a token: set GITHUB_TOKEN/,
      );
    },
  );
});

Deno.test("when pawl cannot decide, the pull request gets a failing check run, an error status and the reason", async (t) => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 4: "pr/no-contract" });

  await t.step("a base without a contract", async () => {
    await using gh = fakeWith(remote, {
      number: 4,
      baseSha: sha["pr/no-contract"],
      headSha: sha["pr/no-contract"],
    });
    const result = await prRun(gh, 4);
    assert.equal(result.code, 2, explain(result));
    assert.equal(
      (result.verdict as unknown as { decision: string }).decision,
      "undecided",
    );
    assert.match(result.stderr, /could not decide: .*has no contract/);
    assert.equal(gh.checkRuns.length, 1);
    assert.equal(gh.checkRuns[0]!.conclusion, "failure");
    assert.equal(gh.checkRuns[0]!.title, "Could not decide");
    assert.match(gh.checkRuns[0]!.summary, /has no contract/);
    assert.equal(gh.statuses.at(-1)?.state, "error");
    assert.ok(Array.from(gh.statuses.at(-1)!.description).length <= 140);
    assert.match(gh.statuses.at(-1)!.description, /^Could not decide: /);
    assert.equal(gh.comments.length, 1);
    assert.match(gh.comments[0]!.body, /could not decide/);
    assertNoToken(result);
  });

  await t.step("the token cannot read the repository", async () => {
    await using gh = startFakeGitHub({ token: TOKEN, gitToken: "another" });
    gh.addRepository("o/r", { gitDir: remote.gitDir, cloneVia: "http" });
    gh.addPullRequest("o/r", {
      number: 4,
      baseSha: sha.main,
      headSha: sha["pr/no-contract"],
    });
    const result = await prRun(gh, 4);
    assert.equal(result.code, 2, explain(result));
    assert.match(
      result.stderr,
      /could not decide: Cannot clone .*: the token \(GITHUB_TOKEN\) needs "contents: read" on "o\/r"/,
    );
    assert.equal(gh.checkRuns[0]?.conclusion, "failure");
    assert.match(
      gh.statuses.at(-1)?.description ?? "",
      /contents: read|Cannot clone/,
    );
    assertNoToken(result);
  });

  await t.step("the API refuses to show the pull request", async () => {
    await using gh = fakeWith(remote, {
      number: 4,
      baseSha: sha.main,
      headSha: sha["pr/no-contract"],
    });
    gh.inject({
      method: "GET",
      path: "/repos/o/r/pulls/4",
      status: 404,
      times: 5,
    });
    const result = await prRun(gh, 4);
    assert.equal(result.code, 2, explain(result));
    assert.match(
      result.stderr,
      /read pull request "o\/r#4": GitHub answered 404 .*"pull-requests: read" \(or "contents: read"\)/,
    );
    assert.match(result.stderr, /nothing published to GitHub/);
    assert.equal(gh.checkRuns.length + gh.statuses.length, 0);
  });
});

Deno.test("--pr takes GitHub Enterprise addresses on the API's host and refuses other hosts", async (t) => {
  const { repo, sha } = await buildWorld();
  await using _repo = repo;
  await using remote = await makeBareRemote(repo.dir, { 3: "pr/weaken" });
  await using gh = fakeWith(remote, {
    number: 3,
    baseSha: sha.main,
    headSha: sha["pr/weaken"],
  }, { apiPrefix: "/api/v3" });

  await t.step("a pull request URL on the Enterprise host", async () => {
    const result = await prRun(gh, 3, {
      command: "diff",
      pr: `${gh.origin}/o/r/pull/3/files`,
      extra: ["--no-publish"],
    });
    assert.equal(result.code, 1, explain(result));
    assert.equal(result.verdict?.head, sha["pr/weaken"]);
    assert.equal(gh.apiRequests()[0]?.path, "/repos/o/r/pulls/3");
  });

  await t.step("a github.com URL against an Enterprise API", async () => {
    const result = await prRun(gh, 3, {
      command: "diff",
      pr: "https://github.com/o/r/pull/3",
    });
    assert.equal(result.code, 2, explain(result));
    assert.match(result.stderr, /is not the GitHub of the API/);
  });

  await t.step("--pr with --repo", async () => {
    const result = await prRun(gh, 3, {
      command: "diff",
      extra: ["--repo", repo.dir],
    });
    assert.equal(result.code, 2, explain(result));
    assert.match(
      result.stderr,
      /"--repo" cannot be combined with a pull request from GitHub/,
    );
  });
});

Deno.test("the fake GitHub lists pull requests page by page, newest first", async () => {
  const sha = "a".repeat(40);
  await using gh = startFakeGitHub({ token: TOKEN });
  gh.addRepository("o/r", { gitDir: "/nonexistent.git" });
  for (let number = 1; number <= 5; number++) {
    gh.addPullRequest("o/r", {
      number,
      baseSha: sha,
      headSha: sha,
      state: number % 2 === 0 ? "closed" : "open",
      merged: number === 2,
    });
  }
  const get = (query: string, token = TOKEN) =>
    fetch(`${gh.url}/repos/o/r/pulls${query}`, {
      headers: { authorization: `token ${token}` },
    });
  const first = await get("?state=all&per_page=2&page=1");
  assert.equal(first.status, 200);
  assert.deepEqual(
    (await first.json()).map((p: { number: number }) => p.number),
    [5, 4],
  );
  assert.match(first.headers.get("link") ?? "", /page=2[^>]*>; rel="next"/);
  const last = await get("?state=all&per_page=2&page=3");
  assert.deepEqual(
    (await last.json()).map((p: { number: number }) => p.number),
    [1],
  );
  assert.doesNotMatch(last.headers.get("link") ?? "", /rel="next"/);
  const open = await get("?state=open&per_page=100");
  assert.deepEqual(
    (await open.json()).map((p: { number: number }) => p.number),
    [5, 3, 1],
  );
  const one = await get("/2");
  assert.equal((await one.json())["merged_at"], "2026-11-30T11:30:00Z");
  const denied = await get("/2", "wrong");
  assert.equal(denied.status, 401);
  await denied.body?.cancel();
  assert.deepEqual(gh.requests.map((r) => r.status), [200, 200, 200, 200, 401]);
});
