import assert from "node:assert/strict";
import { createGitHubClient, GitHubApiError } from "./github_client.ts";

const REPO = { owner: "o", repo: "r" };
const RUN = {
  name: "pawl",
  headSha: "b".repeat(40),
  conclusion: "success" as const,
  output: { title: "t", summary: "s", annotations: [] },
};

/** A local server answering with `answer`, recording each request. */
function stub(
  answer: (request: Request, n: number) => Response | Promise<Response>,
) {
  const seen: {
    method: string;
    url: string;
    auth: string | null;
    at: number;
  }[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, (request) => {
    seen.push({
      method: request.method,
      url: request.url,
      auth: request.headers.get("authorization"),
      at: Date.now(),
    });
    return answer(request, seen.length);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

Deno.test("createGitHubClient() retries 5xx with backoff and sends the token", async () => {
  await using server = stub((_, n) =>
    n <= 2
      ? json(502, { message: "Bad Gateway" })
      : json(201, { id: 5, "html_url": "https://x/5" })
  );
  const github = createGitHubClient({
    token: "tok",
    apiUrl: server.url,
    retryBaseMs: 1,
  });
  assert.deepEqual(await github.createCheckRun(REPO, RUN), {
    id: 5,
    htmlUrl: "https://x/5",
  });
  assert.equal(server.seen.length, 3);
  assert.ok(server.seen.every((s) => s.auth === "token tok"));
  assert.ok(server.seen.every((s) => s.url.endsWith("/repos/o/r/check-runs")));
});

Deno.test("createGitHubClient() writes nothing of its own to the console, even when GitHub says an endpoint is deprecated or a request fails", async () => {
  await using server = stub((_, n) =>
    n === 1
      ? json(201, { id: 5, "html_url": "https://x/5" }, {
        deprecation: "Sat, 01 Jan 2028 00:00:00 GMT",
        sunset: "Sun, 01 Jan 2029 00:00:00 GMT",
        link: '<https://docs.example/deprecated>; rel="deprecation"',
      })
      : json(422, { message: "Validation Failed" })
  );
  const github = createGitHubClient({
    token: "tok",
    apiUrl: server.url,
    retryBaseMs: 1,
  });
  const written: unknown[][] = [];
  const saved = { ...console };
  for (const level of ["log", "debug", "info", "warn", "error"] as const) {
    // deno-lint-ignore no-console -- the test watches what reaches the console
    console[level] = (...args: unknown[]) => written.push(args);
  }
  try {
    assert.equal((await github.createCheckRun(REPO, RUN)).id, 5);
    await assert.rejects(github.createCheckRun(REPO, RUN), GitHubApiError);
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(written, []);
});

Deno.test("createGitHubClient() says before each retry what failed and in how long it retries", async (t) => {
  await t.step("a 502 twice, then an answer", async () => {
    const waits: string[] = [];
    await using server = stub((_, n) =>
      n <= 2 ? json(502, { message: "Bad Gateway" }) : json(201, { id: 5 })
    );
    const github = createGitHubClient({
      apiUrl: server.url,
      retryBaseMs: 1,
      onWait: (m) => waits.push(m),
    });
    await github.createCheckRun(REPO, RUN);
    assert.deepEqual(waits, [
      "GitHub answered 502 to POST /repos/o/r/check-runs: retry 1 of 3 in 1 ms",
      "GitHub answered 502 to POST /repos/o/r/check-runs: retry 2 of 3 in 4 ms",
    ]);
  });
  await t.step("a 502 for good: every retry, then the error", async () => {
    const waits: string[] = [];
    await using server = stub(() => json(502, { message: "Bad Gateway" }));
    const github = createGitHubClient({
      apiUrl: server.url,
      retryBaseMs: 1,
      onWait: (m) => waits.push(m),
    });
    await assert.rejects(github.createCheckRun(REPO, RUN), GitHubApiError);
    assert.deepEqual(waits.map((w) => w.replace(/.*: /, "")), [
      "retry 1 of 3 in 1 ms",
      "retry 2 of 3 in 4 ms",
      "retry 3 of 3 in 9 ms",
    ]);
  });
  await t.step("a 404 is not retried, so nothing is said", async () => {
    const waits: string[] = [];
    await using server = stub(() => json(404, { message: "Not Found" }));
    const github = createGitHubClient({
      apiUrl: server.url,
      retryBaseMs: 1,
      onWait: (m) => waits.push(m),
    });
    await assert.rejects(github.createCheckRun(REPO, RUN), GitHubApiError);
    assert.deepEqual(waits, []);
    assert.equal(server.seen.length, 1);
  });
});

Deno.test("createGitHubClient() waits out a rate limit and gives up on one too far away", async (t) => {
  await t.step("a reset in a second is waited for", async () => {
    const waits: string[] = [];
    await using server = stub((_, n) =>
      n === 1
        ? json(403, { message: "API rate limit exceeded" }, {
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 1),
        })
        : json(201, {})
    );
    const github = createGitHubClient({
      apiUrl: server.url,
      retryBaseMs: 1,
      onWait: (m) => waits.push(m),
    });
    await github.createStatus(REPO, "b".repeat(40), {
      state: "success",
      context: "pawl",
      description: "d",
    });
    assert.equal(server.seen.length, 2);
    assert.equal(server.seen[0]!.auth, null, "anonymous without a token");
    assert.match(
      waits[0] ?? "",
      /^GitHub rate limit reached for POST .*: retrying in \d+ s$/,
    );
  });
  await t.step("a reset in an hour is not", async () => {
    await using server = stub(() =>
      json(403, { message: "API rate limit exceeded" }, {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
      })
    );
    const github = createGitHubClient({ apiUrl: server.url, retryBaseMs: 1 });
    await assert.rejects(
      github.createStatus(REPO, "b".repeat(40), {
        state: "success",
        context: "pawl",
        description: "d",
      }),
      /Cannot set the commit status on "o\/r" bbbbbbbbbbbb: GitHub answered 403 \("API rate limit exceeded"\): the rate limit is exhausted until \d{4}-/,
    );
    assert.equal(server.seen.length, 1);
  });
});

Deno.test("createGitHubClient() names the missing permission", async (t) => {
  let status = 0;
  await using server = stub(() =>
    json(status, {
      message: status === 401
        ? "Bad credentials"
        : status === 404
        ? "Not Found"
        : "Resource not accessible by integration",
    })
  );
  const github = createGitHubClient({
    token: "s3cret",
    apiUrl: server.url,
    retryBaseMs: 1,
  });
  const calls: [string, string, RegExp, () => Promise<unknown>][] = [
    [
      "a check run",
      '"checks: write"',
      /^Cannot create the check run on "o\/r": /,
      () => github.createCheckRun(REPO, RUN),
    ],
    [
      "a check run update",
      '"checks: write"',
      /^Cannot update check run 9 on "o\/r": /,
      () => github.updateCheckRun(REPO, 9, RUN.output),
    ],
    [
      "a status",
      '"statuses: write"',
      /^Cannot set the commit status on "o\/r" b{12}: /,
      () =>
        github.createStatus(REPO, "b".repeat(40), {
          state: "error",
          context: "pawl",
          description: "d",
        }),
    ],
    [
      "a comment",
      '"pull-requests: write" (or "issues: write")',
      /^Cannot comment on "o\/r#7": /,
      () => github.createIssueComment(REPO, 7, "body"),
    ],
    [
      "a comment update",
      '"pull-requests: write" (or "issues: write")',
      /^Cannot update comment 3 on "o\/r": /,
      () => github.updateIssueComment(REPO, 3, "body"),
    ],
    [
      "the comment list",
      '"pull-requests: read" (or "issues: read")',
      /^Cannot list the comments of "o\/r#7": /,
      () => github.listIssueComments(REPO, 7),
    ],
    [
      "the pull request",
      '"pull-requests: read" (or "contents: read")',
      /^Cannot read pull request "o\/r#7": /,
      () => github.getPullRequest({ ...REPO, number: 7 }),
    ],
  ];
  for (const code of [401, 403, 404]) {
    for (const [name, permission, what, call] of calls) {
      await t.step(`${code} on ${name}`, async () => {
        status = code;
        const before = server.seen.length;
        await assert.rejects(call(), (error) => {
          assert.ok(error instanceof GitHubApiError);
          assert.equal(error.status, code);
          assert.equal(error.permission, permission);
          assert.match(error.message, what);
          if (code === 401) {
            assert.match(
              error.message,
              /the token \(GITHUB_TOKEN\) is missing, expired or invalid$/,
            );
          } else {
            assert.ok(error.message.includes(permission), error.message);
          }
          assert.ok(!error.message.includes("s3cret"));
          return true;
        });
        assert.equal(server.seen.length - before, 1, "not retried");
      });
    }
  }
});

Deno.test("createGitHubClient() reads every page of the comments", async () => {
  await using server = stub((request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get("page") ?? 1);
    const next = new URL(url);
    next.searchParams.set("page", String(page + 1));
    const items = Array.from({ length: page < 3 ? 100 : 7 }, (_, i) => ({
      id: page * 1000 + i,
      body: `c${page}-${i}`,
      user: { login: "someone" },
    }));
    return json(
      200,
      items,
      page < 3 ? { link: `<${next.href}>; rel="next"` } : {},
    );
  });
  const github = createGitHubClient({ apiUrl: server.url, retryBaseMs: 1 });
  const comments = await github.listIssueComments(REPO, 7);
  assert.equal(comments.length, 207);
  assert.deepEqual(comments[206], {
    id: 3006,
    body: "c3-6",
    author: "someone",
  });
  assert.equal(
    new URL(server.seen[0]!.url).searchParams.get("per_page"),
    "100",
  );
});

Deno.test("createGitHubClient() says when GitHub cannot be reached", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const github = createGitHubClient({
    apiUrl: `http://127.0.0.1:${port}`,
    retryBaseMs: 1,
    retries: 1,
  });
  await assert.rejects(
    github.getPullRequest({ ...REPO, number: 7 }),
    /^GitHubApiError: Cannot read pull request "o\/r#7": cannot reach GitHub at "http:\/\/127\.0\.0\.1:\d+": /,
  );
});
