import assert from "node:assert/strict";
import { REVIEW_DAY, SEED_FREEZE } from "./_testing.ts";
import { checkFlakeFreeze } from "./check_flake_freeze.ts";
import { readFlakeFreeze } from "./read_flake_freeze.ts";

const PATH = "flake_freeze.yml";

function judge(text: string, now = REVIEW_DAY) {
  return checkFlakeFreeze(readFlakeFreeze(text), { now, path: PATH });
}

function edit(from: string, to: string): string {
  assert.equal(SEED_FREEZE.split(from).length, 2, `one ${from}`);
  return SEED_FREEZE.replace(from, to);
}

Deno.test("checkFlakeFreeze() accepts the seed's freeze on review day", () => {
  assert.deepEqual(judge(SEED_FREEZE), []);
});

Deno.test("checkFlakeFreeze() applies the seed's validator as findings", async (t) => {
  const cases: [string, string, [string, number][]][] = [
    ["skip: true", edit("skip: false", "skip: true"), [[
      "freeze.skip_not_false",
      10,
    ]]],
    ["a missing skip", edit("    skip: false\n", ""), [[
      "freeze.skip_not_false",
      3,
    ]]],
    ['skip: "false"', edit("skip: false", 'skip: "false"'), [[
      "freeze.skip_not_false",
      10,
    ]]],
    ["skip: 0", edit("skip: false", "skip: 0"), [[
      "freeze.skip_not_false",
      10,
    ]]],
    [
      "a missing owner",
      edit('    owner: "platform-payments"\n', ""),
      [["freeze.incomplete", 3]],
    ],
    ["a blank owner", edit('"platform-payments"', '"  "'), [[
      "freeze.incomplete",
      7,
    ]]],
    [
      "a missing witness",
      edit('    witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"\n', ""),
      [["freeze.incomplete", 3]],
    ],
    [
      "a missing reason",
      edit('    reason: "empty currency code vs concurrent apply"\n', ""),
      [["freeze.incomplete", 3]],
    ],
    ["an expired date", edit('"2026-09-15"', '"2026-09-07"'), [[
      "freeze.expired",
      8,
    ]]],
    [
      "an expired date-time",
      edit('"2026-09-15"', '"2026-09-08T12:00:00Z"'),
      [["freeze.expired", 8]],
    ],
    [
      "every problem at once",
      edit('"2026-09-15"', '"2026-01-01"').replace("skip: false", "skip: true")
        .replace('    owner: "platform-payments"\n', ""),
      [["freeze.skip_not_false", 9], ["freeze.incomplete", 3], [
        "freeze.expired",
        7,
      ]],
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      const findings = judge(text);
      assert.deepEqual(findings.map((f) => [f.rule, f.line]), expected);
      for (const f of findings) {
        assert.equal(f.path, PATH);
        assert.equal(f.blocking, true);
        assert.ok(f.message.includes('"F-184"'), f.message);
        assert.ok(!f.message.endsWith("."), f.message);
      }
    });
  }
});

Deno.test("checkFlakeFreeze() names every missing field", () => {
  const text = edit('    owner: "platform-payments"\n', "").replace(
    '    witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"\n',
    "",
  );
  assert.equal(
    judge(text)[0]?.message,
    'Freeze "F-184" has no "owner" and no "witness_sha256": every freeze needs an owner, a witness hash and a reason',
  );
});

Deno.test("checkFlakeFreeze() makes the seed's freeze a hard fail after 2026-09-15", async (t) => {
  const cases: [string, boolean][] = [
    ["2026-09-15T23:59:59Z", false],
    ["2026-09-16T00:00:00Z", true],
  ];
  for (const [now, expired] of cases) {
    await t.step(`${now}: ${expired ? "expired" : "holds"}`, () => {
      const rules = judge(SEED_FREEZE, Date.parse(now)).map((f) => f.rule);
      assert.deepEqual(rules, expired ? ["freeze.expired"] : []);
    });
  }
});

Deno.test("checkFlakeFreeze() treats a blank witness or reason as missing", async (t) => {
  const cases: [string, string, string][] = [
    [
      "a blank witness",
      edit('"9c56cc51b374c32ba11507e6e0c2484e"', '" "'),
      'Freeze "F-184" has no "witness_sha256": every freeze needs an owner, a witness hash and a reason',
    ],
    [
      "a blank reason",
      edit('"empty currency code vs concurrent apply"', '"   "'),
      'Freeze "F-184" has no "reason": every freeze needs an owner, a witness hash and a reason',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      const findings = judge(text);
      assert.deepEqual(findings.map((f) => [f.rule, f.message]), [
        ["freeze.incomplete", message],
      ]);
    });
  }
});
