import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { sendWebhook } from "../../tests/_fake_github.ts";
import { parsePrometheusText } from "../../tests/_prometheus.ts";
import { createLogger } from "./logger.ts";
import { Metrics } from "./metrics.ts";
import { createServeHandler } from "./serve_handler.ts";
import type { JobQueue } from "./queue.ts";
import { openSqliteQueue } from "./sqlite_queue.ts";

const SECRET = "webhook-secret-for-tests";

function pullEvent(action: string, head = "b") {
  return {
    action,
    number: 7,
    "pull_request": {
      number: 7,
      state: "open",
      "updated_at": "2026-11-30T11:00:00Z",
      base: { sha: "a".repeat(40), ref: "main" },
      head: { sha: head.repeat(40), ref: "feature" },
    },
    repository: { "full_name": "octo/widgets", "clone_url": "file:///x" },
    installation: { id: 42 },
  };
}

async function withServer(
  body: (ctx: {
    url: string;
    metrics: Metrics;
    lines: string[];
    jobs: () => Promise<number>;
    queue: JobQueue;
  }) => Promise<void>,
  options: {
    maxBodyBytes?: number;
    clock?: () => number;
    accepting?: () => boolean;
    onQueued?: () => void;
    ping?: () => Promise<boolean>;
    enqueue?: JobQueue["enqueue"];
    counts?: JobQueue["counts"];
  } = {},
) {
  const dir = await Deno.makeTempDir({ prefix: "pawl-serve-handler-" });
  const queue = openSqliteQueue(`${dir}/queue.db`);
  const { ping, enqueue, counts, ...handlerOptions } = options;
  const metrics = new Metrics();
  const lines: string[] = [];
  const { log } = createLogger({
    write: (l) => lines.push(l),
    secrets: [SECRET],
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    createServeHandler({
      secret: SECRET,
      queue: {
        ...queue,
        ...(ping === undefined ? {} : { ping }),
        ...(enqueue === undefined ? {} : { enqueue }),
        ...(counts === undefined ? {} : { counts }),
      },
      metrics,
      log,
      clock: () => 1000,
      accepting: () => true,
      ...handlerOptions,
    }),
  );
  try {
    await body({
      url: `http://127.0.0.1:${server.addr.port}`,
      metrics,
      lines,
      jobs: async () => (await queue.list()).length,
      queue,
    });
  } finally {
    await server.shutdown();
    await queue.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("serve handler refuses a bad or missing signature and queues nothing", async () => {
  await withServer(async ({ url, metrics, jobs, lines }) => {
    for (
      const signature of [
        null,
        "sha256=" + "0".repeat(64),
        "sha1=abc",
        "garbage",
      ]
    ) {
      const answer = await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
        secret: SECRET,
        event: "pull_request",
        signature,
      });
      assert.equal(answer.status, 401);
    }
    const forged = await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
      secret: "not-the-secret",
      event: "pull_request",
    });
    assert.equal(forged.status, 401);
    assert.equal(await jobs(), 0);
    assert.equal(
      metrics.value(
        "pawl_serve_webhook_rejections_total",
        'reason="signature"',
      ),
      5,
    );
    assert.ok(lines.every((l) => !l.includes(SECRET)));
  });
});

Deno.test("serve handler checks the signature before parsing the body", async () => {
  await withServer(async ({ url, metrics }) => {
    const answer = await sendWebhook(`${url}/webhook`, "{not json", {
      secret: "wrong",
      event: "pull_request",
    });
    assert.equal(answer.status, 401);
    const signed = await sendWebhook(`${url}/webhook`, "{not json", {
      secret: SECRET,
      event: "pull_request",
    });
    assert.equal(signed.status, 400);
    assert.equal(
      metrics.value("pawl_serve_webhook_rejections_total", 'reason="invalid"'),
      1,
    );
  });
});

Deno.test("serve handler refuses a body over the limit with 413", async () => {
  await withServer(async ({ url, jobs }) => {
    const event = { ...pullEvent("opened"), padding: "x".repeat(5000) };
    const answer = await sendWebhook(`${url}/webhook`, event, {
      secret: SECRET,
      event: "pull_request",
    });
    assert.equal(answer.status, 413);
    assert.equal(await jobs(), 0);
  }, { maxBodyBytes: 4096 });
});

