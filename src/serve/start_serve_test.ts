import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
// @ts-types="@types/pg"
import pgClient from "pg";
import { sendWebhook, startFakeGitHub } from "../../tests/_fake_github.ts";
import { startTestPostgres } from "../../tests/_postgres.ts";
import { buildRepo, git } from "../../tests/_repo.ts";
import { generateKeyPair } from "../sign/generate_key_pair.ts";
import { readSigningKey } from "../sign/signing_key.ts";
import { VERSION } from "../version.ts";
import type { Outcome } from "../github/publish_verdict.ts";
import { TransientError } from "./judge.ts";
import { resolveServeConfig } from "./serve_config.ts";
import { poolTimings, readSecret, startServe } from "./start_serve.ts";

const PASSWORD = " queue p@ss:word/1 ";

/** Deliver the opening of pull request 7 of octo/widgets to the server on `port`. */
function openPullRequest(
  port: number,
  options: {
    installation?: number;
    base?: string;
    head?: string;
    cloneUrl?: string;
  } = {},
) {
  return sendWebhook(
    `http://127.0.0.1:${port}/webhook`,
    {
      action: "opened",
      number: 7,
      "pull_request": {
        number: 7,
        state: "open",
        "updated_at": "2026-11-30T11:00:00Z",
        base: { sha: options.base ?? "a".repeat(40), ref: "main" },
        head: { sha: options.head ?? "b".repeat(40), ref: "feature" },
      },
      repository: {
        "full_name": "octo/widgets",
        "clone_url": options.cloneUrl ?? "file:///x",
      },
      ...(options.installation === undefined
        ? {}
        : { installation: { id: options.installation } }),
    },
    { secret: "webhook-secret-for-tests", event: "pull_request" },
  );
}

/** The log lines as events. */
function eventsOf(lines: readonly string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line));
}

/** The first event named `name`, without its time stamp. */
function eventNamed(
  lines: readonly string[],
  name: string,
): Record<string, unknown> | undefined {
  const found = eventsOf(lines).find((e) => e.event === name);
  if (found === undefined) return undefined;
  const { time: _time, ...rest } = found;
  return rest;
}

/** Wait until `found` gives a value, for up to a minute. */
async function waitFor<T>(
  what: string,
  found: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Open the pull request on the server at `port`, see it accepted, and wait
 * for its job's published outcome among the log `lines`.
 */
async function publishedAfterOpening(
  port: number,
  lines: readonly string[],
  options: Parameters<typeof openPullRequest>[1] = {},
): Promise<Record<string, unknown>> {
  const answer = await openPullRequest(port, options);
  assert.equal(answer.status, 202, answer.body);
  return await waitFor(
    "the job's outcome in the log",
    () => eventNamed(lines, "job.published"),
  );
}

/** pawl serve on the PostgreSQL queue at `url`, with no jobs of its own to judge. */
function startOnQueue(url: string, dir: string, write: (line: string) => void) {
  const config = resolveServeConfig({
    flags: { port: "0", "queue-url": url },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
    },
  });
  return startServe(config, {
    judge: () => Promise.reject(new Error("not in this test")),
    publish: () => Promise.resolve(),
    announce: () => Promise.resolve(),
    write,
  });
}

