/**
 * The HTTP side of `pawl serve`: the GitHub webhook (signature first,
 * then a bounded body, then the payload) and the operations endpoints
 * `/healthz`, `/readyz` and `/metrics`.
 *
 * @module
 */
import type { Log } from "./logger.ts";
import type { Metrics, QueueSnapshot } from "./metrics.ts";
import { parseDelivery } from "./parse_delivery.ts";
import { readProcessStats } from "./process_stats.ts";
import type { JobQueue } from "./queue.ts";
import { verifySignature } from "./verify_signature.ts";

/** Default largest webhook body (GitHub caps payloads at 25 MB). */
export const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024;

/** Options for {@linkcode createServeHandler}. */
export interface ServeHandlerOptions {
  /** The webhook secret. */
  secret: string;
  /** Where jobs go. */
  queue: JobQueue;
  /** Largest body accepted (413 beyond). */
  maxBodyBytes?: number;
  /** Counters. */
  metrics: Metrics;
  /** Structured log. */
  log: Log;
  /** The server's clock, epoch ms (queue bookkeeping only). */
  clock: () => number;
  /** Told after a job was queued (wakes idle workers). */
  onQueued?: () => void;
  /** False once shutting down: no new deliveries, not ready. */
  accepting: () => boolean;
}

/** Build the request handler. */
export function createServeHandler(
  options: ServeHandlerOptions,
): (request: Request) => Promise<Response> {
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { metrics, log } = options;
  return async (request) => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/healthz") {
      return text(200, "ok\n");
    }
    if (request.method === "GET" && url.pathname === "/readyz") {
      const ready = options.accepting() && await options.queue.ping();
      return text(ready ? 200 : 503, ready ? "ready\n" : "not ready\n");
    }
    if (request.method === "GET" && url.pathname === "/metrics") {
      const [queue, own] = await Promise.all([
        queueSnapshot(options.queue, options.clock()),
        readProcessStats(),
      ]);
      return new Response(metrics.render({ queue, process: own }), {
        headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
      });
    }
    if (url.pathname !== "/" && url.pathname !== "/webhook") {
      return text(404, "not found\n");
    }
    if (request.method !== "POST") {
      metrics.rejection("method");
      return text(405, "POST the webhook here\n");
    }
    return await webhook(request);
  };

  async function webhook(request: Request): Promise<Response> {
    const delivery = request.headers.get("x-github-delivery") ?? "";
    const event = request.headers.get("x-github-event") ?? "";
    if (!options.accepting()) {
      metrics.rejection("unavailable");
      return text(503, "shutting down\n");
    }
    const body = await readBounded(request, max);
    if (body === undefined) {
      metrics.rejection("too_large");
      log("webhook.refused", {
        delivery,
        githubEvent: event,
        reason: "too_large",
        maxBytes: max,
      });
      return text(413, `body larger than ${max} bytes\n`);
    }
    if (
      !verifySignature(
        options.secret,
        body,
        request.headers.get("x-hub-signature-256"),
      )
    ) {
      metrics.rejection("signature");
      log("webhook.refused", {
        delivery,
        githubEvent: event,
        reason: "signature",
      });
      return text(401, "bad or missing X-Hub-Signature-256\n");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(
        new TextDecoder("utf-8", { fatal: true }).decode(body),
      );
    } catch {
      metrics.rejection("invalid");
      log("webhook.refused", {
        delivery,
        githubEvent: event,
        reason: "invalid",
        detail: "not JSON",
      });
      return text(400, "the body is not JSON\n");
    }
    const parsed = parseDelivery(event, delivery, payload);
    if (parsed.kind === "ignored") {
      metrics.delivery("ignored");
      log("webhook.ignored", {
        delivery,
        githubEvent: event,
        reason: parsed.reason,
      });
      return new Response(null, { status: 204 });
    }
    if (parsed.kind === "invalid") {
      metrics.rejection("invalid");
      log("webhook.refused", {
        delivery,
        githubEvent: event,
        reason: "invalid",
        detail: parsed.reason,
      });
      return text(400, `${parsed.reason}\n`);
    }
    const results = [];
    try {
      for (const job of parsed.jobs) {
        const result = await options.queue.enqueue(job, {
          now: options.clock(),
          rerequest: parsed.rerequest,
        });
        metrics.delivery(result.status);
        log("webhook.accepted", {
          delivery,
          githubEvent: job.event,
          job: result.id,
          result: result.status,
          ...(result.superseded.length === 0
            ? {}
            : { superseded: result.superseded }),
        });
        results.push({ job: result.id, result: result.status });
      }
    } catch (error) {
      metrics.rejection("unavailable");
      log("webhook.failed", {
        delivery,
        githubEvent: event,
        error: error instanceof Error ? error.message : String(error),
      });
      return text(503, "the queue is unavailable; redeliver later\n");
    }
    if (results.some((r) => r.result === "queued" || r.result === "requeued")) {
      options.onQueued?.();
    }
    return new Response(JSON.stringify({ jobs: results }) + "\n", {
      status: 202,
      headers: { "content-type": "application/json" },
    });
  }
}

/** The body, or undefined when it is longer than `max` bytes. */
async function readBounded(
  request: Request,
  max: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await request.body?.cancel().catch(() => {});
    return undefined;
  }
  if (request.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

function text(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

/** The queue's gauges at `now`, or undefined when it does not answer. */
async function queueSnapshot(
  queue: JobQueue,
  now: number,
): Promise<QueueSnapshot | undefined> {
  // Stryker disable BlockStatement: an empty catch block falls off the function's end, which returns undefined all the same
  try {
    const [depth, oldest] = await Promise.all([
      queue.counts(),
      queue.oldestQueuedAt(),
    ]);
    const oldestAgeSeconds = Object.fromEntries(
      Object.entries(oldest).map(([state, at]) => [state, (now - at) / 1000]),
    );
    return { depth, oldestAgeSeconds };
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
}