Deno.test("serve handler queues the events it judges once and acknowledges the rest", async (t) => {
  await withServer(async ({ url, jobs }) => {
    const send = (event: string, payload: unknown) =>
      sendWebhook(`${url}/webhook`, payload, { secret: SECRET, event });
    await t.step("pull_request opened is queued", async () => {
      const answer = await send("pull_request", pullEvent("opened"));
      assert.equal(answer.status, 202);
      assert.equal(JSON.parse(answer.body).jobs[0].result, "queued");
    });
    await t.step("its redelivery is a duplicate", async () => {
      const answer = await send("pull_request", pullEvent("opened"));
      assert.equal(JSON.parse(answer.body).jobs[0].result, "duplicate");
    });
    await t.step("events pawl does not judge get 204", async () => {
      for (
        const [event, payload] of [
          ["pull_request", pullEvent("labeled")],
          ["pull_request", pullEvent("closed")],
          ["push", { ref: "refs/heads/main" }],
          ["ping", { zen: "Keep it simple." }],
          ["check_run", { action: "created", check_run: {} }],
        ] as const
      ) {
        assert.equal((await send(event, payload)).status, 204, `${event}`);
      }
    });
    await t.step(
      "check_suite rerequested names its pull requests",
      async () => {
        const answer = await send("check_suite", {
          action: "rerequested",
          "check_suite": {
            "head_sha": "c".repeat(40),
            "updated_at": "2026-11-30T12:00:00Z",
            "pull_requests": [{
              number: 8,
              base: { sha: "a".repeat(40) },
              head: { sha: "c".repeat(40) },
            }],
          },
          repository: { "full_name": "octo/widgets", "clone_url": "file:///x" },
        });
        assert.equal(answer.status, 202);
        assert.equal(JSON.parse(answer.body).jobs[0].result, "queued");
      },
    );
    await t.step("a payload without a clock is refused", async () => {
      const event = pullEvent("synchronize", "d");
      delete (event.pull_request as Record<string, unknown>)["updated_at"];
      assert.equal((await send("pull_request", event)).status, 400);
    });
    assert.equal(await jobs(), 2);
  });
});

Deno.test("serve handler answers the operations endpoints", async () => {
  let now = 1000;
  await withServer(async ({ url }) => {
    assert.equal(await (await fetch(`${url}/healthz`)).text(), "ok\n");
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
      secret: "x",
      event: "pull_request",
    });
    const before = await (await fetch(`${url}/metrics`)).text();
    assert.match(
      before,
      /^pawl_serve_webhook_rejections_total\{reason="signature"\} 1$/m,
    );
    assert.match(before, /^pawl_serve_queue_depth\{state="queued"\} 0$/m);
    assert.match(before, /^pawl_serve_judgement_duration_seconds_count 0$/m);
    await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
      secret: SECRET,
      event: "pull_request",
    });
    now += 90_000;
    const response = await fetch(`${url}/metrics`);
    assert.match(
      response.headers.get("content-type") ?? "",
      /^text\/plain; version=0\.0\.4/,
    );
    const families = parsePrometheusText(await response.text());
    const sample = (name: string, labels: string) =>
      families.get(name)?.samples.find((s) =>
        JSON.stringify(s.labels) === labels
      )?.value;
    assert.equal(sample("pawl_serve_queue_depth", '{"state":"queued"}'), 1);
    assert.equal(
      sample("pawl_serve_queue_oldest_age_seconds", '{"state":"queued"}'),
      90,
    );
    assert.equal(
      sample("pawl_serve_webhook_deliveries_total", '{"result":"queued"}'),
      1,
    );
    assert.equal(
      sample("pawl_serve_webhook_deliveries_total", '{"result":"stale"}'),
      0,
    );
    assert.ok((sample("process_resident_memory_bytes", "{}") ?? 0) > 0);
    assert.equal(families.get("pawl_build_info")?.samples.length, 1);
  }, { clock: () => now });
});

Deno.test("serve handler still answers /metrics when the queue does not, with its gauges unknown", async () => {
  await withServer(async ({ url }) => {
    const response = await fetch(`${url}/metrics`);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /^pawl_serve_queue_depth\{state="queued"\} NaN$/m);
    assert.match(
      text,
      /^pawl_serve_queue_oldest_age_seconds\{state="queued"\} NaN$/m,
    );
    assert.match(text, /^pawl_serve_judgement_duration_seconds_count 0$/m);
  }, {
    counts: () => Promise.reject(new Error("connection refused")),
  });
});

