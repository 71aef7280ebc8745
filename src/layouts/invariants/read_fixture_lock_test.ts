import assert from "node:assert/strict";
import { ContractSyntaxError } from "../../contract/contract_syntax_error.ts";
import { readFixtureLock } from "./read_fixture_lock.ts";

const E = "e".repeat(64);
const C = "c".repeat(64);

Deno.test("readFixtureLock() reads a lock with its lines", () => {
  const lock = readFixtureLock(`{
  "policy": { "allow_rotate_on_agent_pr": false },
  "files": {
    "tests/fixtures/http/get_user_200.json": "${E}",
    "testdata/seed_orders.sql": "${C}"
  }
}
`);
  assert.deepEqual(lock.policy, { allowRotateOnAgentPr: false });
  assert.deepEqual(
    [...lock.files],
    [
      ["tests/fixtures/http/get_user_200.json", E],
      ["testdata/seed_orders.sql", C],
    ],
  );
  assert.equal(lock.lineOf(["files", "testdata/seed_orders.sql"]), 5);
  assert.equal(lock.lineOf(["policy", "allow_rotate_on_agent_pr"]), 2);
});

Deno.test("readFixtureLock() refuses a malformed lock, naming the key and line", async (t) => {
  const policy = '"policy": { "allow_rotate_on_agent_pr": false }';
  const cases: [string, string, string][] = [
    [
      "the seed's 32-digit placeholder digest",
      `{\n  ${policy},\n  "files": {\n    "tests/fixtures/http/get_user_200.json": "e3b0c44298fc1c149afbf4c8996fb924"\n  }\n}`,
      `"files.tests/fixtures/http/get_user_200.json" is not a fixture digest: expected a 64-character lowercase sha256, not "e3b0c44298fc1c149afbf4c8996fb924" (the seed's 32-digit examples are placeholders) at line 4`,
    ],
    [
      "an upper-case digest",
      `{\n  ${policy},\n  "files": { "a.json": "${"E".repeat(64)}" }\n}`,
      `expected a 64-character lowercase sha256, not "${
        "E".repeat(64)
      }" at line 3`,
    ],
    [
      "a path locked twice",
      `{\n  ${policy},\n  "files": {\n    "a.json": "${E}",\n    "a.json": "${C}"\n  }\n}`,
      'duplicate key "files.a.json" at line 5',
    ],
    [
      "a policy written twice",
      `{\n  ${policy},\n  "files": {},\n  "policy": { "allow_rotate_on_agent_pr": true }\n}`,
      'duplicate key "policy" at line 4',
    ],
    [
      "an unknown top-level key",
      `{\n  ${policy},\n  "files": {},\n  "notes": "x"\n}`,
      'unknown key "notes" at line 4',
    ],
    [
      "an unknown policy key",
      `{\n  "policy": {\n    "allow_rotate_on_agent_pr": false,\n    "allow_rotate": true\n  },\n  "files": {}\n}`,
      'unknown key "policy.allow_rotate" at line 4',
    ],
    [
      "a string where a boolean belongs",
      `{\n  "policy": { "allow_rotate_on_agent_pr": "false" },\n  "files": {}\n}`,
      '"policy.allow_rotate_on_agent_pr" must be true or false, not "false" at line 2',
    ],
    [
      "a list of files",
      `{\n  ${policy},\n  "files": ["a.json"]\n}`,
      '"files" must be a mapping, not a list at line 3',
    ],
    [
      "a missing policy",
      `{\n  "files": {}\n}`,
      'missing key "policy" at line 1',
    ],
    [
      "a JSON syntax error",
      `{\n  ${policy},\n  "files": {},\n}`,
      'invalid JSON: unexpected "}", expected a string key at line 4',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => readFixtureLock(text), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.equal(error.path, "fixtures.lock");
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
