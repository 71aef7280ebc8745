import assert from "node:assert/strict";
import { baseFreezeListProblems } from "./base_freeze_list_problems.ts";
import type { FreezeEntry, FreezeList } from "./read_freeze_list.ts";

const HASH = "a".repeat(64);

function entry(index: number, fields: Partial<FreezeEntry> = {}): FreezeEntry {
  return {
    index,
    id: `f${index}`,
    test: {
      nodeId: `tests/test_a.py::test_${index}`,
      file: "tests/test_a.py",
      qualname: `test_${index}`,
    },
    bodySha256: HASH,
    expiresOn: "2026-09-26",
    owner: "human",
    reason: "flaky",
    missing: [],
    ...fields,
  };
}

function list(
  freezes: FreezeEntry[],
  maxFrozen = 10,
  lines: Record<string, number> = {},
): FreezeList {
  return {
    policy: { maxFrozen, failOnExpired: true },
    freezes,
    lineOf: (path) => lines[path.join(".")],
  };
}

/** Each finding as `rule@path:line`. */
function problems(freezes: FreezeList, path?: string): string[] {
  return baseFreezeListProblems(freezes, path).map((f) =>
    `${f.rule}@${f.path}:${f.line ?? ""}`
  );
}

Deno.test("baseFreezeListProblems() finds what a base freeze list breaks on its own, and nothing a clock or a tree decides", async (t) => {
  const cases: [string, FreezeList, string[]][] = [
    ["a sound list", list([entry(0), entry(1)]), []],
    ["no body hash given", list([entry(0, { bodySha256: undefined })]), []],
    [
      "a hash in capitals can never match",
      list([entry(0, { bodySha256: "A".repeat(64) })], 10, {
        "freezes.0.body_sha256": 7,
      }),
      ["freeze.body_changed@freeze.yml:7"],
    ],
    [
      "a hash too short, pointed at its entry when the key has no line",
      list([entry(0), entry(1, { bodySha256: "abc" })], 10, { "freezes.1": 9 }),
      ["freeze.body_changed@freeze.yml:9"],
    ],
    [
      "a hash with more after it",
      list([entry(0, { bodySha256: `${HASH}0` })]),
      ["freeze.body_changed@freeze.yml:"],
    ],
    [
      "more freezes than its own max_frozen",
      list([entry(0), entry(1)], 1),
      ["freeze.over_cap@freeze.yml:"],
    ],
    [
      "an agent owner",
      list([entry(0, { owner: "agent" })]),
      ["freeze.agent_owner@freeze.yml:"],
    ],
    [
      "an incomplete freeze",
      list([entry(0, { reason: undefined, missing: ["reason"] })]),
      ["freeze.incomplete@freeze.yml:"],
    ],
    [
      "an expiry long past is for the clock to judge, not the list",
      list([entry(0, { expiresOn: "2001-01-01" })]),
      [],
    ],
  ];
  for (const [name, freezes, want] of cases) {
    await t.step(name, () => assert.deepEqual(problems(freezes), want));
  }
});

Deno.test("baseFreezeListProblems() names a freeze by its id, else by its place, and the file it was given", () => {
  const found = baseFreezeListProblems(
    list([
      entry(0, { bodySha256: "x" }),
      entry(1, { id: undefined, bodySha256: "y" }),
    ]),
    "ops/freeze.yml",
  );
  assert.deepEqual(found.map((f) => f.path), [
    "ops/freeze.yml",
    "ops/freeze.yml",
  ]);
  assert.match(
    found[0]!.message,
    /^Freeze "f0" body_sha256 "x" is not a 64-character lowercase sha256/,
  );
  assert.match(found[1]!.message, /^Freeze "#2" body_sha256 "y"/);
});
