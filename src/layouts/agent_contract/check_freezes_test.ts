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
    RangeError,
  );
});
