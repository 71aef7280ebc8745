import assert from "node:assert/strict";
import { PullRequestDataError, readPullRequest } from "./pull_request.ts";

const PULL = {
  number: 7,
  state: "open",
  "updated_at": "2026-11-30T11:00:00Z",
  "html_url": "https://github.com/o/r/pull/7",
  extra: { anything: true },
  base: {
    ref: "main",
    sha: "a".repeat(40),
    repo: { "full_name": "o/r", "clone_url": "https://github.com/o/r.git" },
  },
  head: { ref: "fix", sha: "b".repeat(40), repo: { "full_name": "O/R" } },
};

Deno.test("readPullRequest() keeps the commit ids and the base clone URL", () => {
  const pr = readPullRequest(PULL, "the API");
  assert.equal(pr.base.sha, "a".repeat(40));
  assert.equal(pr.head.sha, "b".repeat(40));
  assert.equal(pr.base.cloneUrl, "https://github.com/o/r.git");
  assert.equal(pr.fromFork, false, "owner names compare without case");
  assert.equal(pr.htmlUrl, "https://github.com/o/r/pull/7");
  const deleted = readPullRequest({
    ...PULL,
    head: { ...PULL.head, repo: null },
  }, "the API");
  assert.equal(deleted.fromFork, true);
  assert.equal(deleted.head.repo, null);
});

Deno.test("readPullRequest() refuses missing or unsafe fields", async (t) => {
  const cases: [string, unknown, RegExp][] = [
    [
      "a short head sha",
      { ...PULL, head: { ...PULL.head, sha: "abc" } },
      /expected a full commit id at "head.sha"/,
    ],
    ["a remote helper clone URL", {
      ...PULL,
      base: {
        ...PULL.base,
        repo: { "full_name": "o/r", "clone_url": "ext::sh -c x" },
      },
    }, /at "base.repo.clone_url"/],
    ["no base", { ...PULL, base: undefined }, /at "base"/],
    ["not an object", "nope", /Cannot read the pull request from the API: /],
  ];
  for (const [name, value, pattern] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => readPullRequest(value, "the API"),
        (error) =>
          error instanceof PullRequestDataError && pattern.test(error.message),
      );
    });
  }
});
