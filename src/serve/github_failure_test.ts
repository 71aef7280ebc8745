import assert from "node:assert/strict";
import { GitError } from "../git/git_error.ts";
import { TransientError } from "./judge.ts";
import { isTokenRejection, retryAfterMs } from "./github_failure.ts";

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
    [
      "a reset while requests remain is no advice",
      answered(403, {
        "x-ratelimit-remaining": "12",
        "x-ratelimit-reset": String(now / 1000 + 600),
      }),
      undefined,
    ],
    [
      "a reset already past means now",
      answered(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now / 1000 - 5),
      }),
      0,
    ],
    ["Retry-After 0 means now", answered(429, { "retry-after": "0" }), 0],
    ["a 503 without advice", answered(503), undefined],
    ["no answer at all", new Error("connection refused"), undefined],
    [
      "a negative Retry-After is no advice",
      answered(429, { "retry-after": "-5" }),
      undefined,
    ],
    [
      "an endless Retry-After is no advice",
      answered(429, { "retry-after": "Infinity" }),
      undefined,
    ],
    [
      "a rate limit whose reset is 0 is no advice",
      answered(403, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": "0",
      }),
      undefined,
    ],
    [
      "headers without a status are no HTTP answer",
      Object.assign(new Error("odd"), {
        response: { headers: { "retry-after": "5" } },
      }),
      undefined,
    ],
    [
      "an answer whose headers are null",
      Object.assign(new Error("odd"), {
        status: 429,
        response: { headers: null },
      }),
      undefined,
    ],
  ];
  for (const [name, error, expected] of cases) {
    await t.step(name, () => assert.equal(retryAfterMs(error, now), expected));
  }
});

Deno.test("a failure's causes are read whatever was thrown, eight deep at most, and a cause that loops back ends", async (t) => {
  const deep = (depth: number) => {
    let error: Error = Object.assign(new Error("401"), {
      status: 401,
      response: { headers: { "retry-after": "7" } },
    });
    for (let i = 1; i < depth; i++) {
      error = new Error(`wrapped ${i}`, { cause: error });
    }
    return error;
  };
  const loop = new Error("outer");
  loop.cause = new Error("inner", { cause: loop });
  const cases: [string, unknown, number | undefined, boolean][] = [
    ["the answer eight deep", deep(8), 7000, true],
    ["the answer nine deep", deep(9), undefined, false],
    ["a cause that loops back", loop, undefined, false],
    ["a thrown string", "boom", undefined, false],
    ["a thrown null", null, undefined, false],
    ["nothing thrown", undefined, undefined, false],
    [
      "an error whose cause is a string",
      new Error("outer", { cause: "boom" }),
      undefined,
      false,
    ],
  ];
  for (const [name, error, after, rejected] of cases) {
    await t.step(name, () => {
      assert.equal(retryAfterMs(error, 0), after);
      assert.equal(isTokenRejection(error), rejected);
    });
  }
});

Deno.test("isTokenRejection() knows a 401 and git's authentication failures, not an outage", async (t) => {
  const git = (stderr: string) =>
    new TransientError("Cannot clone", {
      cause: new GitError('Cannot clone "https://github.com/o/r"', { stderr }),
    });
  const cases: [string, unknown, boolean][] = [
    ["API 401", answered(401), true],
    [
      "git without credentials it accepts",
      git(
        "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
      ),
      true,
    ],
    [
      "git refused",
      git(
        "remote: Invalid username or password.\nfatal: Authentication failed",
      ),
      true,
    ],
    ["API 503", answered(503), false],
    [
      "git 503",
      git("fatal: unable to access: The requested URL returned error: 503"),
      false,
    ],
    ["another error", new Error("Cannot decide: no contract"), false],
  ];
  for (const [name, error, expected] of cases) {
    await t.step(name, () => assert.equal(isTokenRejection(error), expected));
  }
});
