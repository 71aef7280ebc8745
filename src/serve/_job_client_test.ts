import assert from "node:assert/strict";
import { jobClient } from "./_job_client.ts";
import type { JobContext } from "./judge.ts";

/** What the API saw of one request. */
interface Seen {
  path: string;
  authorization: string | null;
}

/** A loopback API root answering every request with `answer`, recording what came in. */
async function withApi(
  answer: (request: Request) => Response | Promise<Response>,
  body: (apiUrl: string, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      seen.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get("authorization"),
      });
      return answer(request);
    },
  );
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

function context(apiUrl: string, token: string | undefined): JobContext {
  return {
    token,
    apiUrl,
    attempt: 1,
    log: {
      info: () => {},
      warn: () => {},
      error: () => {},
    } as unknown as JobContext["log"],
  };
}

const PR = { owner: "o", repo: "r", number: 7 };

Deno.test("jobClient() asks the job's API root, with the job's token when it has one", async (t) => {
  const ok = () => Response.json({ number: 7 });
  await t.step("a token is sent", async () => {
    await withApi(ok, async (apiUrl, seen) => {
      await jobClient(context(apiUrl, "ghs_job")).getPullRequest(PR);
      assert.equal(seen[0]!.path, "/repos/o/r/pulls/7");
      assert.match(seen[0]!.authorization ?? "", /ghs_job/);
    });
  });
  await t.step("no token, no authorization", async () => {
    await withApi(ok, async (apiUrl, seen) => {
      await jobClient(context(apiUrl, undefined)).getPullRequest(PR);
      assert.equal(seen[0]!.authorization, null);
    });
  });
});

Deno.test("jobClient() retries a failed request once, then gives up", async () => {
  await withApi(
    () => new Response("down", { status: 502 }),
    async (apiUrl, seen) => {
      await assert.rejects(() =>
        jobClient(context(apiUrl, "t"), { retryBaseMs: 1 }).getPullRequest(PR)
      );
      assert.equal(seen.length, 2);
    },
  );
});

Deno.test("jobClient() gives a request no longer than its time limit", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  await withApi(
    async () => {
      await held;
      return Response.json({});
    },
    async (apiUrl) => {
      try {
        // Far longer than the limit, far shorter than the 30 s default.
        let guard: ReturnType<typeof setTimeout> | undefined;
        const outcome = await Promise.race([
          jobClient(context(apiUrl, "t"), { retryBaseMs: 1, timeoutMs: 50 })
            .getPullRequest(PR).then(() => "answered", () => "gave up"),
          new Promise<string>((resolve) => {
            guard = setTimeout(() => resolve("still waiting"), 10_000);
          }),
        ]);
        clearTimeout(guard);
        assert.equal(outcome, "gave up");
      } finally {
        release();
      }
    },
  );
});