Deno.test("serve handler is ready only while it accepts deliveries and its queue answers", async (t) => {
  for (
    const [name, accepting, ping, status] of [
      ["accepting, with a queue that answers", true, true, 200],
      ["shutting down", false, true, 503],
      ["with a queue that does not answer", true, false, 503],
    ] as const
  ) {
    await t.step(name, async () => {
      await withServer(async ({ url }) => {
        const answer = await fetch(`${url}/readyz`);
        assert.equal(answer.status, status);
        assert.equal(
          await answer.text(),
          status === 200 ? "ready\n" : "not ready\n",
        );
      }, { accepting: () => accepting, ping: () => Promise.resolve(ping) });
    });
  }
});

Deno.test("serve handler takes the webhook at / and at /webhook, and nowhere else", async (t) => {
  await withServer(async ({ url, jobs }) => {
    const send = (path: string, head: string) =>
      sendWebhook(`${url}${path}`, pullEvent("synchronize", head), {
        secret: SECRET,
        event: "pull_request",
      });
    await t.step("a delivery to / is queued", async () => {
      assert.equal((await send("/", "b")).status, 202);
      assert.equal(await jobs(), 1);
    });
    await t.step("a delivery to another path is not found", async () => {
      assert.equal((await send("/hooks", "c")).status, 404);
      assert.equal(await jobs(), 1);
    });
    await t.step("a GET of the webhook is refused with 405", async () => {
      const answer = await fetch(`${url}/webhook`);
      await answer.body?.cancel();
      assert.equal(answer.status, 405);
    });
  });
});

Deno.test("serve handler wakes the workers when a delivery queues or requeues a job, and only then", async () => {
  let woken = 0;
  await withServer(async ({ url, queue }) => {
    const rerun = {
      action: "rerequested",
      "check_suite": {
        "head_sha": "b".repeat(40),
        "updated_at": "2026-11-30T11:00:00Z",
        "pull_requests": [{
          number: 7,
          base: { sha: "a".repeat(40) },
          head: { sha: "b".repeat(40) },
        }],
      },
      repository: { "full_name": "octo/widgets", "clone_url": "file:///x" },
    };
    const send = (event: string, payload: unknown) =>
      sendWebhook(`${url}/webhook`, payload, { secret: SECRET, event });
    await send("pull_request", pullEvent("opened"));
    assert.equal(woken, 1);
    await send("pull_request", pullEvent("opened"));
    assert.equal(woken, 1, "a duplicate wakes nobody");
    const job = await queue.claim("w1", { now: 1000, leaseMs: 1000 });
    await queue.recordOutcome(job!.id, "w1", {
      kind: "undecided",
      reason: "Cannot clone",
      headSha: "b".repeat(40),
    }, { now: 1000, leaseMs: 1000 });
    await queue.markPublished(job!.id, "w1");
    const answer = await send("check_suite", rerun);
    assert.equal(JSON.parse(answer.body).jobs[0].result, "requeued");
    assert.equal(woken, 2);
  }, { onQueued: () => woken++ });
});

