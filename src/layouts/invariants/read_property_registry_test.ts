import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { readPropertyRegistry } from "./read_property_registry.ts";

const A = "a".repeat(64);
const B = "b".repeat(64);

/** Seed 003's example registry, with real-length hashes. */
const SEED_REGISTRY =
  `# invariants.toml — human-owned. Agent PRs cannot delete keys.
[policy]
min_properties = 8
allow_agent_additions = true

[[property]]
id = "parse.roundtrip.json"
module = "tests.properties.test_parse"
function = "test_json_roundtrip"
source_sha256 = "${A}"

[[property]]
id = "queue.lease.not_double_ack"
module = "tests.properties.test_queue"
function = "test_lease_not_double_ack"
source_sha256 = "${B}"
`;

const POLICY = "[policy]\nmin_properties = 1\nallow_agent_additions = false\n";

function row(id: string, extra = "", sha = A): string {
  return `\n[[property]]\nid = "${id}"\nmodule = "tests.test_p"\nfunction = "test_p"\nsource_sha256 = "${sha}"\n${extra}`;
}

Deno.test("readPropertyRegistry() reads the seed's example registry", () => {
  const registry = readPropertyRegistry(SEED_REGISTRY);
  assert.deepEqual(registry.policy, {
    minProperties: 8,
    allowAgentAdditions: true,
  });
  assert.deepEqual(registry.properties, [
    {
      id: "parse.roundtrip.json",
      module: "tests.properties.test_parse",
      function: "test_json_roundtrip",
      sourceSha256: A,
      index: 0,
    },
    {
      id: "queue.lease.not_double_ack",
      module: "tests.properties.test_queue",
      function: "test_lease_not_double_ack",
      sourceSha256: B,
      index: 1,
    },
  ]);
  assert.equal(registry.lineOf(["policy", "min_properties"]), 3);
  assert.equal(registry.lineOf(["property", 0]), 6);
  assert.equal(registry.lineOf(["property", 1, "source_sha256"]), 16);
});

Deno.test("readPropertyRegistry() reads a registry without properties", () => {
  assert.deepEqual(readPropertyRegistry(POLICY).properties, []);
});

Deno.test("readPropertyRegistry() refuses a malformed registry, naming the key and line", async (t) => {
  const cases: [string, string, string][] = [
    [
      "an unknown top-level key",
      `notes = "x"\n${POLICY}`,
      'unknown key "notes" at line 1',
    ],
    [
      "an unknown policy key",
      `${POLICY}max_frozen = 3\n`,
      'unknown key "policy.max_frozen" at line 4',
    ],
    [
      "an unknown property key",
      POLICY + row("a") + row("b", 'owner = "agent"\n'),
      'unknown key "property[1].owner" at line 16',
    ],
    [
      "a duplicate id",
      POLICY + row("a") + row("a"),
      'duplicate id "a" in "property" at line 12',
    ],
    [
      "a string where an integer belongs",
      '[policy]\nmin_properties = "8"\nallow_agent_additions = false\n',
      '"policy.min_properties" must be an integer, not "8" at line 2',
    ],
    [
      "a negative minimum",
      "[policy]\nmin_properties = -1\nallow_agent_additions = false\n",
      '"policy.min_properties" must be an integer of at least 0, not -1 at line 2',
    ],
    [
      "a string where a boolean belongs",
      '[policy]\nmin_properties = 1\nallow_agent_additions = "no"\n',
      '"policy.allow_agent_additions" must be true or false, not "no" at line 3',
    ],
    [
      "a missing policy key",
      "[policy]\nmin_properties = 1\n",
      'missing key "policy.allow_agent_additions" at line 1',
    ],
    ["a missing policy", row("a"), 'missing key "policy" at line 1'],
    [
      "a placeholder source hash",
      POLICY + row("a", "", "a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4"),
      '"property[0].source_sha256" is not a source hash: expected a 64-character lowercase sha256, not "a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4" at line 9',
    ],
    [
      "an upper-case source hash",
      POLICY + row("a", "", "A".repeat(64)),
      `expected a 64-character lowercase sha256, not "${
        "A".repeat(64)
      }" at line 9`,
    ],
    [
      "a module that is a path",
      POLICY +
      '[[property]]\nid = "a"\nmodule = "tests/test_p.py"\nfunction = "test_p"\nsource_sha256 = "' +
      A + '"\n',
      '"property[0].module" must be a dotted Python module name such as tests.properties.test_parse at line 6',
    ],
    [
      "a method as the function",
      POLICY +
      '[[property]]\nid = "a"\nmodule = "tests.test_p"\nfunction = "TestP.test_p"\nsource_sha256 = "' +
      A + '"\n',
      '"property[0].function" must be a module-level function name such as test_roundtrip at line 7',
    ],
    [
      "a TOML syntax error",
      "[policy]\nmin_properties = \nallow_agent_additions = false\n",
      "invalid TOML: invalid value at line 2",
    ],
    [
      "a key defined twice",
      "[policy]\nmin_properties = 1\nmin_properties = 2\nallow_agent_additions = false\n",
      "invalid TOML: trying to redefine an already defined table or value at line 3",
    ],
    [
      "a property table that is not an array of tables",
      `${POLICY}[property]\nid = "a"\n`,
      '"property" must be a list, not a mapping at line 4',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readPropertyRegistry(text), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.equal(error.path, "invariants.toml");
        assert.ok(
          error.message.startsWith('Cannot read contract "invariants.toml": '),
        );
        assert.ok(
          error.message.endsWith(message),
          `${JSON.stringify(error.message)} does not end with ${
            JSON.stringify(message)
          }`,
        );
        return true;
      });
    });
  }
});