Deno.test("startServe() logs in to PostgreSQL with the password from PAWL_SERVE_QUEUE_PASSWORD_FILE, never showing it", async () => {
  await using pg = await startTestPostgres({ password: PASSWORD });
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const start = async (password: string, newline = "\n") => {
    await Deno.writeTextFile(`${dir}/db-password`, `${password}${newline}`);
    const lines: string[] = [];
    const config = resolveServeConfig({
      flags: { port: "0", "queue-url": pg.url },
      env: {
        PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
        PAWL_SERVE_DATA_DIR: `${dir}/data`,
        PAWL_SERVE_QUEUE_PASSWORD_FILE: `${dir}/db-password`,
      },
    });
    const server = await startServe(config, {
      // A failure that quotes the password: the log must not.
      judge: () =>
        Promise.reject(new Error(`the password "${PASSWORD}" is wrong`)),
      publish: () => Promise.resolve(),
      announce: () => Promise.resolve(),
      write: (line) => lines.push(line),
    });
    return { server, lines };
  };
  try {
    await assert.rejects(start("wrong"), /password authentication failed/);
    // Spaces are the password's own; a line end is not, nor a Windows one.
    await assert.rejects(
      start(PASSWORD.trim()),
      /password authentication failed/,
    );
    await (await start(PASSWORD, "\n")).server.shutdown();
    const { server, lines } = await start(PASSWORD, "\r\n");
    try {
      const ready = await fetch(`http://127.0.0.1:${server.port}/readyz`);
      assert.equal(ready.status, 200, await ready.text());
      assert.ok(await server.queue.ping());
      const published = await publishedAfterOpening(server.port, lines);
      assert.match(String(published.reason), /the password "\*\*\*" is wrong/);
    } finally {
      await server.shutdown();
    }
    assert.ok(lines.some((l) => l.includes('"queue":"postgres"')));
    assert.ok(!lines.join("").includes("p@ss"), lines.join(""));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() given no database password leaves the login to PostgreSQL's own password file", async () => {
  await using pg = await startTestPostgres({ password: PASSWORD });
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const { port } = new URL(pg.url);
  await Deno.writeTextFile(
    `${dir}/pgpass`,
    `127.0.0.1:${port}:*:pawl:${PASSWORD.replaceAll(":", "\\:")}\n`,
    { mode: 0o600 },
  );
  const before = Deno.env.get("PGPASSFILE");
  Deno.env.set("PGPASSFILE", `${dir}/pgpass`);
  try {
    const server = await startOnQueue(pg.url, dir, () => {});
    try {
      assert.ok(await server.queue.ping());
    } finally {
      await server.shutdown();
    }
  } finally {
    if (before === undefined) Deno.env.delete("PGPASSFILE");
    else Deno.env.set("PGPASSFILE", before);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() takes secrets from files without their trailing newline, hands the plain token to jobs, and lets a running job finish within the grace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  await Deno.writeTextFile(`${dir}/hook`, "webhook-secret-for-tests\n");
  await Deno.writeTextFile(`${dir}/token`, "plain-token-1234\n");
  const lines: string[] = [];
  const tokens: (string | undefined)[] = [];
  const published: string[] = [];
  const announced: string[] = [];
  let started!: () => void;
  const judging = new Promise<void>((r) => started = r);
  let finish!: () => void;
  const finished = new Promise<void>((r) => finish = r);
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET_FILE: `${dir}/hook`,
      GITHUB_TOKEN_FILE: `${dir}/token`,
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
    },
  });
  const server = await startServe(config, {
    judge: async (job, context) => {
      tokens.push(context.token);
      started();
      await finished;
      return { kind: "undecided", reason: "test", headSha: job.headSha };
    },
    publish: (job) => {
      published.push(job.headSha);
      return Promise.resolve();
    },
    announce: (job) => {
      announced.push(job.headSha);
      return Promise.resolve();
    },
    write: (line) => lines.push(line),
  });
  try {
    const answer = await openPullRequest(server.port);
    assert.equal(answer.status, 202, answer.body);
    await judging;
    assert.deepEqual(announced, ["b".repeat(40)]);
    assert.deepEqual(tokens, ["plain-token-1234"]);
  } finally {
    // Told to stop twice while the job still runs: one graceful stop.
    const stopping = [server.shutdown(), server.shutdown()];
    // The job ends while the server is already stopping.
    setTimeout(finish, 200);
    await Promise.all(stopping);
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(published, ["b".repeat(40)]);
  const events = lines.map((l) => JSON.parse(l));
  assert.equal(
    events.find((e) => e.event === "serve.started")?.queue,
    "sqlite",
  );
  assert.equal(events.filter((e) => e.event === "serve.stopped").length, 1);
  assert.ok(!lines.join("").includes("plain-token-1234"));
});