/** POST `body` to the webhook, signed with the test secret. */
async function postSigned(
  url: string,
  body:
    | Uint8Array<ArrayBuffer>
    | ReadableStream<Uint8Array<ArrayBuffer>>
    | null,
  signed: Uint8Array,
): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "x-github-event": "pull_request",
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": `sha256=${
        createHmac("sha256", SECRET).update(signed).digest("hex")
      }`,
    },
    body,
  });
  return { status: response.status, body: await response.text() };
}

Deno.test("serve handler answers the operations endpoints only to GET, and the webhook only to POST", async (t) => {
  await withServer(async ({ url }) => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      await t.step(`POST ${path} is not found`, async () => {
        const answer = await fetch(`${url}${path}`, { method: "POST" });
        await answer.body?.cancel();
        assert.equal(answer.status, 404);
      });
    }
    await t.step("PUT /webhook is refused with 405", async () => {
      const answer = await fetch(`${url}/webhook`, {
        method: "PUT",
        body: "{}",
      });
      await answer.body?.cancel();
      assert.equal(answer.status, 405);
    });
  });
});

Deno.test("serve handler refuses deliveries with 503 while shutting down", async () => {
  await withServer(async ({ url, jobs, metrics }) => {
    const answer = await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
      secret: SECRET,
      event: "pull_request",
    });
    assert.deepEqual(answer, { status: 503, body: "shutting down\n" });
    assert.equal(await jobs(), 0);
    assert.equal(
      metrics.value(
        "pawl_serve_webhook_rejections_total",
        'reason="unavailable"',
      ),
      1,
    );
  }, { accepting: () => false });
});

Deno.test("serve handler asks for a redelivery with 503 when the queue fails", async () => {
  await withServer(async ({ url, metrics }) => {
    const answer = await sendWebhook(`${url}/webhook`, pullEvent("opened"), {
      secret: SECRET,
      event: "pull_request",
    });
    assert.deepEqual(answer, {
      status: 503,
      body: "the queue is unavailable; redeliver later\n",
    });
    assert.equal(
      metrics.value(
        "pawl_serve_webhook_rejections_total",
        'reason="unavailable"',
      ),
      1,
    );
  }, { enqueue: () => Promise.reject(new Error("connection refused")) });
});

Deno.test("serve handler refuses a signed body that is not UTF-8 as not JSON", async () => {
  await withServer(async ({ url, jobs }) => {
    const json = new TextEncoder().encode(JSON.stringify(pullEvent("opened")));
    // An invalid byte inside a string value: lenient decoding would take it.
    const at = new TextDecoder().decode(json).indexOf("feature") + 1;
    const body = json.slice();
    body[at] = 0xff;
    const answer = await postSigned(`${url}/webhook`, body, body);
    assert.deepEqual(answer, { status: 400, body: "the body is not JSON\n" });
    assert.equal(await jobs(), 0);
  });
});

Deno.test("serve handler reads a delivery with no body as not JSON", async () => {
  const { log } = createLogger({ write: () => {} });
  const handler = createServeHandler({
    secret: SECRET,
    queue: {} as JobQueue,
    metrics: new Metrics(),
    log,
    clock: () => 1000,
    accepting: () => true,
  });
  const request = new Request("http://127.0.0.1/webhook", {
    method: "POST",
    headers: {
      "x-github-event": "pull_request",
      "x-hub-signature-256": `sha256=${
        createHmac("sha256", SECRET).update("").digest("hex")
      }`,
    },
  });
  assert.equal(request.body, null);
  const answer = await handler(request);
  assert.equal(answer.status, 400);
  assert.equal(await answer.text(), "the body is not JSON\n");
});

Deno.test("serve handler takes a body of exactly the limit, declared or streamed, and refuses one byte more", async (t) => {
  const max = 4096;
  const event = pullEvent("opened");
  const base = JSON.stringify({ ...event, padding: "" });
  const sized = (n: number) =>
    new TextEncoder().encode(
      JSON.stringify({ ...event, padding: "x".repeat(n - base.length) }),
    );
  const streamed = (bytes: Uint8Array<ArrayBuffer>) =>
    new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1000) {
          controller.enqueue(bytes.slice(i, i + 1000));
        }
        controller.close();
      },
    });
  for (const [size, status] of [[max, 202], [max + 1, 413]] as const) {
    for (const how of ["declared", "streamed"] as const) {
      await t.step(`${size} bytes ${how}: ${status}`, async () => {
        await withServer(async ({ url }) => {
          const bytes = sized(size);
          assert.equal(bytes.length, size);
          const answer = await postSigned(
            `${url}/webhook`,
            how === "declared" ? bytes : streamed(bytes),
            bytes,
          );
          assert.equal(answer.status, status);
        }, { maxBodyBytes: max });
      });
    }
  }
  // Without a limit of its own, 25 MiB (the default docs/serve.md gives).
  for (const [size, status] of [[25 << 20, 202], [(25 << 20) + 1, 413]]) {
    await t.step(
      `${size} bytes under the default limit: ${status}`,
      async () => {
        await withServer(async ({ url }) => {
          const bytes = sized(size!);
          const answer = await postSigned(`${url}/webhook`, bytes, bytes);
          assert.equal(answer.status, status);
        });
      },
    );
  }
});

Deno.test("serve handler logs which jobs a delivery superseded, and only when it did", async () => {
  await withServer(async ({ url, lines }) => {
    const send = (head: string) =>
      sendWebhook(`${url}/webhook`, pullEvent("synchronize", head), {
        secret: SECRET,
        event: "pull_request",
      });
    await send("b");
    await send("c");
    const accepted = lines.map((l) => JSON.parse(l)).filter((e) =>
      e.event === "webhook.accepted"
    );
    assert.equal(accepted.length, 2);
    assert.equal("superseded" in accepted[0], false);
    assert.deepEqual(accepted[1].superseded, [
      `octo/widgets#7@${"a".repeat(40)}..${"b".repeat(40)}`,
    ]);
  });
});