Deno.test("readPropertyRegistry() refuses a file over the size cap", () => {
  assert.throws(
    () =>
      readPropertyRegistry(`# ${"é".repeat(60)}\n${POLICY}`, { maxBytes: 100 }),
    /larger than the 100-byte limit/,
  );
});

Deno.test("readPropertyRegistry() takes a source hash only as exactly 64 lowercase hex digits", async (t) => {
  const cases: [string, string, boolean][] = [
    ["64 digits", A, true],
    ["65 digits", `${A}0`, false],
    ["64 digits after a letter that is not hex", `x${A}`, false],
    ["64 digits before a letter that is not hex", `${A}x`, false],
    ["63 digits", A.slice(1), false],
  ];
  for (const [name, sha, accepted] of cases) {
    await t.step(`${name} is ${accepted ? "taken" : "refused"}`, () => {
      const read = () => readPropertyRegistry(POLICY + row("a", "", sha));
      if (accepted) assert.equal(read().properties[0]?.sourceSha256, sha);
      else {assert.throws(
          read,
          /"property\[0\]\.source_sha256" is not a source hash/,
        );}
    });
  }
});

Deno.test("readPropertyRegistry() takes an id only when it is non-blank, without surrounding spaces or control characters", async (t) => {
  // Each id as written inside a TOML basic string.
  const cases: [string, string, boolean][] = [
    ["a dotted id", "parse.roundtrip.json", true],
    ["an id with inner spaces", "parse roundtrip json", true],
    ["a non-ASCII id", "décodage", true],
    ["an empty id", "", false],
    ["a blank id", "   ", false],
    ["an id with a leading space", " parse", false],
    ["an id with a trailing space", "parse ", false],
    ["an id ending in a newline", "parse\\n", false],
    ["an id with a tab inside", "parse\\tjson", false],
  ];
  for (const [name, id, accepted] of cases) {
    await t.step(`${name} is ${accepted ? "taken" : "refused"}`, () => {
      const text = POLICY + row(id);
      if (accepted) {
        assert.equal(readPropertyRegistry(text).properties[0]?.id, id);
        return;
      }
      assert.throws(() => readPropertyRegistry(text), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.equal(
          error.message,
          'Cannot read contract "invariants.toml": "property[0].id" must be a non-blank id without surrounding spaces at line 6',
        );
        return true;
      });
    });
  }
});

Deno.test("readPropertyRegistry() names a repeated id and the earlier id a look-alike repeats", async (t) => {
  const cases: [string, string, string][] = [
    ["the same id", "a", 'duplicate id "a" in "property"'],
    [
      "an id that differs only in case",
      "A",
      'duplicate id "A" (it reads as "a", an earlier id) in "property"',
    ],
  ];
  for (const [name, id, detail] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => readPropertyRegistry(POLICY + row("a") + row(id)),
        (error) => {
          assert.ok(error instanceof ContractSyntaxError);
          assert.equal(
            error.message,
            `Cannot read contract "invariants.toml": ${detail} at line 12`,
          );
          return true;
        },
      );
    });
  }
});

Deno.test("readPropertyRegistry() names the path it is given and caps files at 1 MiB by default", async (t) => {
  await t.step("a given path names the file in the error", () => {
    assert.throws(
      () => readPropertyRegistry("[policy]\n", { path: "sub/invariants.toml" }),
      (error) =>
        error instanceof ContractSyntaxError &&
        error.path === "sub/invariants.toml" &&
        error.message.startsWith(
          'Cannot read contract "sub/invariants.toml": ',
        ),
    );
  });
  const padding = (bytes: number) =>
    `# ${"x".repeat(bytes - POLICY.length - 3)}\n`;
  await t.step("a file of exactly 1 MiB is read", () => {
    const text = padding(1024 * 1024) + POLICY;
    assert.equal(new TextEncoder().encode(text).length, 1024 * 1024);
    assert.equal(readPropertyRegistry(text).policy.minProperties, 1);
  });
  await t.step("a file one byte over 1 MiB is refused", () => {
    assert.throws(
      () => readPropertyRegistry(padding(1024 * 1024 + 1) + POLICY),
      /larger than the 1048576-byte limit/,
    );
  });
});
