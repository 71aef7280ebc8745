import assert from "node:assert/strict";
import {
  actionsContext,
  ActionsEventError,
  readActionsEvent,
} from "./read_actions_event.ts";

const PULL = {
  number: 7,
  state: "open",
  "updated_at": "2026-11-30T11:00:00Z",
  base: {
    ref: "main",
    sha: "a".repeat(40),
    repo: {
      "full_name": "octo/widgets",
      "clone_url": "https://github.com/octo/widgets.git",
    },
  },
  head: {
    ref: "fix",
    sha: "b".repeat(40),
    repo: { "full_name": "fork/widgets" },
  },
};
const CONTEXT = { eventPath: "/tmp/event.json", repository: "octo/widgets" };

Deno.test("actionsContext() needs both the event path and the repository", () => {
  assert.equal(actionsContext({}), undefined);
  assert.equal(actionsContext({ GITHUB_EVENT_PATH: "/e.json" }), undefined);
  assert.equal(
    actionsContext({ GITHUB_EVENT_PATH: "", GITHUB_REPOSITORY: "o/r" }),
    undefined,
  );
  assert.deepEqual(
    actionsContext({
      GITHUB_EVENT_PATH: "/e.json",
      GITHUB_REPOSITORY: "o/r",
      GITHUB_EVENT_NAME: "pull_request_target",
    }),
    {
      eventPath: "/e.json",
      repository: "o/r",
      eventName: "pull_request_target",
    },
  );
});

Deno.test("readActionsEvent() reads a pull_request payload", async (t) => {
  await t.step("a complete payload carries the pull request", () => {
    const event = readActionsEvent(
      JSON.stringify({ action: "opened", "pull_request": PULL }),
      { ...CONTEXT, eventName: "pull_request_target" },
    );
    assert.equal(event.eventName, "pull_request_target");
    assert.deepEqual(event.ref, { owner: "octo", repo: "widgets", number: 7 });
    assert.equal(event.pullRequest?.fromFork, true);
    assert.equal(
      event.pullRequest?.base.cloneUrl,
      "https://github.com/octo/widgets.git",
    );
    assert.equal(event.headSha, "b".repeat(40));
    assert.equal(event.baseSha, "a".repeat(40));
    assert.equal(event.updatedAt, "2026-11-30T11:00:00Z");
  });
  await t.step("a partial payload leaves the pull request to the API", () => {
    const event = readActionsEvent(
      JSON.stringify({
        "pull_request": { number: 7, head: { sha: "c".repeat(40) } },
      }),
      CONTEXT,
    );
    assert.equal(event.pullRequest, undefined);
    assert.equal(event.headSha, "c".repeat(40));
    assert.equal(event.updatedAt, undefined);
  });
});

Deno.test("readActionsEvent() refuses what it cannot judge", async (t) => {
  const cases: [string, string, string | undefined, RegExp][] = [
    [
      "a push event",
      JSON.stringify({ "pull_request": PULL }),
      "push",
      /event "push" is not a pull request event/,
    ],
    [
      "bad JSON",
      "{",
      undefined,
      /Cannot read the event payload "\/tmp\/event.json": /,
    ],
    [
      "no pull request",
      JSON.stringify({ action: "opened" }),
      undefined,
      /has no "pull_request.number"/,
    ],
    [
      "a string number",
      JSON.stringify({ "pull_request": { number: "7" } }),
      undefined,
      /has no "pull_request.number"/,
    ],
  ];
  for (const [name, text, eventName, pattern] of cases) {
    await t.step(name, () => {
      assert.throws(
        () =>
          readActionsEvent(
            text,
            eventName === undefined ? CONTEXT : { ...CONTEXT, eventName },
          ),
        (error) =>
          error instanceof ActionsEventError && pattern.test(error.message),
      );
    });
  }
  await t.step("a malformed GITHUB_REPOSITORY", () => {
    assert.throws(
      () => readActionsEvent("{}", { ...CONTEXT, repository: "widgets" }),
      /Cannot read GITHUB_REPOSITORY "widgets": expected "OWNER\/REPO"/,
    );
  });
});
