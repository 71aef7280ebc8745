import assert from "node:assert/strict";
import { REVIEW_DAY, SEED_FREEZE } from "./_testing.ts";
import { frozenSeeds } from "./frozen_seeds.ts";
import { readFlakeFreeze } from "./read_flake_freeze.ts";

const TEST = "tests/contracts/test_ledger_contracts.py::test_apply_contract";

function freezeFile(...rows: string[]): string {
  return `freezes:\n${rows.join("")}`;
}

function row(id: string, fields: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    id,
    test: TEST,
    seed: "11",
    "witness_sha256": "ab",
    owner: "payments",
    expires: "2026-09-15",
    reason: "flaky",
    skip: "false",
    ...fields,
  };
  const lines = Object.entries(all).filter(([, v]) => v !== "").map((
    [k, v],
    i,
  ) => `${i === 0 ? "  - " : "    "}${k}: ${v}\n`);
  return lines.join("");
}

Deno.test("frozenSeeds() replays the seed's unexpired freeze", () => {
  assert.deepEqual(frozenSeeds(readFlakeFreeze(SEED_FREEZE), REVIEW_DAY), {
    replays: [{
      id: "F-184",
      test: TEST,
      seed: 1725781203,
      witness: "9c56cc51b374c32ba11507e6e0c2484e",
    }],
    nonBlocking: [TEST],
  });
});

Deno.test("frozenSeeds() replays only unexpired freezes", async (t) => {
  const cases: [string, string, string[], string[]][] = [
    [
      "an expired freeze",
      freezeFile(row("F-1", { expires: "2026-09-07" })),
      [],
      [],
    ],
    [
      "a freeze expiring today (UTC)",
      freezeFile(row("F-1", { expires: "2026-09-08" })),
      ["F-1"],
      [TEST],
    ],
    [
      "an expired and an unexpired freeze on one test",
      freezeFile(
        row("F-1", { expires: "2026-09-01" }),
        row("F-2", { seed: "12" }),
      ),
      ["F-2"],
      [TEST],
    ],
    [
      "two seeds of one test (two flakes are two rows)",
      freezeFile(row("F-1"), row("F-2", { seed: "12" })),
      ["F-1", "F-2"],
      [TEST],
    ],
    [
      "a freeze with skip: true (replayed, never lenient)",
      freezeFile(row("F-1", { skip: "true" })),
      ["F-1"],
      [],
    ],
    [
      "a freeze without an owner (replayed, never lenient)",
      freezeFile(row("F-1", { owner: "" })),
      ["F-1"],
      [],
    ],
    ["no freeze file", "", [], []],
  ];
  for (const [name, text, replays, nonBlocking] of cases) {
    await t.step(name, () => {
      const plan = frozenSeeds(
        text === "" ? null : readFlakeFreeze(text),
        REVIEW_DAY,
      );
      assert.deepEqual(plan.replays.map((r) => r.id), replays);
      assert.deepEqual(plan.nonBlocking, nonBlocking);
    });
  }
});

Deno.test("frozenSeeds() makes a test lenient only under a well-formed freeze", async (t) => {
  const OTHER = "tests/contracts/test_a.py::test_b";
  const cases: [string, string, string[]][] = [
    ["a complete freeze", freezeFile(row("F-1")), [TEST]],
    [
      "an owner of only spaces",
      freezeFile(row("F-1", { owner: '"  "' })),
      [],
    ],
    [
      "a witness of only spaces",
      freezeFile(row("F-1", { witness_sha256: '" "' })),
      [],
    ],
    [
      "no witness",
      freezeFile(row("F-1", { witness_sha256: "" })),
      [],
    ],
    [
      "a reason of only spaces",
      freezeFile(row("F-1", { reason: '"   "' })),
      [],
    ],
    ["no skip key", freezeFile(row("F-1", { skip: "" })), []],
    [
      "two tests, listed sorted and once each",
      freezeFile(
        row("F-2"),
        row("F-1", { test: OTHER }),
        row("F-3", { test: OTHER, seed: "12" }),
      ),
      [OTHER, TEST].sort(),
    ],
  ];
  for (const [name, text, nonBlocking] of cases) {
    await t.step(name, () => {
      const plan = frozenSeeds(readFlakeFreeze(text), REVIEW_DAY);
      assert.deepEqual(plan.nonBlocking, nonBlocking);
      assert.equal(plan.replays.length, text.split("  - ").length - 1);
    });
  }
});

Deno.test("frozenSeeds() replays a freeze without a witness with an empty one", () => {
  const plan = frozenSeeds(
    readFlakeFreeze(freezeFile(row("F-1", { witness_sha256: "" }))),
    REVIEW_DAY,
  );
  assert.deepEqual(plan.replays, [{
    id: "F-1",
    test: TEST,
    seed: 11,
    witness: "",
  }]);
});
