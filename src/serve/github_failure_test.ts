import assert from "node:assert/strict";
import { TransientError } from "./judge.ts";
import { retryAfterMs } from "./github_failure.ts";

/** An error shaped like octokit's for an HTTP answer, wrapped as pawl wraps it. */
function answered(status: number, headers: Record<string, string> = {}) {
  const http = Object.assign(new Error(`GitHub answered ${status}`), {
    status,
    response: { headers },
  });
  return new TransientError("Cannot publish", { cause: http });
}

Deno.test("retryAfterMs() reads GitHub's Retry-After and a rate limit's reset, and nothing else", async (t) => {
  const now = 1_000_000_000;
  const cases: [string, unknown, number | undefined][] = [
    ["Retry-After", answered(403, { "retry-after": "60" }), 60_000],
    [
      "primary rate limit",
      answered(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now / 1000 + 600),
      }),
      600_000,
    ],
    ["a 503 without advice", answered(503), undefined],
    ["no answer at all", new Error("connection refused"), undefined],
  ];
  for (const [name, error, expected] of cases) {
    await t.step(name, () => assert.equal(retryAfterMs(error, now), expected));
  }
});
