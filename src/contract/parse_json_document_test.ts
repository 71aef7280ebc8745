import assert from "node:assert/strict";
import fc from "fast-check";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { MAX_JSON_DEPTH, parseJsonDocument } from "./parse_json_document.ts";

Deno.test("parseJsonDocument() reads what JSON.parse reads", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(0, 2, "\t"), (value, space) => {
      const text = JSON.stringify(value, null, space);
      assert.deepEqual(
        parseJsonDocument(text, "x.json").value,
        JSON.parse(text),
      );
    }),
  );
});

Deno.test("parseJsonDocument() keeps the line of every key and item", () => {
  const doc = parseJsonDocument(
    '{\n  "policy": { "a": true },\r\n  "files": {\n    "t/a.json": "1",\r    "t/b.json": "2"\n  },\n  "list": [\n    1,\n    [2]\n  ]\n}\n',
    "x.lock",
  );
  assert.equal(doc.lineOf([]), 1);
  assert.equal(doc.lineOf(["policy"]), 2);
  assert.equal(doc.lineOf(["policy", "a"]), 2);
  assert.equal(doc.lineOf(["files"]), 3);
  assert.equal(doc.lineOf(["files", "t/a.json"]), 4);
  assert.equal(doc.lineOf(["files", "t/b.json"]), 5);
  assert.equal(doc.lineOf(["list", 1]), 9);
  assert.equal(doc.lineOf(["list", 1, 0]), 9);
  assert.equal(doc.lineOf(["nothing"]), undefined);
});

Deno.test("parseJsonDocument() keeps a __proto__ key as data", () => {
  const doc = parseJsonDocument('{"__proto__": {"polluted": 1}}', "x.json");
  const value = doc.value as Record<string, unknown>;
  assert.deepEqual(Object.keys(value), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
});

Deno.test("parseJsonDocument() refuses malformed input with its line", async (t) => {
  const cases: [string, string, RegExp, number][] = [
    [
      "a key repeated in one object",
      '{\n  "files": {\n    "a": "1",\n    "a": "2"\n  }\n}',
      /: duplicate key "files\.a" at line 4$/,
      4,
    ],
    [
      "a trailing comma",
      '{\n  "a": 1,\n}',
      /invalid JSON: unexpected "}", expected a string key/,
      3,
    ],
    ["a missing comma", '{\n  "a": 1\n  "b": 2\n}', /expected "," or "}"/, 3],
    [
      "an unterminated string",
      '{\n  "a": "x\n}',
      /control character in a string/,
      2,
    ],
    ["an unterminated string at the end", '{"a": "x', /unterminated string/, 1],
    ["a bad escape", '{"a": "\\x"}', /invalid escape/, 1],
    ["a single-quoted string", "{'a': 1}", /expected a string key/, 1],
    ["a bare word", '{"a": yes}', /expected a value/, 1],
    [
      "text after the value",
      "{}\n{}",
      /unexpected text after the JSON value/,
      2,
    ],
    ["an empty file", "", /unexpected end of input, expected a value/, 1],
    ["a leading zero", '{"a": 01}', /expected "," or "}"/, 1],
    ["a comment", '{"a": 1 // no\n}', /expected "," or "}"/, 1],
    [
      "nesting deeper than the limit",
      "[".repeat(MAX_JSON_DEPTH + 2),
      /nesting is deeper than 256 levels/,
      1,
    ],
    [
      "nesting one level deeper than the limit, closed",
      `${"[".repeat(MAX_JSON_DEPTH + 2)}${"]".repeat(MAX_JSON_DEPTH + 2)}`,
      /nesting is deeper than 256 levels/,
      1,
    ],
    ["one character after the value", "{}x", /unexpected text after/, 1],
    [
      "the last control character in a string",
      '{"a": "x\u001fy"}',
      /control character in a string/,
      1,
    ],
  ];
  for (const [name, text, message, line] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseJsonDocument(text, "fixtures.lock"), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.match(error.message, /^Cannot read contract "fixtures\.lock": /);
        assert.match(error.message, message);
        assert.equal(error.line, line);
        return true;
      });
    });
  }
});

Deno.test("parseJsonDocument() refuses input over the size cap before parsing", () => {
  assert.throws(
    () => parseJsonDocument(`"${"é".repeat(40)}"`, "x.json", { maxBytes: 50 }),
    /larger than the 50-byte limit/,
  );
});

Deno.test("parseJsonDocument() reads nesting as deep as the limit: that many levels below the top value", () => {
  const text = `${"[".repeat(MAX_JSON_DEPTH + 1)}${
    "]".repeat(MAX_JSON_DEPTH + 1)
  }`;
  assert.deepEqual(
    parseJsonDocument(text, "fixtures.lock").value,
    JSON.parse(text),
  );
});