Deno.test("startServe() with an App gives up on a delivery that names no installation, saying so, and never asks GitHub", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      PAWL_SERVE_APP_ID: "321",
      PAWL_SERVE_PRIVATE_KEY: privateKey.export({
        type: "pkcs1",
        format: "pem",
      }).toString(),
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
      // Nothing to retry for: the first failure is the last.
      PAWL_SERVE_DEADLINE_SECONDS: "0.001",
      // Nothing listens here: any call to GitHub fails at once.
      GITHUB_API_URL: "http://127.0.0.1:9",
    },
  });
  const server = await startServe(config, {
    judge: () => Promise.reject(new Error("not judged without a token")),
    publish: () => Promise.resolve(),
    announce: () => Promise.resolve(),
    write: () => {},
  });
  try {
    const answer = await openPullRequest(server.port);
    assert.equal(answer.status, 202, answer.body);
    const outcome = async () =>
      (await server.queue.list()).find((job) => job.outcome !== undefined)
        ?.outcome;
    for (let i = 0; i < 3000 && (await outcome()) === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const got = await outcome();
    assert.equal(got?.kind, "undecided");
    assert.match(
      got?.kind === "undecided" ? got.reason : "",
      /: Cannot get an installation token for installation undefined: the delivery names no App installation$/,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() logs where it listens and with what on start, and its shutdown grace on stop", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingPem = (await generateKeyPair()).privateKeyPem;
  const { keyid } = await readSigningKey(signingPem, "a test");
  const cases = [
    {
      name: "with an App, a signing key, three workers and a grace of 7 s",
      env: {
        PAWL_SERVE_APP_ID: "321",
        PAWL_SERVE_PRIVATE_KEY: privateKey.export({
          type: "pkcs1",
          format: "pem",
        }).toString(),
        PAWL_SIGNING_KEY: signingPem,
        PAWL_SERVE_WORKERS: "3",
        PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "7",
      },
      app: 321,
      signing: keyid,
      workers: 3,
      graceSeconds: 7,
    },
    {
      name: "with a plain token and the defaults",
      env: { GITHUB_TOKEN: "plain-token-1234" },
      app: null,
      signing: null,
      workers: 2,
      graceSeconds: 30,
    },
  ];
  try {
    for (const [i, c] of cases.entries()) {
      await t.step(c.name, async () => {
        const dataDir = `${dir}/${i}/data`;
        const lines: string[] = [];
        const config = resolveServeConfig({
          flags: { host: "127.0.0.1", port: "0" },
          env: {
            PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
            PAWL_SERVE_DATA_DIR: dataDir,
            ...c.env,
          },
        });
        const server = await startServe(config, {
          judge: () => Promise.reject(new Error("not in this test")),
          publish: () => Promise.resolve(),
          announce: () => Promise.resolve(),
          write: (line) => lines.push(line),
        });
        try {
          assert.deepEqual(eventNamed(lines, "serve.started"), {
            host: "127.0.0.1",
            port: server.port,
            queue: "sqlite",
            workers: c.workers,
            app: c.app,
            signing: c.signing,
            version: VERSION,
            event: "serve.started",
          });
          // The queue lives in the data dir, where the next server finds it.
          assert.ok((await Deno.stat(`${dataDir}/queue.db`)).isFile);
        } finally {
          await server.shutdown();
        }
        assert.deepEqual(eventNamed(lines, "serve.stopping"), {
          graceSeconds: c.graceSeconds,
          event: "serve.stopping",
        });
        const names = eventsOf(lines).map((e) => e.event);
        assert.deepEqual(names.slice(-2), ["serve.stopping", "serve.stopped"]);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() with an App takes a token for the delivery's installation, renews one GitHub turned away, and never logs a secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
  });
  const privatePem = privateKey.export({ type: "pkcs1", format: "pem" })
    .toString();
  const signingPem = (await generateKeyPair()).privateKeyPem;
  await using github = startFakeGitHub({
    app: {
      id: 321,
      publicKeyPem: publicKey.export({ type: "spki", format: "pem" })
        .toString(),
      installations: [55],
    },
  });
  const lines: string[] = [];
  const tokens: (string | undefined)[] = [];
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      PAWL_SERVE_APP_ID: "321",
      // Both keys as their files give them, with a final line end.
      PAWL_SERVE_PRIVATE_KEY: `${privatePem.trim()}\n`,
      PAWL_SIGNING_KEY: `${signingPem.trim()}\n`,
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
      GITHUB_API_URL: github.url,
    },
  });
  const server = await startServe(config, {
    judge: (_job, context) => {
      tokens.push(context.token);
      if (tokens.length === 1) {
        return Promise.reject(
          Object.assign(new Error("Bad credentials"), { status: 401 }),
        );
      }
      // A failure that quotes every secret: the log must not.
      return Promise.reject(
        new Error(
          `leaked webhook-secret-for-tests, ${privatePem.trim()}, ${signingPem.trim()}.`,
        ),
      );
    },
    publish: () => Promise.resolve(),
    announce: () => Promise.resolve(),
    write: (line) => lines.push(line),
  });
  try {
    const published = await publishedAfterOpening(server.port, lines, {
      installation: 55,
    });
    assert.equal(published.reason, "leaked ***, ***, ***.");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
  // The first token was turned away and dropped; the second is new.
  assert.deepEqual(tokens, github.issuedTokens.map((t) => t.token));
  assert.equal(tokens.length, 2);
  assert.notEqual(tokens[0], tokens[1]);
  assert.deepEqual(
    eventsOf(lines).filter((e) => e.event === "app.token_issued")
      .map((e) => e.installation),
    [55, 55],
  );
  for (const secret of [privatePem.trim(), signingPem.trim()]) {
    for (const part of secret.split("\n").slice(1, -1)) {
      assert.ok(!lines.join("").includes(part), part);
    }
  }
});

Deno.test("startServe() with a plain GITHUB_TOKEN cannot renew it when GitHub turns it away, and never logs it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const lines: string[] = [];
  const tokens: (string | undefined)[] = [];
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      GITHUB_TOKEN: "plain-token-1234",
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
    },
  });
  const server = await startServe(config, {
    judge: (_job, context) => {
      tokens.push(context.token);
      return Promise.reject(
        Object.assign(new Error(`Bad credentials: ${context.token}`), {
          status: 401,
        }),
      );
    },
    publish: () => Promise.resolve(),
    announce: () => Promise.resolve(),
    write: (line) => lines.push(line),
  });
  try {
    const published = await publishedAfterOpening(server.port, lines);
    assert.equal(published.reason, "Bad credentials: ***");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(tokens, ["plain-token-1234"]);
});

