import { deepEqual, equal, notEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { extractWitness, witnessSha256 } from "./extract_witness.ts";
import { freshSeed } from "./fresh_seed.ts";
import { formatLedger } from "./ledger_row.ts";

Deno.test("freshSeed() is a pure function of head and now", () => {
  const head = "0123456789abcdef0123456789abcdef01234567";
  equal(
    freshSeed(head, "2026-11-30T12:00:00Z"),
    freshSeed(head, "2026-11-30T12:00:00Z"),
  );
  notEqual(
    freshSeed(head, "2026-11-30T12:00:00Z"),
    freshSeed(head, "2026-11-30T12:00:01Z"),
  );
  notEqual(
    freshSeed(head, "2026-11-30T12:00:00Z"),
    freshSeed(head.replace("0", "1"), "2026-11-30T12:00:00Z"),
  );
  const expected = createHash("sha256").update(`${head}\n2026-11-30T12:00:00Z`)
    .digest().readUInt32BE(0);
  equal(freshSeed(head, "2026-11-30T12:00:00Z"), expected || 1);
});

Deno.test("extractWitness() finds the failing input in each report style", async (t) => {
  const cases: [string, string, string][] = [
    [
      "seed 002 single quotes",
      "AssertionError: seed=1725781203 witness='INV-00042-'",
      "INV-00042-",
    ],
    [
      "seed 002 double quotes",
      'AssertionError: seed=1 witness="it\'s"',
      "it's",
    ],
    ["escaped quote", "witness='a\\'b'", "a'b"],
    ["bare", "witness=INV-1 more", "INV-1"],
    [
      "hypothesis",
      "E   Falsifying example: test_x(\nFalsifying example: test_x(blob=b'')",
      "test_x(",
    ],
    ["anything else", "assert 1 == 2\nmore", "assert 1 == 2"],
  ];
  for (const [name, message, want] of cases) {
    await t.step(name, () => equal(extractWitness(message), want));
  }
});

Deno.test("witnessSha256() hashes the witness as seed 002's record() does", () => {
  equal(
    witnessSha256("INV-00042-"),
    createHash("sha256").update("INV-00042-", "utf8").digest("hex"),
  );
});

Deno.test("formatLedger() writes one JSON object per line in a fixed key order", () => {
  const text = formatLedger([
    {
      kind: "fresh",
      id: "c",
      layout: "002",
      ts: 1,
      witness_sha256: null,
      ok: true,
      trials: 200,
      seed: 9,
    },
  ]);
  equal(
    text,
    '{"seed":9,"trials":200,"ok":true,"witness_sha256":null,"ts":1,"layout":"002","id":"c","kind":"fresh"}\n',
  );
  deepEqual(formatLedger([]), "");
});
