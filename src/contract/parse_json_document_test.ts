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

Deno.test("parseJsonDocument() reads an exponent with or without its sign", () => {
  const text = "[1e5, 2E3, -0.5e-2, 4e+1]";
  assert.deepEqual(parseJsonDocument(text, "x.json").value, JSON.parse(text));
});

Deno.test("parseJsonDocument() reads every escape JSON allows in a string", () => {
  const text =
    '["a\\/b", "\\u0041", {"\\u00e9t\\u00e9": "\\"\\\\\\b\\f\\n\\r\\t"}]';
  assert.deepEqual(parseJsonDocument(text, "x.json").value, JSON.parse(text));
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
    [
      "a point with no digit after it",
      '{"a": 1.}',
      /expected "," or "}"/,
      1,
    ],
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

Deno.test("parseJsonDocument() takes a document of 1 MiB by default, and refuses one byte more", () => {
  const of = (bytes: number) => `"${"a".repeat(bytes - 2)}"`;
  assert.equal(
    (parseJsonDocument(of(1024 * 1024), "fixtures.lock").value as string)
      .length,
    1024 * 1024 - 2,
  );
  assert.throws(
    () => parseJsonDocument(of(1024 * 1024 + 1), "fixtures.lock"),
    /larger than the 1048576-byte limit/,
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

Deno.test("parseJsonDocument() names the line and column of each refusal", async (t) => {
  const cases: [string, string, string, number, number][] = [
    [
      "a repeated key, at the repeat",
      '{\n  "files": {\n    "a": "1",\n    "a": "2"\n  }\n}',
      'duplicate key "files.a"',
      4,
      5,
    ],
    [
      "a repeated key after a CRLF line end",
      '{"a": 1,\r\n"a": 2}',
      'duplicate key "a"',
      2,
      1,
    ],
    [
      "a repeated key after a lone CR line end",
      '{"a": 1,\r"a": 2}',
      'duplicate key "a"',
      2,
      1,
    ],
    [
      "a key inherited by every object, repeated",
      '{"constructor": 1, "constructor": 2}',
      'duplicate key "constructor"',
      1,
      20,
    ],
    [
      "a missing colon",
      '{\n  "a" 1\n}',
      'invalid JSON: unexpected "1", expected ":"',
      2,
      7,
    ],
    [
      "a missing value",
      '{"a": }',
      'invalid JSON: unexpected "}", expected a value',
      1,
      7,
    ],
    [
      "a truncated literal",
      '{"a": nul}',
      'invalid JSON: unexpected "n", expected a value',
      1,
      7,
    ],
    [
      "a truncated object",
      '{"a": 1',
      'invalid JSON: unexpected end of input, expected "," or "}"',
      1,
      8,
    ],
    [
      "a missing comma in a list",
      "[1 2]",
      'invalid JSON: unexpected "2", expected "," or "]"',
      1,
      4,
    ],
    [
      "a truncated array",
      "[1, 2",
      'invalid JSON: unexpected end of input, expected "," or "]"',
      1,
      6,
    ],
    [
      "an unterminated string, at its opening quote",
      '{"a": "xyz',
      "invalid JSON: unterminated string",
      1,
      7,
    ],
    [
      "a vertical-tab escape",
      '{"a": "\\v"}',
      "invalid JSON: invalid escape in a string",
      1,
      8,
    ],
    [
      "a short unicode escape at the end",
      '{"a": "\\u12',
      "invalid JSON: invalid escape in a string",
      1,
      8,
    ],
    [
      "a hex escape",
      '{"a": "\\x0041"}',
      "invalid JSON: invalid escape in a string",
      1,
      8,
    ],
    [
      "text after the value, at the start of a line",
      "[\n]x",
      "invalid JSON: unexpected text after the JSON value",
      2,
      2,
    ],
  ];
  for (const [name, text, detail, line, column] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseJsonDocument(text, "fixtures.lock"), (error) => {
        assert.ok(error instanceof ContractSyntaxError);
        assert.equal(error.detail, detail);
        assert.equal(error.line, line);
        assert.equal(error.column, column);
        return true;
      });
    });
  }
});

Deno.test("parseJsonDocument() reads keys every object inherits as plain keys", () => {
  const doc = parseJsonDocument('{"constructor": 1,\n"toString": 2}', "x.json");
  assert.deepEqual(doc.value, { constructor: 1, toString: 2 });
  assert.equal(doc.lineOf(["toString"]), 2);
});

Deno.test("parseJsonDocument() gives keys as plain data properties, as JSON.parse does", () => {
  const text = '{"a": 1, "__proto__": {"b": [true]}}';
  const value = parseJsonDocument(text, "x.json").value as object;
  const parsed = JSON.parse(text);
  for (const key of ["a", "__proto__"]) {
    assert.deepStrictEqual(
      Object.getOwnPropertyDescriptor(value, key),
      Object.getOwnPropertyDescriptor(parsed, key),
    );
  }
});
