import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { tomlErrorSentence, tomlKeyLines } from "./toml_key_lines.ts";

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

Deno.test("tomlKeyLines() reads every spelling of a key TOML allows", async (t) => {
  const cases: [string, string[], (string | number)[], number | undefined][] = [
    [
      "a key after a comment and a blank line",
      ["# note", "", "a = 1"],
      ["a"],
      3,
    ],
    ["a bare key with a dash", ["min-props = 1"], ["min-props"], 1],
    ["a literal quoted key", ["'lit key' = 1"], ["lit key"], 1],
    ["an empty literal key", ["[t]", "'' = 1"], ["t", ""], 2],
    ["an escape in a quoted key", ['"a\\"b" = 1'], ['a"b'], 1],
    ["a quoted key JSON cannot read", ['"bad\\q" = 1'], ["bad\\q"], 1],
    ["a dotted key with spaces", ["a . b = 1"], ["a", "b"], 1],
    ["an indented array header", ["  [[property]]", "id = 1"], [
      "property",
      0,
      "id",
    ], 2],
    [
      "no key inside a multi-line literal string",
      [
        "note = '''",
        "hidden = 1",
        "'''",
        "shown = 2",
      ],
      ["hidden"],
      undefined,
    ],
    ["a dotted table's first part", ["x = 1", "[server.alpha]"], [
      "server",
    ], 2],
    ["a dotted key's first part", ["[t]", "a.b.c = 1"], ["t", "a"], 2],
    ["a dotted key's middle part", ["[t]", "a.b.c = 1"], ["t", "a", "b"], 2],
    [
      "a quoted key holding three quotes opens no string",
      [`"it'''s" = 1`, "next = 2"],
      ["next"],
      2,
    ],
    [
      "a value closing the string it opened on the same line",
      ['a = """one"""', "b = 2"],
      ["b"],
      2,
    ],
    [
      "a key after a multi-line literal string",
      [
        "note = '''",
        "hidden = 1",
        "'''",
        "shown = 2",
      ],
      ["shown"],
      4,
    ],
  ];
  for (const [name, rows, path, line] of cases) {
    await t.step(name, () => {
      assert.equal(tomlKeyLines(rows.join("\n"))(path), line);
    });
  }
});

Deno.test("tomlErrorSentence() keeps the sentence of a parse error, without its code frame or closing full stop", async (t) => {
  const cases: [string, string, string][] = [
    [
      "a missing value",
      'host = "h"\nport = \n',
      "Invalid TOML document: invalid value",
    ],
    [
      "nesting past the reader's depth, whose sentence ends in a full stop",
      `port = ${"[".repeat(1100)}${"]".repeat(1100)}\n`,
      "Invalid TOML document: document contains excessively nested structures. aborting",
    ],
  ];
  for (const [name, text, sentence] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseToml(text), (error: Error) => {
        assert.ok(error.message.includes("\n"));
        assert.equal(tomlErrorSentence(error.message), sentence);
        return true;
      });
    });
  }
});
