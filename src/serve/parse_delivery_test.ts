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

const CLOCK = "2026-11-30T11:00:00Z";

/** A pull_request delivery with `over` laid over its pull request. */
function pullPayload(
  action: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    action,
    "pull_request": {
      number: 7,
      state: "open",
      "updated_at": CLOCK,
      base: { sha: A },
      head: { sha: B },
      ...over,
    },
    repository,
  };
}

/** A rerequest of `event` naming `pulls`, its suite updated at `CLOCK`. */
function rerequestPayload(
  event: "check_run" | "check_suite",
  pulls: unknown,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  const subject = event === "check_run"
    ? {
      "head_sha": B,
      "check_suite": { "updated_at": CLOCK },
      "pull_requests": pulls,
      ...over,
    }
    : { "head_sha": B, "updated_at": CLOCK, "pull_requests": pulls, ...over };
  return { action: "rerequested", [event]: subject, repository };
}

Deno.test("parseDelivery() judges only the pull request actions that change what would merge", async (t) => {
  for (
    const action of ["opened", "synchronize", "reopened", "ready_for_review"]
  ) {
    await t.step(`${action}: one job, not a rerequest`, () => {
      const d = parseDelivery("pull_request", "d", pullPayload(action));
      assert.equal(d.kind, "jobs");
      if (d.kind !== "jobs") return;
      assert.equal(d.rerequest, false);
      assert.equal(d.jobs.length, 1);
      assert.equal(d.jobs[0]?.event, `pull_request.${action}`);
    });
  }
  for (const action of ["closed", "edited", "labeled", "assigned", ""]) {
    await t.step(`"${action}": ignored, naming the event and action`, () => {
      const d = parseDelivery("pull_request", "d", pullPayload(action));
      assert.deepEqual(d, {
        kind: "ignored",
        reason: action === ""
          ? "pull_request is not judged"
          : `pull_request.${action} is not judged`,
      });
    });
  }
  await t.step("an action that is not a string reads as none", () => {
    const d = parseDelivery("pull_request", "d", {
      ...pullPayload("opened"),
      action: 1,
    });
    assert.deepEqual(d, {
      kind: "ignored",
      reason: "pull_request is not judged",
    });
  });
  await t.step(
    "a closed pull request is ignored, though the action is judged",
    () => {
      const d = parseDelivery(
        "pull_request",
        "d",
        pullPayload("synchronize", { state: "closed" }),
      );
      assert.deepEqual(d, {
        kind: "ignored",
        reason: "pull_request.synchronize: the pull request is closed",
      });
    },
  );
  await t.step(
    "a closed pull request the payload cannot describe is invalid",
    () => {
      const d = parseDelivery(
        "pull_request",
        "d",
        pullPayload("reopened", { state: "closed", head: { sha: "abc" } }),
      );
      assert.equal(d.kind, "invalid");
    },
  );
  await t.step("the number may sit beside the pull request", () => {
    const payload = pullPayload("opened", { number: undefined });
    const d = parseDelivery("pull_request", "d", { ...payload, number: 12 });
    assert.equal(d.kind === "jobs" ? d.jobs[0]?.number : undefined, 12);
  });
  await t.step("the pull request's own number comes first", () => {
    const d = parseDelivery("pull_request", "d", {
      ...pullPayload("opened"),
      number: 12,
    });
    assert.equal(d.kind === "jobs" ? d.jobs[0]?.number : undefined, 7);
  });
  await t.step("no pull request object: invalid", () => {
    const d = parseDelivery("pull_request", "d", {
      action: "opened",
      "pull_request": "7",
      repository,
    });
    assert.equal(d.kind, "invalid");
    assert.match(d.kind === "invalid" ? d.reason : "", /number is missing/);
  });
});

Deno.test("parseDelivery() ignores every event but pull_request, check_run and check_suite", async (t) => {
  for (
    const [event, payload, reason] of [
      ["push", { ref: "refs/heads/main" }, "push is not judged"],
      ["issues", { action: "opened" }, "issues.opened is not judged"],
      [
        "pull_request_review",
        pullPayload("submitted"),
        "pull_request_review.submitted is not judged",
      ],
      [
        "check_run",
        { action: "completed" },
        "check_run.completed is not judged",
      ],
      [
        "check_suite",
        { action: "requested" },
        "check_suite.requested is not judged",
      ],
      ["check_suite", {}, "check_suite is not judged"],
      [
        "issues",
        { action: "rerequested", issues: { "pull_requests": [] } },
        "issues.rerequested is not judged",
      ],
    ] as const
  ) {
    await t.step(reason, () => {
      assert.deepEqual(parseDelivery(event, "d", payload), {
        kind: "ignored",
        reason,
      });
    });
  }
  for (
    const [name, payload] of [["null", null], ["a string", "{}"], [
      "an array",
      [],
    ]] as const
  ) {
    await t.step(
      `a payload that is ${name} is invalid, whatever the event`,
      () => {
        assert.deepEqual(parseDelivery("push", "d", payload), {
          kind: "invalid",
          reason: "the payload is not a JSON object",
        });
      },
    );
  }
});