Deno.test("serve handler wakes the workers when any job of a delivery was queued", async () => {
  let woken = 0;
  await withServer(async ({ url }) => {
    const send = (event: string, payload: unknown) =>
      sendWebhook(`${url}/webhook`, payload, { secret: SECRET, event });
    await send("pull_request", pullEvent("opened"));
    assert.equal(woken, 1);
    const pull = (number: number) => ({
      number,
      base: { sha: "a".repeat(40) },
      head: { sha: "b".repeat(40) },
    });
    const answer = await send("check_suite", {
      action: "rerequested",
      "check_suite": {
        "head_sha": "b".repeat(40),
        "updated_at": "2026-11-30T11:00:00Z",
        "pull_requests": [pull(7), pull(9)],
      },
      repository: { "full_name": "octo/widgets", "clone_url": "file:///x" },
    });
    assert.deepEqual(
      JSON.parse(answer.body).jobs.map((j: { result: string }) => j.result),
      ["duplicate", "queued"],
    );
    assert.equal(woken, 2);
  }, { onQueued: () => woken++ });
});

/** An answer of the handler, with its content type. */
interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: await response.text(),
  };
}

/** POST `payload` signed with `secret`, with only the GitHub headers given. */
async function deliver(
  url: string,
  payload: unknown,
  headers: { event?: string; delivery?: string; secret?: string },
): Promise<Answer> {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const signature = createHmac("sha256", headers.secret ?? SECRET)
    .update(body).digest("hex");
  return await answerOf(
    await fetch(`${url}/webhook`, {
      method: "POST",
      headers: {
        "x-hub-signature-256": `sha256=${signature}`,
        ...(headers.event === undefined
          ? {}
          : { "x-github-event": headers.event }),
        ...(headers.delivery === undefined
          ? {}
          : { "x-github-delivery": headers.delivery }),
      },
      body,
    }),
  );
}

