/**
 * `pawl serve` end to end: the real server as a subprocess, a fake GitHub
 * (a real HTTP server on 127.0.0.1 acting as the App's host, the REST API
 * and git's smart HTTP) sending signed and forged webhooks, real git
 * repositories and real pytest runs through the pipeline of `pawl check`.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { MARKDOWN_MARKER } from "../src/report/render_markdown.ts";
import { openSqliteQueue } from "../src/serve/sqlite_queue.ts";
import {
  type FakeGitHub,
  makeBareRemote,
  sendWebhook,
  startFakeGitHub,
} from "./_fake_github.ts";
import { buildRepo } from "./_repo.ts";
import { type AppKeys, makeAppKeys, spawnServe, until } from "./_serve.ts";
import { startTestPostgres } from "./_postgres.ts";
import { parsePrometheusText } from "./_prometheus.ts";

const SECRET = "serve-e2e-webhook-secret-0123456789";
const APP_ID = 4242;
const INSTALLATION = 77;
/**
 * The servers' sandbox uids: clear of pawl's default range (where checkouts
 * whose pawl still runs every test as 64123 kill that uid's processes) and
 * of the other tests' uids.
 */
const SERVE_SANDBOX_UIDS = "64320-64335";

const patch = (branch: string) => {
  const found = SAMPLE_PATCHES.find((p) => p.branch === branch);
  if (found === undefined) throw new Error(`No sample patch "${branch}"`);
  return found.files;
};

async function world() {
  const repo = await buildRepo({
    heads: {
      "pr/honest": patch("agent/honest-fix"),
      "pr/weaken": patch("agent/delete-property"),
    },
  });
  const remote = await makeBareRemote(repo.dir, {
    1: "pr/honest",
    2: "pr/weaken",
  });
  const sha = {
    main: await repo.commit("main"),
    honest: await repo.commit("pr/honest"),
    weaken: await repo.commit("pr/weaken"),
  };
  return { repo, remote, sha };
}

function fakeApp(keys: AppKeys, gitDir: string): FakeGitHub {
  const gh = startFakeGitHub({
    token: "never-handed-out",
    app: {
      id: APP_ID,
      publicKeyPem: keys.publicKeyPem,
      installations: [INSTALLATION],
    },
  });
  gh.addRepository("o/r", { gitDir, cloneVia: "http" });
  return gh;
}

async function serveEnv(
  gh: FakeGitHub,
  keys: AppKeys,
  dataDir: string,
  extra: Record<string, string> = {},
) {
  // Inside the data dir, which each test removes: no private key is left behind.
  await Deno.mkdir(dataDir, { recursive: true });
  const keyFile = `${dataDir}/app.pem`;
  await Deno.writeTextFile(keyFile, keys.privateKeyPem);
  return {
    GITHUB_API_URL: gh.url,
    PAWL_SERVE_WEBHOOK_SECRET: SECRET,
    PAWL_SERVE_APP_ID: String(APP_ID),
    PAWL_SERVE_PRIVATE_KEY_FILE: keyFile,
    PAWL_SERVE_DATA_DIR: dataDir,
    PAWL_SERVE_WORKERS: "1",
    PAWL_SERVE_BACKOFF_SECONDS: "0.2",
    PAWL_GITHUB_RETRY_BASE_MS: "5",
    PAWL_SANDBOX_UIDS: SERVE_SANDBOX_UIDS,
    ...extra,
  };
}

