import assert from "node:assert/strict";
import { agentContract, CONTRACT, SEED_CONTRACT } from "./_testing.ts";
import { checkFreezes } from "./check_freezes.ts";
import {
  type ContractFreeze,
  readAgentContract,
} from "./read_agent_contract.ts";

const NOW = Date.parse("2026-09-15T00:00:00Z");

function freeze(parts: Partial<ContractFreeze> = {}): ContractFreeze {
  return {
    id: "test_flaky",
    owner: "oncall-payments",
    reason: "PAY-4412",
    expires: "2026-09-22T00:00:00Z",
    remainingReruns: 2,
    ...parts,
  };
}

Deno.test("checkFreezes() judges each freeze", async (t) => {
  const cases: [string, Partial<ContractFreeze>, string[]][] = [
    ["a complete, unexpired freeze with reruns left passes", {}, []],
    ["a blank owner is incomplete", { owner: "  " }, ["freeze.incomplete"]],
    ["an empty reason is incomplete", { reason: "" }, ["freeze.incomplete"]],
    [
      "no owner and no reason is one incomplete finding",
      { owner: "", reason: "" },
      ["freeze.incomplete"],
    ],
    [
      "an expiry before now has expired",
      { expires: "2026-09-14T23:59:59Z" },
      ["freeze.expired"],
    ],
    [
      "an expiry exactly at now has expired",
      { expires: "2026-09-15T00:00:00Z" },
      ["freeze.expired"],
    ],
    [
      "the same instant written with an offset has expired",
      { expires: "2026-09-15T02:00:00+02:00" },
      ["freeze.expired"],
    ],
    [
      "one millisecond after now has not expired",
      { expires: "2026-09-15T00:00:00.001Z" },
      [],
    ],
    [
      "an unparsable expiry counts as expired",
      { expires: "2026-09-31T00:00:00Z" },
      ["freeze.expired"],
    ],
    ["zero reruns left", { remainingReruns: 0 }, ["freeze.no_reruns"]],
    ["one rerun left passes", { remainingReruns: 1 }, []],
    [
      "every problem at once is reported, not just the first",
      { owner: "", expires: "2020-01-01T00:00:00Z", remainingReruns: 0 },
      ["freeze.expired", "freeze.incomplete", "freeze.no_reruns"],
    ],
  ];
  for (const [name, parts, rules] of cases) {
    await t.step(name, () => {
      const findings = checkFreezes(
        agentContract({ freezes: [freeze(parts)], maxActiveFreezes: 3 }),
        { now: NOW, path: CONTRACT },
      );
      assert.deepEqual(findings.map((f) => f.rule).sort(), rules);
      for (const f of findings) {
        assert.equal(f.layer, "freeze");
        assert.equal(f.blocking, true);
        assert.equal(f.path, CONTRACT);
        assert.match(f.message, /"test_flaky"/);
      }
    });
  }
});

Deno.test("checkFreezes() enforces max_active_freezes", async (t) => {
  const cases: [string, number, number, string[]][] = [
    ["no freezes under a cap of 0", 0, 0, []],
    ["three freezes at a cap of 3", 3, 3, []],
    ["four freezes over a cap of 3", 4, 3, ["freeze.over_cap"]],
    ["one freeze over a cap of 0", 1, 0, ["freeze.over_cap"]],
  ];
  for (const [name, count, cap, rules] of cases) {
    await t.step(name, () => {
      const freezes = Array.from(
        { length: count },
        (_, i) => freeze({ id: `f${i}` }),
      );
      const findings = checkFreezes(
        agentContract({ freezes, maxActiveFreezes: cap }),
        { now: NOW, path: CONTRACT },
      );
      assert.deepEqual(findings.map((f) => f.rule), rules);
    });
  }
});

Deno.test("checkFreezes() counts expired freezes towards the cap", () => {
  const findings = checkFreezes(
    agentContract({
      freezes: [
        freeze({ id: "a" }),
        freeze({ id: "b", expires: "2020-01-01T00:00:00Z" }),
      ],
      maxActiveFreezes: 1,
    }),
    { now: NOW, path: CONTRACT },
  );
  assert.deepEqual(findings.map((f) => f.rule).sort(), [
    "freeze.expired",
    "freeze.over_cap",
  ]);
});

Deno.test("checkFreezes() points at the lines of the contract file", () => {
  const contract = readAgentContract(
    SEED_CONTRACT.replace('owner: "oncall-payments"', 'owner: ""')
      .replace("max_active_freezes: 3", "max_active_freezes: 0"),
    { path: CONTRACT },
  );
  const findings = checkFreezes(contract, {
    now: Date.parse("2026-10-01T00:00:00Z"),
    path: CONTRACT,
  });
  assert.deepEqual(
    findings.map((f) => [f.rule, f.line]),
    [["freeze.over_cap", 23], ["freeze.incomplete", 19], [
      "freeze.expired",
      21,
    ]],
  );
  assert.equal(
    findings[2]?.message,
    'Freeze "test_report_render_flaky" expired at "2026-09-22T00:00:00Z": fix the test or drop the freeze',
  );
});

