import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { sendWebhook } from "../../tests/_fake_github.ts";
import { startTestPostgres } from "../../tests/_postgres.ts";
import { resolveServeConfig } from "./serve_config.ts";
import { startServe } from "./start_serve.ts";

const PASSWORD = " queue p@ss:word/1 ";

/** Deliver the opening of pull request 7 of octo/widgets to the server on `port`. */
function openPullRequest(port: number) {
  return sendWebhook(
    `http://127.0.0.1:${port}/webhook`,
    {
      action: "opened",
      number: 7,
      "pull_request": {
        number: 7,
        state: "open",
        "updated_at": "2026-11-30T11:00:00Z",
        base: { sha: "a".repeat(40), ref: "main" },
        head: { sha: "b".repeat(40), ref: "feature" },
      },
      repository: { "full_name": "octo/widgets", "clone_url": "file:///x" },
    },
    { secret: "webhook-secret-for-tests", event: "pull_request" },
  );
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
      judge: () => Promise.reject(new Error("not in this test")),
      publish: () => Promise.resolve(),
      write: (line) => lines.push(line),
    });
    return { server, lines };
  };
  try {
    await assert.rejects(start("wrong"), /password authentication failed/);
    // Spaces are the password's own; a Windows line end is not.
    await assert.rejects(
      start(PASSWORD.trim()),
      /password authentication failed/,
    );
    const { server, lines } = await start(PASSWORD, "\r\n");
    try {
      const ready = await fetch(`http://127.0.0.1:${server.port}/readyz`);
      assert.equal(ready.status, 200, await ready.text());
      assert.ok(await server.queue.ping());
    } finally {
      await server.shutdown();
    }
    assert.ok(lines.some((l) => l.includes('"queue":"postgres"')));
    assert.ok(!lines.join("").includes("p@ss"), lines.join(""));
  } finally {
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
    announce: () => Promise.resolve(),
    write: (line) => lines.push(line),
  });
  try {
    const answer = await openPullRequest(server.port);
    assert.equal(answer.status, 202, answer.body);
    await judging;
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
