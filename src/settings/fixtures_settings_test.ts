import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "./read_settings.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";

Deno.test("readSettings() leaves the fixture roots to each layout when [fixtures] is absent", () => {
  assert.deepEqual(DEFAULT_SETTINGS.fixtures, {});
  assert.equal(readSettings("").fixtures.roots, undefined);
});

Deno.test("readSettings() reads fixture roots and drops one trailing slash", () => {
  const s = readSettings(
    '[fixtures]\nroots = ["tests/", "data/golden", "."]\n',
  );
  assert.deepEqual(s.fixtures.roots, ["tests", "data/golden", "."]);
});

Deno.test("readSettings() refuses a fixture root that is not a canonical relative directory, naming the key and line", async (t) => {
  const cases: [string, RegExp][] = [
    ['"../shared"', /"\.\." segment/],
    ['"/srv/fixtures"', /is absolute/],
    ['"tests/./fixtures"', /"\." segment/],
    ['"tests//fixtures"', /empty segment/],
    ['""', /is empty: write "\." for the whole repository/],
    ['"tests\\\\fixtures"', /backslash/],
    ['"C:/fixtures"', /is absolute/],
  ];
  for (const [root, message] of cases) {
    await t.step(root, () => {
      const text =
        `[tests]\ntimeout_seconds = 60\n\n[fixtures]\nroots = ["tests", ${root}]\n`;
      assert.throws(() => readSettings(text, { path: "pawl.toml" }), (e) => {
        assert.ok(e instanceof ContractSyntaxError, String(e));
        assert.match(e.message, /pawl\.toml/);
        assert.match(e.message, /fixtures\.roots/);
        assert.match(e.message, message);
        assert.equal(e.line, 5, e.message);
        return true;
      });
    });
  }
});

Deno.test("readSettings() refuses an empty list of fixture roots and unknown [fixtures] keys", () => {
  assert.throws(
    () => readSettings("[fixtures]\nroots = []\n"),
    /fixtures\.roots/,
  );
  assert.throws(
    () => readSettings('[fixtures]\nroot = "tests"\n'),
    /unknown key "fixtures\.root"/,
  );
});