Deno.test("pawl serve judges each pull request of a signed webhook once, with the delivery's clock, and publishes once", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
    updatedAt: "2026-11-30T11:00:00Z",
  });
  gh.addPullRequest("o/r", {
    number: 2,
    baseSha: sha.main,
    headSha: sha.weaken,
    updatedAt: "2026-11-30T11:30:00Z",
  });
  // Capitals in the data dir's path stay as given.
  const root = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  const dataDir = `${root}/Pawl-Data`;
  try {
    const signingKey = `${dataDir}-signing.pem`;
    await Deno.writeTextFile(
      signingKey,
      generateKeyPairSync("ed25519").privateKey.export({
        type: "pkcs8",
        format: "pem",
      }).toString(),
    );
    await using server = await spawnServe(
      await serveEnv(gh, keys, dataDir, {
        PAWL_SIGNING_KEY_FILE: signingKey,
      }),
    );
    const hook = `${server.url}/webhook`;
    const event = (n: number, action = "opened") =>
      gh.pullRequestEvent("o/r", n, { action, installationId: INSTALLATION });
    const forged = await sendWebhook(hook, event(1), {
      secret: "guessed",
      event: "pull_request",
    });
    assert.equal(forged.status, 401);
    const unsigned = await sendWebhook(hook, event(1), {
      secret: SECRET,
      event: "pull_request",
      signature: null,
    });
    assert.equal(unsigned.status, 401);
    const first = await sendWebhook(hook, event(1), {
      secret: SECRET,
      event: "pull_request",
      deliveryId: "d1",
    });
    assert.equal(first.status, 202, first.body);
    assert.equal(JSON.parse(first.body).jobs[0].result, "queued");
    // GitHub's redelivery of the same delivery, and a reopen of the same commits.
    const again = await sendWebhook(hook, event(1), {
      secret: SECRET,
      event: "pull_request",
      deliveryId: "d1",
    });
    assert.equal(JSON.parse(again.body).jobs[0].result, "duplicate");
    const reopened = await sendWebhook(hook, event(1, "reopened"), {
      secret: SECRET,
      event: "pull_request",
    });
    assert.equal(JSON.parse(reopened.body).jobs[0].result, "duplicate");
    await sendWebhook(hook, event(2), {
      secret: SECRET,
      event: "pull_request",
    });
    await until(
      "both published",
      () => server.logs.filter((l) => l.event === "job.published").length === 2,
    );
    assert.equal(
      gh.checkRuns.length,
      2,
      JSON.stringify(gh.checkRuns.map((r) => r.headSha)),
    );
    const honest = gh.checkRuns.find((r) => r.headSha === sha.honest);
    const weaken = gh.checkRuns.find((r) => r.headSha === sha.weaken);
    assert.equal(honest?.conclusion, "success", honest?.summary);
    assert.equal(weaken?.conclusion, "failure", weaken?.summary);
    // The clock is each delivery's own timestamp, recorded as such.
    assert.match(
      honest!.summary,
      /`2026-11-30T11:00:00Z` \(from event field `pull_request\.updated_at`\)/,
    );
    assert.match(
      weaken!.summary,
      /`2026-11-30T11:30:00Z` \(from event field `pull_request\.updated_at`\)/,
    );
    assert.equal(
      gh.comments.filter((c) => c.body.startsWith(MARKDOWN_MARKER)).length,
      2,
    );
    // Pending while judging, then the verdict's.
    assert.equal(gh.statuses.filter((s) => s.state !== "pending").length, 2);
    // Each verdict's signed envelope, under the data dir as given.
    for (const head of [sha.honest, sha.weaken]) {
      const envelope = JSON.parse(
        await Deno.readTextFile(`${dataDir}/verdicts/o/r/${head}.dsse.json`),
      );
      assert.equal(envelope.payloadType, "application/vnd.in-toto+json");
    }
    // One installation token, used for the clone and the API, never logged.
    assert.equal(gh.issuedTokens.length, 1);
    const token = gh.issuedTokens[0]!.token;
    assert.ok(
      gh.requests.some((r) => r.path.startsWith("/git/") && r.status === 200),
    );
    assert.ok(!server.stderr().includes(token), "token in the log");
    assert.ok(!server.stderr().includes(SECRET), "secret in the log");
    assert.ok(!server.stderr().includes("PRIVATE KEY"), "key in the log");
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const families = parsePrometheusText(metrics);
    assert.ok(families.has("process_start_time_seconds"));
    assert.match(
      metrics,
      /^pawl_serve_webhook_rejections_total\{reason="signature"\} 2$/m,
    );
    assert.match(
      metrics,
      /^pawl_serve_delivery_to_publication_seconds_count 2$/m,
    );
    assert.match(metrics, /^pawl_serve_jobs_total\{outcome="accept"\} 1$/m);
    assert.match(metrics, /^pawl_serve_jobs_total\{outcome="reject"\} 1$/m);
    assert.match(metrics, /^pawl_serve_queue_depth\{state="published"\} 2$/m);
    // One per attempt: a run killed from outside (another pawl on the machine) is tried again.
    assert.match(
      metrics,
      /^pawl_serve_judgement_duration_seconds_count [2-9]$/m,
    );
    server.kill("SIGTERM");
    assert.equal((await server.status).code, 0);
    assert.ok(server.logs.some((l) => l.event === "serve.stopped"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("pawl serve on SIGTERM mid-job gives the job back within its grace, and the next server publishes it once", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  try {
    const env = await serveEnv(gh, keys, dataDir, {
      PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "0",
    });
    {
      await using first = await spawnServe(env);
      await sendWebhook(
        `${first.url}/webhook`,
        gh.pullRequestEvent("o/r", 1, {
          action: "opened",
          installationId: INSTALLATION,
        }),
        { secret: SECRET, event: "pull_request" },
      );
      await first.waitForLog((l) => l.event === "job.started");
      first.kill("SIGTERM");
      assert.equal((await first.status).code, 0);
      assert.ok(
        first.logs.some((l) => l.event === "job.released"),
        first.stderr(),
      );
    }
    // At most marked in progress: no verdict yet.
    assert.ok(gh.checkRuns.every((r) => r.status === "in_progress"));
    await using second = await spawnServe(env);
    const done = await second.waitForLog((l) => l.event === "job.published");
    assert.equal(done.decision, "accept");
    assert.equal(gh.checkRuns.length, 1);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

for (const backend of ["sqlite", "postgres"] as const) {
  Deno.test(`pawl serve (${backend} queue) killed with SIGKILL mid-job takes the job up again after its lease and publishes it once`, async () => {
    // deno-lint-ignore no-unused-vars -- used below; the rule misses "await using" read in closures
    await using pg = backend === "postgres"
      ? await startTestPostgres()
      : undefined;
    const { repo, remote, sha } = await world();
    await using _repo = repo;
    await using _remote = remote;
    const keys = makeAppKeys();
    await using gh = fakeApp(keys, remote.gitDir);
    gh.addPullRequest("o/r", {
      number: 2,
      baseSha: sha.main,
      headSha: sha.weaken,
    });
    const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
    try {
      const env = await serveEnv(gh, keys, dataDir, {
        PAWL_SERVE_LEASE_SECONDS: "2",
      });
      {
        await using first = await spawnServe(env);
        const answer = await sendWebhook(
          `${first.url}/webhook`,
          gh.pullRequestEvent("o/r", 2, {
            action: "synchronize",
            installationId: INSTALLATION,
          }),
          { secret: SECRET, event: "pull_request" },
        );
        assert.equal(answer.status, 202);
        await first.waitForLog((l) => l.event === "job.started");
        first.kill("SIGKILL");
        assert.equal((await first.status).signal, "SIGKILL");
      }
      // At most marked in progress: no verdict yet.
      assert.ok(gh.checkRuns.every((r) => r.status === "in_progress"));
      await using second = await spawnServe(env);
      const done = await second.waitForLog((l) => l.event === "job.published");
      assert.equal(done.decision, "reject", JSON.stringify(done));
      const started = second.logs.find((l) => l.event === "job.started");
      assert.equal(started?.attempt, 2);
      assert.equal(gh.checkRuns.length, 1);
      assert.equal(gh.checkRuns[0]!.conclusion, "failure");
      assert.equal(gh.comments.length, 1);
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  });
}

Deno.test("pawl serve waits out a GitHub outage far longer than its first retries, then publishes each verdict once", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  try {
    await using server = await spawnServe(
      await serveEnv(gh, keys, dataDir, {
        PAWL_SERVE_BACKOFF_MAX_SECONDS: "0.5",
      }),
    );
    // The App's token endpoint, the API and git all answer 503 for 6 s:
    // thirty times the first backoff, eleven waits of at most 0.5 s.
    const outage = 6000;
    gh.outage(outage);
    const outageEnds = Date.now() + outage;
    // Then completing the check run fails a few more times on its own.
    gh.inject({
      method: "PATCH",
      path: /\/check-runs\/\d+$/,
      status: 502,
      times: 3,
    });
    await sendWebhook(
      `${server.url}/webhook`,
      gh.pullRequestEvent("o/r", 1, {
        action: "opened",
        installationId: INSTALLATION,
      }),
      { secret: SECRET, event: "pull_request" },
    );
    const done = await server.waitForLog((l) => l.event === "job.published");
    assert.equal(done.decision, "accept", server.stderr());
    assert.ok(Date.now() >= outageEnds);
    assert.ok(
      gh.requests.filter((r) => r.injected && r.status === 503).length > 4,
    );
    assert.ok(server.logs.some((l) => l.event === "job.retry"));
    assert.ok(server.logs.some((l) => l.event === "job.publish_failed"));
    assert.ok(!server.stderr().includes("Gave up"), server.stderr());
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.headSha, r.status, r.conclusion]),
      [[sha.honest, "completed", "success"]],
    );
    assert.deepEqual(gh.statuses.map((s) => s.state).at(-1), "success");
    assert.equal(gh.comments.length, 1);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("pawl serve gives up a git request GitHub stopped answering instead of waiting on it forever, and judges the pull request", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  // The first git request gets no answer until the test ends.
  const hung = Promise.withResolvers<void>();
  try {
    gh.inject({ path: /^\/git\//, hold: hung.promise });
    await using server = await spawnServe(
      await serveEnv(gh, keys, dataDir, { PAWL_SERVE_GIT_STALL_SECONDS: "2" }),
    );
    await sendWebhook(
      `${server.url}/webhook`,
      gh.pullRequestEvent("o/r", 1, {
        action: "opened",
        installationId: INSTALLATION,
      }),
      { secret: SECRET, event: "pull_request" },
    );
    const done = await server.waitForLog((l) => l.event === "job.published");
    assert.equal(done.decision, "accept", server.stderr());
    // The request that got no answer was given up, not waited on forever.
    const git = gh.requests.filter((r) => r.path.startsWith("/git/"));
    assert.equal(git[0]?.status, 0);
    assert.ok(git.slice(1).every((r) => r.status === 200));
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.status, r.conclusion]),
      [["completed", "success"]],
    );
  } finally {
    hung.resolve();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("pawl serve stops at once on SIGTERM while a job waits out an outage, and the job stays queued for the next server", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  try {
    const env = await serveEnv(gh, keys, dataDir, {
      PAWL_SERVE_BACKOFF_SECONDS: "0.05",
      PAWL_SERVE_BACKOFF_MAX_SECONDS: "30",
    });
    gh.outage(120_000);
    {
      await using server = await spawnServe(env);
      await sendWebhook(
        `${server.url}/webhook`,
        gh.pullRequestEvent("o/r", 1, {
          action: "opened",
          installationId: INSTALLATION,
        }),
        { secret: SECRET, event: "pull_request" },
      );
      // Retried until the waits have grown past five seconds.
      await server.waitForLog((l) =>
        l.event === "job.retry" &&
        Date.parse(String(l.retryAt)) - Date.parse(String(l.time)) > 5000
      );
      const asked = Date.now();
      server.kill("SIGTERM");
      assert.equal((await server.status).code, 0);
      const took = Date.now() - asked;
      assert.ok(took < 5000, `stopping took ${took} ms`);
    }
    const queue = openSqliteQueue(`${dataDir}/queue.db`);
    try {
      const [job] = await queue.list();
      assert.equal(job?.state, "queued");
      assert.match(job?.lastError ?? "", /Service Unavailable/);
    } finally {
      await queue.close();
    }
    assert.equal(
      gh.checkRuns.filter((r) => r.status === "completed").length,
      0,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("pawl serve drops an installation token revoked before its expiry and carries on with a new one, for git and for the API", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 1,
    baseSha: sha.main,
    headSha: sha.honest,
  });
  gh.addPullRequest("o/r", {
    number: 2,
    baseSha: sha.main,
    headSha: sha.weaken,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  try {
    await using server = await spawnServe(await serveEnv(gh, keys, dataDir));
    const send = (n: number) =>
      sendWebhook(
        `${server.url}/webhook`,
        gh.pullRequestEvent("o/r", n, {
          action: "opened",
          installationId: INSTALLATION,
        }),
        { secret: SECRET, event: "pull_request" },
      );
    await send(1);
    await server.waitForLog((l) => l.event === "job.published");
    assert.equal(gh.issuedTokens.length, 1);
    // GitHub stops accepting the cached token an hour before its expiry,
    // as the clone starts; the next one is revoked while publishing.
    gh.inject({ path: /^\/git\//, revokeTokens: true });
    gh.inject({ method: "POST", path: /\/comments$/, revokeTokens: true });
    await send(2);
    await until(
      "both published",
      () => server.logs.filter((l) => l.event === "job.published").length === 2,
    );
    const second = server.logs.filter((l) => l.event === "job.published")[1];
    assert.equal(second?.decision, "reject", server.stderr());
    assert.ok(
      gh.requests.some((r) => r.path.startsWith("/git/") && r.status === 401),
    );
    assert.ok(
      gh.requests.some((r) => !r.path.startsWith("/git/") && r.status === 401),
    );
    assert.equal(
      server.logs.filter((l) => l.event === "app.token_rejected").length,
      2,
      server.stderr(),
    );
    assert.equal(gh.issuedTokens.length, 3);
    assert.ok(!server.logs.some((l) => l.event === "job.retry"));
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.headSha, r.conclusion]),
      [[sha.honest, "success"], [sha.weaken, "failure"]],
    );
    assert.equal(gh.comments.length, 2);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("pawl serve shows a check run in progress and a pending status while it judges, then completes that check run in place", async () => {
  const { repo, remote, sha } = await world();
  await using _repo = repo;
  await using _remote = remote;
  const keys = makeAppKeys();
  await using gh = fakeApp(keys, remote.gitDir);
  gh.addPullRequest("o/r", {
    number: 2,
    baseSha: sha.main,
    headSha: sha.weaken,
  });
  const dataDir = await Deno.makeTempDir({ prefix: "pawl-serve-data-" });
  try {
    await using server = await spawnServe(await serveEnv(gh, keys, dataDir));
    // The clone waits until the pull request has been looked at.
    const looked = Promise.withResolvers<void>();
    gh.inject({ path: /^\/git\//, hold: looked.promise });
    await sendWebhook(
      `${server.url}/webhook`,
      gh.pullRequestEvent("o/r", 2, {
        action: "synchronize",
        installationId: INSTALLATION,
      }),
      { secret: SECRET, event: "pull_request" },
    );
    try {
      await until("the pending status", () => gh.statuses.length > 0, 60_000);
    } finally {
      looked.resolve();
    }
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.headSha, r.status, r.conclusion, r.title]),
      [[sha.weaken, "in_progress", null, "Judging"]],
    );
    assert.deepEqual(gh.statuses.map((s) => [s.sha, s.state]), [
      [sha.weaken, "pending"],
    ]);
    const id = gh.checkRuns[0]!.id;
    const done = await server.waitForLog((l) => l.event === "job.published");
    assert.equal(done.decision, "reject", server.stderr());
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.id, r.status, r.conclusion]),
      [[id, "completed", "failure"]],
    );
    assert.deepEqual(gh.statuses.map((s) => s.state), ["pending", "failure"]);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
