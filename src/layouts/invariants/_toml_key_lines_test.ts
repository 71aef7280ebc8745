import assert from "node:assert/strict";
import { tomlKeyLines } from "./_toml_key_lines.ts";

Deno.test("tomlKeyLines() finds tables, arrays of tables and keys", () => {
  const lineOf = tomlKeyLines([
    "title = 'x'", // 1
    "[policy]", // 2
    "min_properties = 8 # comment", // 3
    '"quoted key" = true', // 4
    "[[property]]", // 5
    'id = "a"', // 6
    'note = """', // 7
    "[[property]]", // 8: inside a multi-line string
    'not = "a key"', // 9: inside a multi-line string
    '"""', // 10
    "[[property]]", // 11
    "  id = 'b'", // 12
    "a.b.c = 1", // 13
    "[ server.alpha ]", // 14
    "ip = '10.0.0.1'", // 15
  ].join("\r\n"));
  assert.equal(lineOf([]), 1);
  assert.equal(lineOf(["title"]), 1);
  assert.equal(lineOf(["policy"]), 2);
  assert.equal(lineOf(["policy", "min_properties"]), 3);
  assert.equal(lineOf(["policy", "quoted key"]), 4);
  assert.equal(lineOf(["property"]), 5);
  assert.equal(lineOf(["property", 0, "id"]), 6);
  assert.equal(lineOf(["property", 0, "not"]), undefined);
  assert.equal(lineOf(["property", 1]), 11);
  assert.equal(lineOf(["property", 1, "id"]), 12);
  assert.equal(lineOf(["property", 1, "a", "b", "c"]), 13);
  assert.equal(lineOf(["server", "alpha", "ip"]), 15);
  assert.equal(lineOf(["property", 2]), undefined);
});