Deno.test("parseDelivery() turns a rerequest into one job per pull request it names, with the suite's clock", async (t) => {
  const pr = (number: number, head?: string) => ({
    number,
    base: { sha: A },
    ...(head === undefined ? {} : { head: { sha: head } }),
  });
  const C = "c".repeat(40);
  for (const event of ["check_run", "check_suite"] as const) {
    const clockField = event === "check_run"
      ? "check_run.check_suite.updated_at"
      : "check_suite.updated_at";
    await t.step(`${event}: every pull request, in order`, () => {
      const d = parseDelivery(
        event,
        "d9",
        rerequestPayload(event, [pr(7, C), pr(8)]),
      );
      assert.equal(d.kind, "jobs");
      if (d.kind !== "jobs") return;
      assert.equal(d.rerequest, true);
      assert.deepEqual(
        d.jobs.map((j) => [j.number, j.headSha, j.clockField, j.now, j.event]),
        [
          [7, C, clockField, CLOCK, `${event}.rerequested`],
          [8, B, clockField, CLOCK, `${event}.rerequested`],
        ],
      );
      assert.ok(d.jobs.every((j) => j.deliveryId === "d9"));
    });
    for (
      const [name, pulls] of [["none", []], ["not a list", { 0: pr(7) }], [
        "missing",
        undefined,
      ]] as const
    ) {
      await t.step(`${event}: pull requests ${name}: ignored`, () => {
        assert.deepEqual(
          parseDelivery(event, "d", rerequestPayload(event, pulls)),
          {
            kind: "ignored",
            reason:
              `${event}.rerequested names no pull request of this repository`,
          },
        );
      });
    }
    await t.step(
      `${event}: one pull request it cannot describe makes the whole delivery invalid`,
      () => {
        const d = parseDelivery(
          event,
          "d",
          rerequestPayload(event, [pr(7), { number: 8, base: { sha: "x" } }]),
        );
        assert.equal(d.kind, "invalid");
        assert.match(
          d.kind === "invalid" ? d.reason : "",
          new RegExp(`^${event}\\.rerequested: the base commit id`),
        );
      },
    );
    await t.step(
      `${event}: a pull request that is not an object, or lacks its base: invalid`,
      () => {
        for (const item of [7, { number: 7, head: { sha: B } }]) {
          const d = parseDelivery(event, "d", rerequestPayload(event, [item]));
          assert.equal(d.kind, "invalid");
        }
      },
    );
    await t.step(`${event}: no ${event} object: no pull request`, () => {
      assert.deepEqual(
        parseDelivery(event, "d", { action: "rerequested", repository }),
        {
          kind: "ignored",
          reason:
            `${event}.rerequested names no pull request of this repository`,
        },
      );
    });
    await t.step(
      `${event}: no clock on the suite: invalid, naming its field`,
      () => {
        const d = parseDelivery(
          event,
          "d",
          rerequestPayload(
            event,
            [pr(7)],
            event === "check_run"
              ? { "check_suite": undefined }
              : { "updated_at": undefined },
          ),
        );
        assert.equal(d.kind, "invalid");
        assert.match(
          d.kind === "invalid" ? d.reason : "",
          new RegExp(`"${clockField.replaceAll(".", "\\.")}" is missing`),
        );
      },
    );
  }
  await t.step("check_run: the run's own updated_at is not the clock", () => {
    const d = parseDelivery(
      "check_run",
      "d",
      rerequestPayload("check_run", [pr(7)], {
        "check_suite": {},
        "updated_at": CLOCK,
      }),
    );
    assert.equal(d.kind, "invalid");
  });
});