Deno.test("checkFreezes() refuses a now that is not an instant", () => {
  assert.throws(
    () => checkFreezes(agentContract(), { now: Number.NaN, path: CONTRACT }),
    (e) => e instanceof RangeError && /"now" is not an instant/.test(e.message),
  );
});

Deno.test("checkFreezes() messages name the freeze, the count and what is missing", async (t) => {
  const messages = (freezes: ContractFreeze[], cap = 3) =>
    checkFreezes(agentContract({ freezes, maxActiveFreezes: cap }), {
      now: NOW,
      path: CONTRACT,
    }).map((f) => f.message);
  const cases: [string, string[], string[]][] = [
    [
      "one freeze over the cap is counted in the singular",
      messages([freeze()], 0),
      ['1 freeze is active but "max_active_freezes" is 0'],
    ],
    [
      "two freezes over the cap are counted in the plural",
      messages([freeze(), freeze({ id: "b" })], 1),
      ['2 freezes are active but "max_active_freezes" is 1'],
    ],
    [
      "a blank owner",
      messages([freeze({ owner: " " })]),
      [
        'Freeze "test_flaky" has no owner: every freeze needs an owner and a reason',
      ],
    ],
    [
      "a blank reason",
      messages([freeze({ reason: "\t" })]),
      [
        'Freeze "test_flaky" has no reason: every freeze needs an owner and a reason',
      ],
    ],
    [
      "neither owner nor reason",
      messages([freeze({ owner: "", reason: "" })]),
      [
        'Freeze "test_flaky" has no owner and no reason: every freeze needs an owner and a reason',
      ],
    ],
    [
      "an unparsable expiry",
      messages([freeze({ expires: "next week" })]),
      [
        'Freeze "test_flaky" has expiry "next week", which is not an RFC 3339 date-time: treated as expired',
      ],
    ],
    [
      "no reruns left",
      messages([freeze({ remainingReruns: -1 })]),
      [
        'Freeze "test_flaky" has no reruns left: fix the test or drop the freeze',
      ],
    ],
  ];
  for (const [name, got, want] of cases) {
    await t.step(name, () => assert.deepEqual(got, want));
  }
});

Deno.test("checkFreezes() points at the key of the problem, else the entry, else the list", async (t) => {
  const contract = (
    freezes: ContractFreeze[],
    cap: number,
    keys: Record<string, number>,
    entries: Record<string, number>,
  ) => ({
    ...agentContract({ freezes, maxActiveFreezes: cap }),
    lines: {
      key: (name: string) => keys[name],
      entry: (section: string, id: string, key?: string) =>
        section === "freezes"
          ? entries[key === undefined ? id : `${id}.${key}`]
          : undefined,
    },
  });
  const F = "test_flaky";
  const cases: [
    string,
    ReturnType<typeof contract>,
    [string, number | undefined][],
  ][] = [
    [
      "the cap without a line of its own points at the freezes",
      contract([freeze()], 0, { freezes: 4 }, {}),
      [["freeze.over_cap", 4]],
    ],
    [
      "a blank reason points at the reason",
      contract([freeze({ reason: "" })], 3, {}, { [`${F}.reason`]: 7, [F]: 5 }),
      [["freeze.incomplete", 7]],
    ],
    [
      "a blank owner points at the owner",
      contract([freeze({ owner: "", reason: "" })], 3, {}, {
        [`${F}.owner`]: 6,
        [`${F}.reason`]: 7,
      }),
      [["freeze.incomplete", 6]],
    ],
    [
      "an unparsable expiry points at expires",
      contract([freeze({ expires: "soon" })], 3, {}, { [`${F}.expires`]: 8 }),
      [["freeze.expired", 8]],
    ],
    [
      "no reruns point at remaining_reruns",
      contract([freeze({ remainingReruns: 0 })], 3, {}, {
        [`${F}.remaining_reruns`]: 9,
        [F]: 5,
      }),
      [["freeze.no_reruns", 9]],
    ],
    [
      "a key without a line points at the entry",
      contract([freeze({ remainingReruns: 0 })], 3, {}, { [F]: 5 }),
      [["freeze.no_reruns", 5]],
    ],
  ];
  for (const [name, c, want] of cases) {
    await t.step(name, () => {
      const findings = checkFreezes(c, { now: NOW, path: CONTRACT });
      assert.deepEqual(findings.map((f) => [f.rule, f.line]), want);
    });
  }
});
