import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { SEED_FREEZE } from "./_testing.ts";
import { FREEZE_KEYS } from "./flake_freeze_schema.ts";
import {
  FLAKE_FREEZE_PATH,
  NO_FREEZE_LINES,
  readFlakeFreeze,
} from "./read_flake_freeze.ts";
import { loadYamlParser } from "../../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

function refusal(text: string): ContractSyntaxError {
  try {
    readFlakeFreeze(text);
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError);
    assert.equal(error.path, FLAKE_FREEZE_PATH);
    assert.ok(
      error.message.startsWith(
        `Cannot read contract "${FLAKE_FREEZE_PATH}": `,
      ),
      error.message,
    );
    return error;
  }
  assert.fail("expected the file to be refused");
}

function edit(from: string, to: string): string {
  assert.equal(SEED_FREEZE.split(from).length, 2, `one ${from}`);
  return SEED_FREEZE.replace(from, to);
}

Deno.test("readFlakeFreeze() reads the seed's example freeze file", () => {
  const file = readFlakeFreeze(SEED_FREEZE);
  assert.deepEqual(file.freezes, [{
    id: "F-184",
    test: "tests/contracts/test_ledger_contracts.py::test_apply_contract",
    seed: 1725781203,
    witness: "9c56cc51b374c32ba11507e6e0c2484e",
    owner: "platform-payments",
    expires: "2026-09-15",
    reason: "empty currency code vs concurrent apply",
    skip: false,
  }]);
  assert.equal(file.lines.key("freezes"), 2);
  assert.equal(file.lines.entry("F-184"), 3);
  assert.equal(file.lines.entry("F-184", "skip"), 10);
});

Deno.test("readFlakeFreeze() reads an empty file or list as no freezes", async (t) => {
  for (
    const text of ["", "# nothing frozen\n", "freezes:\n", "freezes: []\n"]
  ) {
    await t.step(JSON.stringify(text), () => {
      assert.deepEqual(readFlakeFreeze(text).freezes, []);
    });
  }
});

Deno.test("readFlakeFreeze() leaves policy problems to the checks", async (t) => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["a missing skip", edit("    skip: false\n", ""), { skip: undefined }],
    ["skip: true", edit("skip: false", "skip: true"), { skip: true }],
    ['skip: "false"', edit("skip: false", 'skip: "false"'), { skip: "false" }],
    ["skip: 0", edit("skip: false", "skip: 0"), { skip: 0 }],
    ["skip: null", edit("skip: false", "skip: null"), { skip: null }],
    [
      "a missing owner",
      edit('    owner: "platform-payments"\n', ""),
      { owner: "" },
    ],
    ["a null owner", edit('"platform-payments"', "null"), { owner: "" }],
    [
      "a missing witness",
      edit('    witness_sha256: "9c56cc51b374c32ba11507e6e0c2484e"\n', ""),
      { witness: "" },
    ],
    [
      "a missing reason",
      edit('    reason: "empty currency code vs concurrent apply"\n', ""),
      { reason: "" },
    ],
    [
      "an expired date",
      edit('"2026-09-15"', '"2020-01-01"'),
      { expires: "2020-01-01" },
    ],
    [
      "an unquoted date (YAML 1.2 keeps it a string)",
      edit('"2026-09-15"', "2026-09-15"),
      { expires: "2026-09-15" },
    ],
    [
      "an RFC 3339 expiry",
      edit('"2026-09-15"', '"2026-09-15T12:00:00+02:00"'),
      { expires: "2026-09-15T12:00:00+02:00" },
    ],
  ];
  for (const [name, text, fields] of cases) {
    await t.step(`reads ${name}`, () => {
      const freeze = readFlakeFreeze(text).freezes[0];
      assert.ok(freeze !== undefined);
      for (const [key, value] of Object.entries(fields)) {
        assert.deepEqual(freeze[key as keyof typeof freeze], value, key);
      }
    });
  }
});

