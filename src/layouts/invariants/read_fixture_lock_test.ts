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
      "a misspelt policy key, suggesting the key it is close to",
      `{\n  "policy": { "allow_rotate_on_agent_prs": false },\n  "files": {}\n}`,
      'unknown key "policy.allow_rotate_on_agent_prs" at line 2; did you mean "allow_rotate_on_agent_pr"?',
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

function lockWith(digest: unknown): string {
  return JSON.stringify({
    policy: { allow_rotate_on_agent_pr: true },
    files: { "tests/fixtures/a.json": digest },
  });
}

Deno.test("readFixtureLock() takes a digest only as exactly 64 lowercase hex digits, and calls only 32 of them a placeholder", async (t) => {
  const cases: [string, unknown, "taken" | "refused" | "placeholder"][] = [
    ["64 digits", E, "taken"],
    ["65 digits", `${E}0`, "refused"],
    ["64 digits after a letter that is not hex", `x${E}`, "refused"],
    ["64 digits before a letter that is not hex", `${E}x`, "refused"],
    ["32 digits", "e".repeat(32), "placeholder"],
    ["33 digits", "e".repeat(33), "refused"],
    [
      "32 digits after a letter that is not hex",
      `x${"e".repeat(32)}`,
      "refused",
    ],
    [
      "32 digits before a letter that is not hex",
      `${"e".repeat(32)}x`,
      "refused",
    ],
  ];
  for (const [name, digest, outcome] of cases) {
    await t.step(`${name}: ${outcome}`, () => {
      const read = () => readFixtureLock(lockWith(digest));
      if (outcome === "taken") {
        assert.equal(read().files.get("tests/fixtures/a.json"), digest);
        return;
      }
      assert.throws(read, (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.match(error.message, /is not a fixture digest/);
        assert.equal(
          error.message.includes("placeholders"),
          outcome === "placeholder",
        );
        return true;
      });
    });
  }
});

Deno.test("readFixtureLock() names the path it is given and refuses a file over the size cap", async (t) => {
  await t.step("a given path names the file in the error", () => {
    assert.throws(
      () => readFixtureLock("{}", { path: "sub/fixtures.lock" }),
      (error) =>
        error instanceof ContractSyntaxError &&
        error.path === "sub/fixtures.lock" &&
        error.message.startsWith('Cannot read contract "sub/fixtures.lock": '),
    );
  });
  await t.step("a file over a given cap is refused", () => {
    assert.throws(
      () => readFixtureLock(lockWith(E), { maxBytes: 100 }),
      /larger than the 100-byte limit/,
    );
  });
  await t.step("a file within a given cap is read", () => {
    const text = lockWith(E);
    const lock = readFixtureLock(text, { maxBytes: text.length });
    assert.equal(lock.policy.allowRotateOnAgentPr, true);
  });
});