Deno.test("startServe() puts a failed attempt's retry PAWL_SERVE_BACKOFF_SECONDS ahead, within PAWL_SERVE_BACKOFF_MAX_SECONDS and the deadline", async (t) => {
  const cases = [
    { backoff: "100", max: "200", atLeastS: 75, atMostS: 125 },
    { backoff: "100", max: "10", atLeastS: 7.5, atMostS: 12.5 },
  ];
  for (const c of cases) {
    await t.step(`backoff ${c.backoff} s, at most ${c.max} s`, async () => {
      const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
      const lines: string[] = [];
      let attempts = 0;
      const config = resolveServeConfig({
        flags: { port: "0" },
        env: {
          PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
          PAWL_SERVE_DATA_DIR: `${dir}/data`,
          PAWL_SERVE_BACKOFF_SECONDS: c.backoff,
          PAWL_SERVE_BACKOFF_MAX_SECONDS: c.max,
          PAWL_SERVE_DEADLINE_SECONDS: "3600",
          PAWL_SERVE_SHUTDOWN_GRACE_SECONDS: "0",
        },
      });
      const server = await startServe(config, {
        // Fails once, then comes to a decision: a retry is never run early.
        judge: (job) =>
          ++attempts === 1
            ? Promise.reject(new TransientError("GitHub answered 502"))
            : Promise.resolve({
              kind: "undecided",
              reason: "test",
              headSha: job.headSha,
            }),
        publish: () => Promise.resolve(),
        announce: () => Promise.resolve(),
        write: (line) => lines.push(line),
      });
      let retry: Record<string, unknown> | undefined;
      try {
        const answer = await openPullRequest(server.port);
        assert.equal(answer.status, 202, answer.body);
        const [time, event] = await waitFor(
          "the job's retry or outcome",
          () =>
            eventsOf(lines).map((e) => [e.time, e.event] as const)
              .find(([, name]) =>
                name === "job.retry" || name === "job.published"
              ),
        );
        assert.equal(event, "job.retry", lines.join(""));
        retry = eventsOf(lines).find((e) => e.event === "job.retry");
        const aheadS = (Date.parse(String(retry?.retryAt)) -
          Date.parse(String(time))) / 1000;
        assert.ok(
          aheadS >= c.atLeastS - 1 && aheadS <= c.atMostS + 1,
          `${aheadS} s`,
        );
      } finally {
        await server.shutdown();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("poolTimings() turns each configured number of seconds into the worker pool's milliseconds, and looks for work every quarter lease, at most every second", () => {
  const seconds = {
    leaseSeconds: 7,
    backoffSeconds: 0.5,
    backoffMaxSeconds: 11,
    deadlineSeconds: 13,
    shutdownGraceSeconds: 3,
  };
  assert.deepEqual(poolTimings(seconds), {
    leaseMs: 7000,
    backoffMs: 500,
    backoffCapMs: 11000,
    deadlineMs: 13000,
    pollMs: 1000,
    shutdownGraceMs: 3000,
  });
  const pollMs = (leaseSeconds: number) =>
    poolTimings({ ...seconds, leaseSeconds }).pollMs;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 300].map(pollMs),
    [250, 500, 750, 1000, 1000, 1000],
  );
});

Deno.test("startServe() takes up a job queued without a webhook (by another server) at its next look, within a second", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  let judged!: (head: string) => void;
  const judging = new Promise<string>((resolve) => judged = resolve);
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
      // A long lease: the server still looks for work every second.
      PAWL_SERVE_LEASE_SECONDS: "3600",
    },
  });
  const server = await startServe(config, {
    judge: (job) => {
      judged(job.headSha);
      return Promise.resolve({
        kind: "undecided",
        reason: "test",
        headSha: job.headSha,
      });
    },
    publish: () => Promise.resolve(),
    announce: () => Promise.resolve(),
    write: () => {},
  });
  try {
    await server.queue.enqueue({
      owner: "octo",
      repo: "widgets",
      number: 7,
      baseSha: "a".repeat(40),
      headSha: "c".repeat(40),
      cloneUrl: "file:///x",
      now: "2026-11-30T11:00:00Z",
      clockField: "pull_request.updated_at",
      event: "pull_request.opened",
      deliveryId: "d",
    }, { now: Date.now(), rerequest: false });
    const timeout = AbortSignal.timeout(60_000);
    const head = await Promise.race([
      judging,
      new Promise<never>((_, reject) =>
        timeout.addEventListener("abort", () => reject(timeout.reason))
      ),
    ]);
    assert.equal(head, "c".repeat(40));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() without a judge judges with the pipeline inside PAWL_SERVE_TEMP_DIR, hides the signing key file from the tests, and files each signed verdict under the data dir", async () => {
  // Where the sandbox could see it (its /tmp is its own), and readable by all:
  // only pawl's hiding keeps it from the tests.
  const keyDir = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-start-serve-key-",
  });
  await Deno.chmod(keyDir, 0o755);
  const keyFile = `${keyDir}/signing.pem`;
  await using repo = await buildRepo({
    heads: {
      feature: {
        "NOTES.md": "a change\n",
        "tests/test_key_probe.py": `def test_key_probe():
    try:
        with open(${JSON.stringify(keyFile)}) as f:
            text = f.read()
    except OSError as e:
        text = type(e).__name__
    seen = "rea" + "dable" if "PRIVATE" in text else "hid" + "den"
    assert False, "KEYPROBE " + seen
`,
      },
    },
  });
  const base = await repo.commit("main");
  const head = await repo.commit("feature");
  await git(repo.dir, ["update-ref", "refs/pull/7/head", head]);
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  // Short: the judgement's socket paths live under it.
  const tempDir = await Deno.makeTempDir({ prefix: "pt-" });
  const signingPem = (await generateKeyPair()).privateKeyPem;
  const { keyid } = await readSigningKey(signingPem, "a test");
  await Deno.writeTextFile(keyFile, signingPem, { mode: 0o644 });
  await Deno.chmod(keyFile, 0o644);
  const outcomes: Outcome[] = [];
  // What the judgement's temp root holds at each of its steps.
  const inTemp: string[] = [];
  const lines: string[] = [];
  const config = resolveServeConfig({
    flags: { port: "0" },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
      PAWL_SERVE_DATA_DIR: `${dir}/data`,
      PAWL_SERVE_TEMP_DIR: tempDir,
      PAWL_SIGNING_KEY_FILE: keyFile,
    },
  });
  const server = await startServe(config, {
    publish: (_job, outcome) => {
      outcomes.push(outcome);
      return Promise.resolve();
    },
    announce: () => Promise.resolve(),
    write: (line) => {
      lines.push(line);
      if (line.includes('"event":"job.step"')) {
        for (const entry of Deno.readDirSync(tempDir)) {
          inTemp.push(entry.name);
        }
      }
    },
  });
  try {
    const answer = await openPullRequest(server.port, {
      base,
      head,
      cloneUrl: `file://${repo.dir}`,
    });
    assert.equal(answer.status, 202, answer.body);
    const outcome = await waitFor("the published outcome", () => outcomes[0]);
    assert.equal(outcome.kind, "verdict", JSON.stringify(outcome));
    if (outcome.kind !== "verdict") return;
    assert.equal(outcome.verdict.head, head);
    assert.ok(outcome.markdown.includes(keyid), outcome.markdown);
    const envelope = JSON.parse(
      await Deno.readTextFile(
        `${dir}/data/verdicts/octo/widgets/${head}.dsse.json`,
      ),
    );
    assert.equal(envelope.signatures[0].keyid, keyid);
    assert.ok(inTemp.length > 0, lines.join(""));
    const messages = outcome.verdict.findings.map((f) => f.message).join("\n");
    assert.match(messages, /KEYPROBE hidden/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(tempDir, { recursive: true });
    await Deno.remove(keyDir, { recursive: true });
  }
});