Deno.test("readFlakeFreeze() refuses malformed files, naming the key and line", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "an unknown freeze key",
      edit("    skip: false\n", "    skip: false\n    quarantine: true\n"),
      'unknown key "freezes[0].quarantine"',
      11,
    ],
    [
      "an unknown key placed first",
      edit("  - id: F-184\n", "  - notes: flaky\n    id: F-184\n"),
      'unknown key "freezes[0].notes"',
      3,
    ],
    [
      "an unknown top-level key",
      SEED_FREEZE + "max_active: 3\n",
      'unknown key "max_active"',
      11,
    ],
    [
      "a top-level list",
      "- id: F-1\n",
      "the file must be a mapping, not a list",
      1,
    ],
    [
      "a string seed",
      edit("seed: 1725781203", 'seed: "1725781203"'),
      '"freezes[0].seed" must be an integer, not "1725781203"',
      5,
    ],
    [
      "a seed of 0",
      edit("seed: 1725781203", "seed: 0"),
      '"freezes[0].seed" must be an integer of at least 1, not 0',
      5,
    ],
    [
      "a fractional seed",
      edit("seed: 1725781203", "seed: 17.5"),
      '"freezes[0].seed" must be an integer, not 17.5',
      5,
    ],
    [
      "a missing seed",
      edit("    seed: 1725781203\n", ""),
      'missing key "freezes[0].seed"',
      3,
    ],
    [
      "a missing test",
      edit(
        "    test: tests/contracts/test_ledger_contracts.py::test_apply_contract\n",
        "",
      ),
      'missing key "freezes[0].test"',
      3,
    ],
    [
      "a test that is not a node id",
      edit("::test_apply_contract", ""),
      '"freezes[0].test" must be a pytest node id',
      4,
    ],
    [
      "a missing expiry",
      edit('    expires: "2026-09-15"\n', ""),
      'missing key "freezes[0].expires"',
      3,
    ],
    [
      "an impossible date",
      edit('"2026-09-15"', '"2026-02-30"'),
      '"freezes[0].expires" must be a date such as "2026-09-15"',
      8,
    ],
    [
      "a date-time without an offset",
      edit('"2026-09-15"', '"2026-09-15T00:00:00"'),
      '"freezes[0].expires" must be a date',
      8,
    ],
    [
      "a numeric owner",
      edit('"platform-payments"', "42"),
      '"freezes[0].owner" must be a string, not 42',
      7,
    ],
    [
      "a missing id",
      edit("  - id: F-184\n    test:", "  - test:"),
      'missing key "freezes[0].id"',
      3,
    ],
    [
      "a duplicate id",
      SEED_FREEZE + SEED_FREEZE.split("freezes:\n")[1],
      'duplicate id "F-184" in "freezes"',
      11,
    ],
    ["an alias", "freezes: &a []\nx: *a\n", "aliases are not allowed", 2],
  ];
  for (const [name, text, detail, line] of cases) {
    await t.step(`refuses ${name}`, () => {
      const error = refusal(text);
      assert.ok(
        error.detail.startsWith(detail),
        `${error.detail} should start with ${detail}`,
      );
      assert.equal(error.line, line);
    });
  }
});

Deno.test("FREEZE_KEYS are exactly the seed validator's ALLOWED keys", () => {
  assert.deepEqual([...FREEZE_KEYS].sort(), [
    "expires",
    "id",
    "owner",
    "reason",
    "seed",
    "skip",
    "test",
    "witness_sha256",
  ]);
});

Deno.test("NO_FREEZE_LINES points a freeze file built in code at no line", () => {
  assert.equal(NO_FREEZE_LINES.key("freezes"), undefined);
  assert.equal(NO_FREEZE_LINES.entry("F-1"), undefined);
  assert.equal(NO_FREEZE_LINES.entry("F-1", "skip"), undefined);
});

Deno.test("readFlakeFreeze() points a repeated id at that id's own key and line, not at its entry", () => {
  const text = SEED_FREEZE +
    "  - test: tests/contracts/test_ledger_contracts.py::test_apply_contract\n" +
    "    seed: 7\n" +
    "    id: F-184\n" +
    '    expires: "2026-09-15"\n';
  const error = refusal(text);
  assert.equal(error.key, "freezes[1].id");
  assert.equal(error.line, 13);
  assert.equal(
    error.message,
    'Cannot read contract "flake_freeze.yml": duplicate id "F-184" in "freezes" at line 13',
  );
});