Deno.test("parseDelivery() reads a job's repository, number, commits and clock strictly", async (t) => {
  const C64 = "c".repeat(64);
  const cases: [string, Record<string, unknown>, RegExp | undefined][] = [
    [
      "a 64-character commit id (SHA-256)",
      pullPayload("opened", { head: { sha: C64 } }),
      undefined,
    ],
    [
      "a commit id one character too long",
      pullPayload("opened", { head: { sha: B + "b" } }),
      /head commit id is missing or malformed/,
    ],
    [
      "a commit id in upper case",
      pullPayload("opened", { head: { sha: B.toUpperCase() } }),
      /head commit id/,
    ],
    [
      "a commit id with text before it",
      pullPayload("opened", { head: { sha: "x" + B } }),
      /head commit id/,
    ],
    [
      "a commit id with text after it",
      pullPayload("opened", { head: { sha: B + "x" } }),
      /head commit id/,
    ],
    [
      "a commit id in a list",
      pullPayload("opened", { head: { sha: [B] } }),
      /head commit id/,
    ],
    [
      "a commit id that is not a string",
      pullPayload("opened", { head: { sha: 7 } }),
      /head commit id/,
    ],
    [
      "no base commit",
      pullPayload("opened", { base: {} }),
      /: the base commit id is missing or malformed$/,
    ],
    [
      "a base commit of 63 characters",
      pullPayload("opened", { base: { sha: C64.slice(1) } }),
      /base commit id/,
    ],
    ["number 1", pullPayload("opened", { number: 1 }), undefined],
    [
      "number 0",
      pullPayload("opened", { number: 0 }),
      /the pull request number is missing/,
    ],
    [
      "a negative number",
      pullPayload("opened", { number: -3 }),
      /number is missing/,
    ],
    [
      "a fractional number",
      pullPayload("opened", { number: 1.5 }),
      /number is missing/,
    ],
    [
      "a number past safe integers",
      pullPayload("opened", { number: 2 ** 53 }),
      /number is missing/,
    ],
    [
      "a number as text",
      pullPayload("opened", { number: "7" }),
      /number is missing/,
    ],
    [
      "an empty clock",
      pullPayload("opened", { "updated_at": "" }),
      /"pull_request\.updated_at" is missing: the judgement has no clock/,
    ],
    [
      "a clock that is not text",
      pullPayload("opened", { "updated_at": 1796040000 }),
      /"pull_request\.updated_at" is missing/,
    ],
  ];
  const withRepository = (full: unknown, clone: unknown) => ({
    ...pullPayload("opened"),
    repository: { "full_name": full, "clone_url": clone },
  });
  const URL = repository.clone_url;
  cases.push(
    [
      "owner and name of many characters",
      withRepository("Octo-Org/big.widgets", URL),
      undefined,
    ],
    [
      "a name without owner",
      withRepository("Widgets", URL),
      /"repository\.full_name" is missing/,
    ],
    ["three parts", withRepository("Octo/Widgets/x", URL), /full_name/],
    ["an empty owner", withRepository("/Widgets", URL), /full_name/],
    ["an empty name", withRepository("Octo/", URL), /full_name/],
    [
      "a space in the owner",
      withRepository("Octo Org/Widgets", URL),
      /full_name/,
    ],
    ["a space in the name", withRepository("Octo/Wid gets", URL), /full_name/],
    ["a full name that is not text", withRepository(7, URL), /full_name/],
    [
      "a full name in a list",
      withRepository(["Octo/Widgets"], URL),
      /full_name/,
    ],
    [
      "an empty clone URL",
      withRepository("Octo/Widgets", ""),
      /"repository\.clone_url" is missing/,
    ],
    [
      "a clone URL that is not text",
      withRepository("Octo/Widgets", 7),
      /clone_url/,
    ],
  );
  for (const [name, payload, reason] of cases) {
    await t.step(
      `${name}: ${reason === undefined ? "judged" : "invalid"}`,
      () => {
        const d = parseDelivery("pull_request", "d", payload);
        if (reason === undefined) {
          assert.equal(d.kind, "jobs");
          return;
        }
        assert.equal(d.kind, "invalid");
        assert.match(
          d.kind === "invalid" ? d.reason : "",
          /^pull_request\.opened: /,
        );
        assert.match(d.kind === "invalid" ? d.reason : "", reason);
      },
    );
  }
  await t.step("owner and name are split from the full name", () => {
    const d = parseDelivery(
      "pull_request",
      "d",
      withRepository("Octo-Org/big.widgets", URL),
    );
    assert.deepEqual(
      d.kind === "jobs"
        ? [d.jobs[0]?.owner, d.jobs[0]?.repo, d.jobs[0]?.cloneUrl]
        : [],
      ["Octo-Org", "big.widgets", URL],
    );
  });
  await t.step("an installation id is kept only when it is a number", () => {
    const payload = (installation: unknown) => ({
      ...pullPayload("opened"),
      installation,
    });
    const id = (p: unknown) => {
      const d = parseDelivery("pull_request", "d", p);
      assert.equal(d.kind, "jobs");
      return d.kind === "jobs" ? d.jobs[0] : undefined;
    };
    assert.equal(id(payload({ id: 9 }))?.installationId, 9);
    assert.ok(!("installationId" in id(payload({ id: "9" }))!));
    assert.ok(!("installationId" in id(payload(undefined))!));
  });
});