Deno.test("readSecret() names the variable and the file it could not read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  try {
    await assert.rejects(
      readSecret({
        kind: "file",
        path: `${dir}/missing`,
        from: "GITHUB_TOKEN_FILE",
      }),
      new RegExp(
        `^Error: Cannot read the file named by GITHUB_TOKEN_FILE \\("${dir}/missing"\\): No such file`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() writes its log to stderr when given nowhere else, one event a line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  try {
    const here = (path: string) => new URL(path, import.meta.url).href;
    await Deno.writeTextFile(
      `${dir}/serve.ts`,
      `import { resolveServeConfig } from ${
        JSON.stringify(here("./serve_config.ts"))
      };
import { startServe } from ${JSON.stringify(here("./start_serve.ts"))};
const config = resolveServeConfig({
  flags: { port: "0" },
  env: {
    PAWL_SERVE_WEBHOOK_SECRET: "webhook-secret-for-tests",
    PAWL_SERVE_DATA_DIR: ${JSON.stringify(`${dir}/data`)},
  },
});
const server = await startServe(config, {
  judge: () => Promise.reject(new Error("not in this test")),
  publish: () => Promise.resolve(),
  announce: () => Promise.resolve(),
});
await server.shutdown();
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-check",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        `${dir}/serve.ts`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.equal(new TextDecoder().decode(output.stdout), "");
    assert.deepEqual(
      stderr.trimEnd().split("\n").map((line) => JSON.parse(line).event),
      ["serve.started", "serve.stopping", "serve.stopped"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startServe() logs a queue connection the database ended, and goes on with a new one", async () => {
  await using pg = await startTestPostgres();
  const dir = await Deno.makeTempDir({ prefix: "pawl-start-serve-" });
  const lines: string[] = [];
  try {
    const server = await startOnQueue(pg.url, dir, (line) => lines.push(line));
    const admin = new pgClient.Client({ connectionString: pg.url });
    await admin.connect();
    try {
      assert.ok(await server.queue.ping());
      // Every connection of the server's, idle in its pool, ended at once.
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      const ended = await waitFor(
        "the ended connection in the log",
        () => eventNamed(lines, "queue.connection_error"),
      );
      assert.match(String(ended.error), /terminat/i);
      // A connection whose end is still on its way may fail one more ping.
      await waitFor(
        "the queue to come back",
        async () => (await server.queue.ping()) || undefined,
      );
    } finally {
      await admin.end();
      await server.shutdown();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
