import assert from "node:assert/strict";
import { parseDelivery } from "./parse_delivery.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const repository = {
  "full_name": "Octo/Widgets",
  "clone_url": "https://github.com/Octo/Widgets.git",
};

Deno.test("parseDelivery() takes a pull request's commits and its updated_at as the clock", () => {
  const d = parseDelivery("pull_request", "d1", {
    action: "synchronize",
    "pull_request": {
      number: 7,
      state: "open",
      "updated_at": "2026-11-30T11:00:00Z",
      base: { sha: A },
      head: { sha: B },
    },
    repository,
    installation: { id: 9 },
  });
  assert.equal(d.kind, "jobs");
  assert.deepEqual(d.kind === "jobs" ? d.jobs[0] : undefined, {
    owner: "Octo",
    repo: "Widgets",
    number: 7,
    baseSha: A,
    headSha: B,
    installationId: 9,
    cloneUrl: repository.clone_url,
    now: "2026-11-30T11:00:00Z",
    clockField: "pull_request.updated_at",
    event: "pull_request.synchronize",
    deliveryId: "d1",
  });
});

Deno.test("parseDelivery() reads check_run rerequested with the check suite's updated_at as the clock", () => {
  const d = parseDelivery("check_run", "d2", {
    action: "rerequested",
    "check_run": {
      "head_sha": B,
      "check_suite": { "updated_at": "2026-11-30T12:30:00Z" },
      "pull_requests": [{ number: 7, base: { sha: A }, head: { sha: B } }],
    },
    repository,
  });
  assert.equal(d.kind, "jobs");
  if (d.kind !== "jobs") return;
  assert.equal(d.rerequest, true);
  assert.equal(d.jobs[0]?.clockField, "check_run.check_suite.updated_at");
  assert.equal(d.jobs[0]?.now, "2026-11-30T12:30:00Z");
  assert.equal(d.jobs[0]?.installationId, undefined);
});

Deno.test("parseDelivery() refuses a handled event it cannot judge", async (t) => {
  const pull = (over: Record<string, unknown>) => ({
    action: "opened",
    "pull_request": {
      number: 7,
      "updated_at": "2026-11-30T11:00:00Z",
      base: { sha: A },
      head: { sha: B },
      ...over,
    },
    repository,
  });
  for (
    const [name, payload, reason] of [
      ["a short head id", pull({ head: { sha: "abc" } }), /head commit id/],
      [
        "no clock",
        pull({ "updated_at": undefined }),
        /"pull_request\.updated_at" is missing/,
      ],
      [
        "a clock that is not RFC 3339",
        pull({ "updated_at": "yesterday" }),
        /"pull_request\.updated_at" of the event payload "yesterday": it does not start with a date/,
      ],
      [
        "no repository",
        { ...pull({}), repository: undefined },
        /repository\.full_name/,
      ],
      ["not an object", [1, 2], /not a JSON object/],
    ] as const
  ) {
    await t.step(name, () => {
      const d = parseDelivery("pull_request", "d", payload);
      assert.equal(d.kind, "invalid");
      assert.match(d.kind === "invalid" ? d.reason : "", reason);
    });
  }
});