Deno.test("serve handler answers, counts and logs each kind of request", async (t) => {
  const TEXT = "text/plain; charset=utf-8";
  const delivery = "72d3162e-cc78-11e3-81ab-4c9367dc0958";
  const job = `octo/widgets#7@${"a".repeat(40)}..${"b".repeat(40)}`;
  const pull = { event: "pull_request", delivery };
  const cases: {
    name: string;
    send: (url: string) => Promise<Answer>;
    options?: Parameters<typeof withServer>[1];
    answer: Answer;
    counted?: [name: string, labels: string];
    logged: Record<string, unknown>[];
  }[] = [
    {
      name: "a request for another path is not found",
      send: async (url) => answerOf(await fetch(`${url}/hooks`)),
      answer: { status: 404, contentType: TEXT, body: "not found\n" },
      logged: [],
    },
    {
      name: "a GET of the webhook is refused as a wrong method",
      send: async (url) => answerOf(await fetch(`${url}/webhook`)),
      answer: {
        status: 405,
        contentType: TEXT,
        body: "POST the webhook here\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="method"'],
      logged: [],
    },
    {
      name: "a body over the limit is refused as too large",
      send: (url) =>
        deliver(
          url,
          { ...pullEvent("opened"), padding: "x".repeat(5000) },
          pull,
        ),
      options: { maxBodyBytes: 4096 },
      answer: {
        status: 413,
        contentType: TEXT,
        body: "body larger than 4096 bytes\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="too_large"'],
      logged: [{
        event: "webhook.refused",
        delivery,
        githubEvent: "pull_request",
        reason: "too_large",
        maxBytes: 4096,
      }],
    },
    {
      name: "a forged signature is refused",
      send: (url) =>
        deliver(url, pullEvent("opened"), { ...pull, secret: "forged" }),
      answer: {
        status: 401,
        contentType: TEXT,
        body: "bad or missing X-Hub-Signature-256\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="signature"'],
      logged: [{
        event: "webhook.refused",
        delivery,
        githubEvent: "pull_request",
        reason: "signature",
      }],
    },
    {
      name: "a body that is not JSON is refused as invalid",
      send: (url) => deliver(url, "{not json", pull),
      answer: {
        status: 400,
        contentType: TEXT,
        body: "the body is not JSON\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="invalid"'],
      logged: [{
        event: "webhook.refused",
        delivery,
        githubEvent: "pull_request",
        reason: "invalid",
        detail: "not JSON",
      }],
    },
    {
      name: "a payload pawl cannot read is refused as invalid, saying why",
      send: (url) => deliver(url, [], pull),
      answer: {
        status: 400,
        contentType: TEXT,
        body: "the payload is not a JSON object\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="invalid"'],
      logged: [{
        event: "webhook.refused",
        delivery,
        githubEvent: "pull_request",
        reason: "invalid",
        detail: "the payload is not a JSON object",
      }],
    },
    {
      name: "an event pawl does not judge is ignored",
      send: (url) =>
        deliver(url, { ref: "refs/heads/main" }, { event: "push", delivery }),
      answer: { status: 204, contentType: null, body: "" },
      counted: ["pawl_serve_webhook_deliveries_total", 'result="ignored"'],
      logged: [{
        event: "webhook.ignored",
        delivery,
        githubEvent: "push",
        reason: "push is not judged",
      }],
    },
    {
      name:
        "a delivery without GitHub's headers is ignored, logged with both empty",
      send: (url) => deliver(url, { zen: "Keep it simple." }, {}),
      answer: { status: 204, contentType: null, body: "" },
      counted: ["pawl_serve_webhook_deliveries_total", 'result="ignored"'],
      logged: [{
        event: "webhook.ignored",
        delivery: "",
        githubEvent: "",
        reason: " is not judged",
      }],
    },
    {
      name: "a pull request to judge is queued, answered in JSON",
      send: (url) => deliver(url, pullEvent("opened"), pull),
      answer: {
        status: 202,
        contentType: "application/json",
        body: `{"jobs":[{"job":"${job}","result":"queued"}]}\n`,
      },
      counted: ["pawl_serve_webhook_deliveries_total", 'result="queued"'],
      logged: [{
        event: "webhook.accepted",
        delivery,
        githubEvent: "pull_request.opened",
        job,
        result: "queued",
      }],
    },
    {
      name: "a queue that fails is logged with its error",
      send: (url) => deliver(url, pullEvent("opened"), pull),
      options: {
        enqueue: () => Promise.reject(new Error("connection refused")),
      },
      answer: {
        status: 503,
        contentType: TEXT,
        body: "the queue is unavailable; redeliver later\n",
      },
      counted: ["pawl_serve_webhook_rejections_total", 'reason="unavailable"'],
      logged: [{
        event: "webhook.failed",
        delivery,
        githubEvent: "pull_request",
        error: "connection refused",
      }],
    },
  ];
  for (const { name, send, options, answer, counted, logged } of cases) {
    await t.step(name, async () => {
      await withServer(async ({ url, metrics, lines }) => {
        assert.deepEqual(await send(url), answer);
        if (counted !== undefined) assert.equal(metrics.value(...counted), 1);
        assert.deepEqual(
          lines.map((l) => {
            const { time: _, ...event } = JSON.parse(l);
            return event;
          }),
          logged,
        );
      }, options);
    });
  }
});

Deno.test("serve handler refuses a body declared over the limit without reading it", async (t) => {
  const { log } = createLogger({ write: () => {} });
  const handler = createServeHandler({
    secret: SECRET,
    queue: {} as JobQueue,
    maxBodyBytes: 4096,
    metrics: new Metrics(),
    log,
    clock: () => 1000,
    accepting: () => true,
  });
  const payload = new TextEncoder().encode(JSON.stringify(pullEvent("opened")));
  const headers = {
    "content-length": "4097",
    "x-github-event": "pull_request",
    "x-hub-signature-256": `sha256=${
      createHmac("sha256", SECRET).update(payload).digest("hex")
    }`,
  };
  await t.step("its stream is cancelled unread", async () => {
    let reads = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull(controller) {
        reads++;
        controller.enqueue(payload.slice());
        controller.close();
      },
      cancel() {
        cancelled = true;
      },
    }, { highWaterMark: 0 });
    const answer = await handler(
      new Request("http://127.0.0.1/webhook", {
        method: "POST",
        headers,
        body,
      }),
    );
    assert.equal(answer.status, 413);
    await answer.body?.cancel();
    assert.equal(reads, 0);
    assert.equal(cancelled, true);
  });
  await t.step("a request that declares a body and carries none", async () => {
    const answer = await handler(
      new Request("http://127.0.0.1/webhook", { method: "POST", headers }),
    );
    assert.equal(answer.status, 413);
    await answer.body?.cancel();
  });
});
