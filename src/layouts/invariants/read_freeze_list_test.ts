import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { readFreezeList } from "./read_freeze_list.ts";
import { loadYamlParser } from "../../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

/** Seed 003's example freeze list, verbatim. */
const SEED_FREEZES = `policy:
  max_frozen: 3
  fail_on_expired: true
freezes:
  - id: test_billing_timezone_dst
    path: tests/test_billing.py::test_timezone_dst
    body_sha256: "6b86b273ff34fce19d6b804eff5a3f57"
    reason: "dst boundary depends on host tzdata"
    expires_on: "2026-09-26"
    owner: "human"
`;

Deno.test("readFreezeList() reads the seed's example freeze list", () => {
  const list = readFreezeList(SEED_FREEZES);
  assert.deepEqual(list.policy, { maxFrozen: 3, failOnExpired: true });
  assert.deepEqual(list.freezes, [{
    index: 0,
    id: "test_billing_timezone_dst",
    test: {
      nodeId: "tests/test_billing.py::test_timezone_dst",
      file: "tests/test_billing.py",
      qualname: "test_timezone_dst",
    },
    // A placeholder, kept as written: the freeze layer reports it.
    bodySha256: "6b86b273ff34fce19d6b804eff5a3f57",
    expiresOn: "2026-09-26",
    owner: "human",
    reason: "dst boundary depends on host tzdata",
    missing: [],
  }]);
  assert.equal(list.lineOf(["freezes", 0, "expires_on"]), 9);
});

Deno.test("readFreezeList() reads a method node id, a date-time and defaults", () => {
  const list = readFreezeList(`policy:
  max_frozen: 1
freezes:
  - id: f
    path: tests/test_a.py::TestA::test_b
    expires_on: "2026-09-26T12:00:00+02:00"
`);
  assert.equal(list.policy.failOnExpired, true);
  assert.deepEqual(list.freezes[0]?.test, {
    nodeId: "tests/test_a.py::TestA::test_b",
    file: "tests/test_a.py",
    qualname: "TestA.test_b",
  });
  assert.equal(list.freezes[0]?.expiresOn, "2026-09-26T12:00:00+02:00");
});

Deno.test("readFreezeList() lists missing, null and blank keys instead of refusing them", () => {
  const list = readFreezeList(`policy:
  max_frozen: 3
freezes:
  - id: f
    path: tests/test_a.py::test_a
    owner: null
    reason: "  "
  - {}
`);
  assert.deepEqual(list.freezes[0]?.missing, [
    "body_sha256",
    "expires_on",
    "owner",
    "reason",
  ]);
  assert.equal(list.freezes[0]?.owner, undefined);
  assert.deepEqual(list.freezes[1]?.missing, [
    "id",
    "path",
    "body_sha256",
    "expires_on",
    "owner",
    "reason",
  ]);
});

Deno.test("readFreezeList() reads an absent or null freeze list as empty", () => {
  assert.deepEqual(readFreezeList("policy:\n  max_frozen: 0\n").freezes, []);
  assert.deepEqual(
    readFreezeList("policy:\n  max_frozen: 0\nfreezes: null\n").freezes,
    [],
  );
});

Deno.test("readFreezeList() refuses a malformed freeze list, naming the key and line", async (t) => {
  const head = "policy:\n  max_frozen: 3\nfreezes:\n  - id: a\n";
  const cases: [string, string, string][] = [
    [
      "an unknown entry key",
      `${head}    skip: true\n`,
      'unknown key "freezes[0].skip" at line 5',
    ],
    [
      "an unknown policy key",
      "policy:\n  max_frozen: 3\n  max_reruns: 2\n",
      'unknown key "policy.max_reruns" at line 3',
    ],
    [
      "an unknown top-level key",
      "policy:\n  max_frozen: 3\nowner: me\n",
      'unknown key "owner" at line 3',
    ],
    [
      "a duplicate id",
      `${head}  - id: a\n`,
      'duplicate id "a" in "freezes" at line 5',
    ],
    [
      "an expiry that is not a date",
      `${head}    expires_on: soon\n`,
      '"freezes[0].expires_on" must be a date such as 2026-09-26 or an RFC 3339 date-time such as 2026-09-26T00:00:00Z at line 5',
    ],
    [
      "an impossible date",
      `${head}    expires_on: "2026-02-30"\n`,
      '"freezes[0].expires_on" must be a date',
    ],
    [
      "a path that is not a node id",
      `${head}    path: tests/test_a.py\n`,
      '"freezes[0].path" must be a pytest node id such as tests/test_billing.py::test_dst or tests/test_billing.py::TestBilling::test_dst at line 5',
    ],
    [
      "an owner that is not a string",
      `${head}    owner: 3\n`,
      '"freezes[0].owner" must be a string, not 3 at line 5',
    ],
    [
      "a path with text before the node id",
      `${head}    path: " tests/test_a.py::test_a"\n`,
      '"freezes[0].path" must be a pytest node id',
    ],
    [
      "a path that names one parametrized case",
      `${head}    path: "tests/test_a.py::test_a[1]"\n`,
      '"freezes[0].path" must be a pytest node id',
    ],
    [
      "a path whose test name is not an identifier",
      `${head}    path: "tests/test_a.py::test-a"\n`,
      '"freezes[0].path" must be a pytest node id',
    ],
    [
      "a cap that is not an integer",
      'policy:\n  max_frozen: "3"\n',
      '"policy.max_frozen" must be an integer, not "3" at line 2',
    ],
    [
      "a missing cap",
      "policy:\n  fail_on_expired: true\n",
      'missing key "policy.max_frozen" at line 1',
    ],
    ["an empty file", "", "the file is empty at line 1"],
    [
      "a key written twice",
      "policy:\n  max_frozen: 3\n  max_frozen: 4\n",
      'duplicate key "max_frozen" at line 3',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readFreezeList(text), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.equal(error.path, "freeze.yml");
        assert.ok(
          error.message.includes(message),
          `${JSON.stringify(error.message)} does not include ${
            JSON.stringify(message)
          }`,
        );
        return true;
      });
    });
  }
});

Deno.test("readFreezeList() refuses a file over the byte limit it is given, and only then", async (t) => {
  const bytes = new TextEncoder().encode(SEED_FREEZES).length;
  await t.step("over the limit", () => {
    assert.throws(
      () => readFreezeList(SEED_FREEZES, { maxBytes: bytes - 1 }),
      (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.match(error.message, new RegExp(`${bytes - 1}-byte limit`));
        return true;
      },
    );
  });
  await t.step("at the limit", () => {
    assert.equal(
      readFreezeList(SEED_FREEZES, { maxBytes: bytes }).freezes.length,
      1,
    );
  });
  await t.step("without a limit, up to the default", () => {
    assert.equal(readFreezeList(SEED_FREEZES).freezes.length, 1);
  });
});

Deno.test("readFreezeList() names the path it is given in its refusals", () => {
  assert.throws(
    () => readFreezeList("policy: {}\n", { path: "ci/freeze.yml" }),
    (error) => {
      assert.ok(error instanceof ContractSyntaxError);
      assert.equal(error.path, "ci/freeze.yml");
      return true;
    },
  );
});
