import assert from "node:assert/strict";
import { wantsWorkflowAnnotations } from "./_workflow_annotations.ts";

const ACTIONS = { GITHUB_ACTIONS: "true", GITHUB_EVENT_NAME: "pull_request" };

function pullRequest(head: string | null, base = "o/r") {
  return {
    pull_request: {
      head: { repo: head === null ? null : { full_name: head } },
      base: { repo: { full_name: base } },
    },
  };
}

Deno.test("wantsWorkflowAnnotations() annotates in Actions only when the findings would reach the pull request nowhere else", async (t) => {
  const cases = [
    {
      name: "outside Actions",
      env: {},
      publish: false,
      event: undefined,
      want: false,
    },
    {
      name: "Actions, not publishing",
      env: ACTIONS,
      publish: false,
      event: pullRequest("o/r"),
      want: true,
    },
    {
      name: "Actions, publishing, same repository",
      env: ACTIONS,
      publish: true,
      event: pullRequest("o/r"),
      want: false,
    },
    {
      name: "Actions, publishing, a fork",
      env: ACTIONS,
      publish: true,
      event: pullRequest("fork/r"),
      want: true,
    },
    {
      name: "Actions, publishing, a deleted fork",
      env: ACTIONS,
      publish: true,
      event: pullRequest(null),
      want: true,
    },
    {
      name: "pull_request_target from a fork: its token can publish",
      env: { ...ACTIONS, GITHUB_EVENT_NAME: "pull_request_target" },
      publish: true,
      event: pullRequest("fork/r"),
      want: false,
    },
    {
      name: "no readable event",
      env: ACTIONS,
      publish: true,
      event: undefined,
      want: false,
    },
    {
      name: "GITHUB_ACTIONS not exactly true",
      env: { ...ACTIONS, GITHUB_ACTIONS: "1" },
      publish: false,
      event: undefined,
      want: false,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.equal(
        wantsWorkflowAnnotations({
          env: c.env,
          publish: c.publish,
          event: c.event,
        }),
        c.want,
      );
    });
  }
});
