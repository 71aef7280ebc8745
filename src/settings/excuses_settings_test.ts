import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "./read_settings.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";

const GOOD = `[tests]
timeout_seconds = 60

[[excuses]]
test = "tests/test_io.py::test_locale_names"
owner = "platform-team"
expires = "2026-12-31T00:00:00Z"
reason = "Debian's Python 3.11 has no de_DE locale; PLAT-17"
`;

Deno.test("readSettings() has no excuses by default", () => {
  assert.deepEqual(DEFAULT_SETTINGS.excuses, []);
});

Deno.test("readSettings() reads [[excuses]] with test, owner, expiry and reason", () => {
  assert.deepEqual(readSettings(GOOD).excuses, [{
    test: "tests/test_io.py::test_locale_names",
    owner: "platform-team",
    expires: "2026-12-31T00:00:00Z",
    reason: "Debian's Python 3.11 has no de_DE locale; PLAT-17",
  }]);
});

Deno.test("readSettings() refuses an excuse it could not hold a human to, naming the key and its line", async (t) => {
  const cases: [string, string, string, RegExp, number][] = [
    ["an agent owner", "owner", '"agent"', /reads as "agent"/, 6],
    ["a look-alike agent owner", "owner", '"аgent"', /reads as "agent"/, 6],
    ["a fullwidth agent owner", "owner", '"ＡＧＥＮＴ"', /reads as "agent"/, 6],
    ["an invisible owner", "owner", '"\u200b "', /must name the human/, 6],
    ["a date without a time", "expires", '"2026-12-31"', /RFC 3339 instant/, 7],
    [
      "an unquoted TOML date-time",
      "expires",
      "2026-12-31T00:00:00Z",
      /must be a string/,
      7,
    ],
    ["a blank reason", "reason", '"  "', /must say why/, 8],
    ["an option for a test", "test", '"-p no:pawl"', /read as an option/, 5],
    ["an absolute test path", "test", '"/tmp/test_x.py"', /is absolute/, 5],
    ["a test path climbing out", "test", '"tests/../x.py::t"', /"\.\."/, 5],
    ["an empty test", "test", '""', /is empty/, 5],
  ];
  for (const [name, key, value, message, line] of cases) {
    await t.step(name, () => {
      const text = GOOD.replace(
        new RegExp(`^${key} = .*$`, "m"),
        `${key} = ${value}`,
      );
      assert.throws(() => readSettings(text, { path: "pawl.toml" }), (e) => {
        assert.ok(e instanceof ContractSyntaxError, String(e));
        assert.match(e.message, new RegExp(`excuses\\.0\\.${key}`));
        assert.match(e.message, message);
        assert.equal(e.line, line, e.message);
        return true;
      });
    });
  }
  await t.step("a missing owner", () => {
    assert.throws(
      () => readSettings(GOOD.replace(/^owner = .*\n/m, "")),
      /excuses\.0\.owner" at line 4 is missing/,
    );
  });
  await t.step("an unknown key", () => {
    assert.throws(
      () => readSettings(GOOD + 'until = "never"\n'),
      /unknown key "excuses\.0\.until"/,
    );
  });
});

Deno.test("readSettings() refuses two excuses of one test, pointing at the second", () => {
  const second = GOOD.slice(GOOD.indexOf("[[excuses]]"));
  assert.throws(() => readSettings(`${GOOD}\n${second}`), (e) => {
    assert.ok(e instanceof ContractSyntaxError);
    assert.match(e.message, /excuses\.1\.test/);
    assert.match(e.message, /one excuse per test/);
    assert.equal(e.line, 11, e.message);
    return true;
  });
});
