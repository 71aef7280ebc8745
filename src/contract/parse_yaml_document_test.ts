import assert from "node:assert/strict";
import process from "node:process";
import { ContractSyntaxError } from "./contract_syntax_error.ts";
import { parseYamlDocument } from "./parse_yaml_document.ts";
import { loadYamlParser, withYamlParser } from "./parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

const PATH = "tests/agent_contract.yaml";

function refusal(text: string, options: { maxBytes?: number } = {}) {
  try {
    parseYamlDocument(text, PATH, options);
  } catch (error) {
    assert.ok(error instanceof ContractSyntaxError);
    assert.ok(error instanceof SyntaxError);
    assert.equal(error.path, PATH);
    return error;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be refused`);
}

Deno.test("parseYamlDocument() returns the plain value and the line of every key and item", () => {
  const doc = parseYamlDocument(
    "version: 1\nlist:\n  - id: a\n    n: 1\n\n  - id: b\n    n: 2\nwhen: 2026-09-22T00:00:00Z\n",
    PATH,
  );
  assert.deepEqual(doc.value, {
    version: 1,
    list: [{ id: "a", n: 1 }, { id: "b", n: 2 }],
    when: "2026-09-22T00:00:00Z",
  });
  assert.equal(doc.lineOf([]), 1);
  assert.equal(doc.lineOf(["version"]), 1);
  assert.equal(doc.lineOf(["list"]), 2);
  assert.equal(doc.lineOf(["list", 0]), 3);
  assert.equal(doc.lineOf(["list", 1]), 6);
  assert.equal(doc.lineOf(["list", 1, "n"]), 7);
  assert.equal(doc.lineOf(["when"]), 8);
  assert.equal(doc.lineOf(["missing"]), undefined);
  assert.equal(doc.lineOf(["list", 2]), undefined);
  assert.equal(doc.lineOf(["version", "deeper"]), undefined);
});

Deno.test("parseYamlDocument() reads an empty document as null", () => {
  assert.equal(parseYamlDocument("", PATH).value, null);
  assert.equal(parseYamlDocument("# only a comment\n", PATH).value, null);
});

Deno.test("parseYamlDocument() keeps __proto__ as a plain key", () => {
  const value = parseYamlDocument("__proto__: {polluted: 1}\n", PATH)
    .value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
});

Deno.test("parseYamlDocument() refuses", async (t) => {
  const cases: {
    name: string;
    text: string;
    detail: RegExp;
    line?: number;
    column?: number;
    maxBytes?: number;
  }[] = [
    {
      name: "a NUL byte in a comment, with its line and column",
      text: "version: 1\n# note \0 here\nother: 3\n",
      detail: /^invalid YAML: character U\+0000 \(NUL\) is not allowed/,
      line: 2,
      column: 8,
    },
    {
      name: "a NUL byte inside a double-quoted value",
      text: 'version: 1\nowner: "ag\0ent"\n',
      detail: /^invalid YAML: character U\+0000 \(NUL\) is not allowed/,
      line: 2,
      column: 11,
    },
    {
      name: "a NUL byte inside a single-quoted value",
      text: "owner: 'a\0'\n",
      detail: /U\+0000/,
      line: 1,
      column: 10,
    },
    {
      name: "a NUL byte in a key",
      text: "a\0b: 1\n",
      detail: /U\+0000/,
      line: 1,
      column: 2,
    },
    ...[1, 8, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x80, 0x9f, 0xfffe, 0xffff].map(
      (code) => ({
        name: `the forbidden character U+${code.toString(16)}`,
        text: `a: "x${String.fromCharCode(code)}"\n`,
        detail: new RegExp(
          `^invalid YAML: character U\\+${
            code.toString(16).toUpperCase().padStart(4, "0")
          } is not allowed, column 6$`,
        ),
        line: 1,
        column: 6,
      }),
    ),
    {
      name: "a lone high surrogate",
      text: 'a: "x\uD800"\n',
      detail: /U\+D800 \(a lone surrogate\)/,
      line: 1,
      column: 6,
    },
    {
      name: "a lone low surrogate",
      text: "a: 1\n# \uDC00\n",
      detail: /U\+DC00 \(a lone surrogate\)/,
      line: 2,
      column: 3,
    },
    {
      name: "a byte order mark after the start",
      text: "a: 1\n\uFEFFb: 2\n",
      detail: /U\+FEFF \(a byte order mark after the start\)/,
      line: 2,
      column: 1,
    },
    {
      name: "a byte order mark after one at the start",
      text: "\uFEFFa: \uFEFF\n",
      detail: /U\+FEFF/,
      line: 1,
      column: 5,
    },
    {
      name: "a syntax error, with its line",
      text: "version: 1\nlist: [1, 2\nother: 3\n",
      detail: /^invalid YAML: /,
      line: 3,
    },
    {
      name: "tabs used for indentation",
      text: "a:\n\tb: 1\n",
      detail: /^invalid YAML: /,
      line: 2,
    },
    {
      name: "a duplicate key, naming it",
      text: "version: 1\nnotes: a\nnotes: b\n",
      detail: /^duplicate key "notes"$/,
      line: 3,
    },
    {
      name: "a duplicate key in a flow mapping",
      text: "{a: 1, a: 2}\n",
      detail: /^duplicate key "a"$/,
      line: 1,
    },
    {
      name: "an alias",
      text: "a: &x 1\nb: *x\n",
      detail: /^aliases are not allowed \(found "\*x"\)$/,
      line: 2,
    },
    {
      name: "an anchor even when nothing refers to it",
      text: "a: 1\nb: &x 2\n",
      detail: /^anchors are not allowed \(found "&x"\)$/,
      line: 2,
    },
    {
      name: "an anchor on a collection",
      text: "a: &list\n  - 1\n",
      detail: /^anchors are not allowed/,
    },
    {
      name: "an anchor on a map key",
      text: "a: 1\n&k b: 2\n",
      detail: /^anchors are not allowed \(found "&k"\)$/,
      line: 2,
    },
    {
      name: "an alias deep in a list of maps, before a later anchor",
      text: "items:\n  - a: 1\n  - b: [1, *x]\n  - c: &y 3\n",
      detail: /^aliases are not allowed \(found "\*x"\)$/,
      line: 3,
    },
    {
      name: "the first of two anchors in document order",
      text: "items:\n  - &first a\n  - b: &second 2\n",
      detail: /^anchors are not allowed \(found "&first"\)$/,
      line: 2,
    },
    {
      name: "an alias to an undefined anchor",
      text: "b: *nowhere\n",
      detail: /^aliases are not allowed \(found "\*nowhere"\)$/,
    },
    {
      name: "a merge key",
      text: "base: &b {x: 1}\nc:\n  <<: *b\n",
      detail: /^aliases are not allowed/,
    },
    {
      name: "an unresolved tag",
      text: "a: !custom 1\n",
      detail: /^invalid YAML: unresolved tag/,
      line: 1,
    },
    {
      name: "a collection used as a key",
      text: "? [a, b]\n: 1\n",
      detail: /^map keys must be plain values$/,
      line: 1,
    },
    {
      name: "more than one document",
      text: "a: 1\n---\nb: 2\n",
      detail: /^more than one YAML document$/,
      line: 2,
    },
    {
      name: "input over the size cap",
      text: "a: 1\n".repeat(10),
      maxBytes: 49,
      detail: /^the file is larger than the 49-byte limit$/,
    },
    {
      name: "input one byte over the default cap of 1 MiB",
      text: `a: ${"b".repeat(1024 * 1024 - 2)}`,
      detail: /^the file is larger than the 1048576-byte limit$/,
    },
    {
      name:
        "input whose UTF-8 bytes exceed the cap though its characters do not",
      text: "a: éééé",
      maxBytes: 10,
      detail: /^the file is larger than the 10-byte limit$/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const error = refusal(
        c.text,
        c.maxBytes === undefined ? {} : { maxBytes: c.maxBytes },
      );
      assert.match(error.detail, c.detail);
      if (c.line !== undefined) assert.equal(error.line, c.line);
      if (c.column !== undefined) assert.equal(error.column, c.column);
    });
  }
});

Deno.test("parseYamlDocument() names the line and column of a forbidden character in its message", () => {
  const error = refusal('a: 1\nb: "\0"\n', {});
  assert.equal(
    error.message,
    'Cannot read contract "tests/agent_contract.yaml": invalid YAML: character U+0000 (NUL) is not allowed at line 2, column 5',
  );
});

Deno.test("parseYamlDocument() accepts every character YAML allows", () => {
  const text =
    'a: "tab\t nel\x85 nbsp\xA0 \uD7FF \uE000 \uFFFD \u{10000} \u{10FFFF}"\r\n';
  const doc = parseYamlDocument(`\uFEFF${text}`, "x.yaml");
  assert.equal(typeof (doc.value as { a: unknown }).a, "string");
});

Deno.test("parseYamlDocument() accepts input exactly at the size cap", () => {
  const text = `a: ${"x".repeat(47)}`;
  assert.equal(new TextEncoder().encode(text).length, 50);
  assert.deepEqual(parseYamlDocument(text, PATH, { maxBytes: 50 }).value, {
    a: "x".repeat(47),
  });
  const mib = `a: ${"x".repeat(1024 * 1024 - 3)}`;
  assert.deepEqual(parseYamlDocument(mib, PATH).value, {
    a: "x".repeat(1024 * 1024 - 3),
  }, "1 MiB, the default cap");
});

Deno.test("parseYamlDocument() refuses oversized input before parsing it", () => {
  // Invalid YAML far over the cap: the size error wins, so it was not parsed.
  const error = refusal("[".repeat(2_000_000));
  assert.match(error.detail, /larger than the 1048576-byte limit/);
  assert.equal(error.line, undefined);
});

Deno.test("parseYamlDocument() refuses nesting too deep for the parser as invalid YAML", () => {
  const error = refusal("[".repeat(100_000) + "]".repeat(100_000));
  assert.match(error.detail, /^invalid YAML: /);
});

Deno.test("parseYamlDocument() leaves process.env as it found it", () => {
  const live = process.env;
  parseYamlDocument("a: 1\n", PATH);
  assert.equal(process.env, live);
  assert.throws(() => parseYamlDocument("a: [1\n", PATH));
  assert.equal(process.env, live);
  assert.equal(process.env.PATH, Deno.env.get("PATH"));
});

Deno.test("parseYamlDocument() reads plain YAML without the full parser, and withYamlParser() loads it when a text needs it", async () => {
  // A fresh process: in this one the parser is loaded above.
  const module = new URL("./parse_yaml_document.ts", import.meta.url).href;
  const code = `
    const m = await import(${JSON.stringify(module)});
    const out = [];
    out.push(JSON.stringify(m.parseYamlDocument("a: 1\\n", "x.yaml").value));
    try {
      m.parseYamlDocument("a: [1, 2]\\n", "x.yaml");
      out.push("parsed");
    } catch (error) {
      out.push(error instanceof m.YamlParserNotLoadedError ? \`not loaded (\${error.name}: \${error.message})\` : String(error));
    }
    let calls = 0;
    const doc = await m.withYamlParser(() => {
      calls++;
      return m.parseYamlDocument("a: [1, 2]\\n", "x.yaml");
    });
    out.push(JSON.stringify(doc.value), String(calls));
    const error = await m.withYamlParser(() => m.parseYamlDocument("a: [1\\n", "x.yaml")).catch((e) => e);
    out.push(error.constructor.name);
    console.log(out.join(" | "));
  `;
  const root = new URL("../../", import.meta.url);
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--node-modules-dir=manual", code],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(result.stderr);
  assert.equal(result.code, 0, stderr);
  assert.equal(
    new TextDecoder().decode(result.stdout).trim(),
    '{"a":1} | not loaded (YamlParserNotLoadedError: the full YAML parser is not loaded (load it with loadYamlParser first)) | {"a":[1,2]} | 2 | ContractSyntaxError',
  );
});

Deno.test("parseYamlDocument() refuses each forbidden character wherever it sits, naming its line and column", async (t) => {
  const cases: [string, string, RegExp, number, number][] = [
    [
      "a NUL as the first character",
      "\0a: 1\n",
      /^invalid YAML: character U\+0000 \(NUL\)/,
      1,
      1,
    ],
    [
      "a DEL as the first character",
      "\x7Fa: 1\n",
      /^invalid YAML: character U\+007F is not allowed/,
      1,
      1,
    ],
    [
      "the last lone surrogate",
      'a: "x\uDFFF"\n',
      /U\+DFFF \(a lone surrogate\)/,
      1,
      6,
    ],
    [
      "a control character after a byte order mark",
      "\uFEFF\x01a: 1\n",
      /U\+0001/,
      1,
      2,
    ],
  ];
  for (const [name, text, detail, line, column] of cases) {
    await t.step(name, () => {
      const error = refusal(text);
      assert.match(error.detail, detail);
      assert.equal(error.line, line);
      assert.equal(error.column, column);
    });
  }
});

Deno.test("parseYamlDocument() reports the first anchor or collection key in document order", async (t) => {
  const cases: [string, string, string, number, number][] = [
    [
      "an anchored key before its anchored value",
      "&k a: &v 1\n",
      'anchors are not allowed (found "&k")',
      1,
      4,
    ],
    [
      "the first of two collection keys",
      "? [a]\n: 1\n? [b]\n: 2\n",
      "map keys must be plain values",
      1,
      3,
    ],
    [
      "a collection key before an anchored value",
      "? [a]\n: &x 1\n",
      "map keys must be plain values",
      1,
      3,
    ],
  ];
  for (const [name, text, detail, line, column] of cases) {
    await t.step(name, () => {
      const error = refusal(text);
      assert.equal(error.detail, detail);
      assert.equal(error.line, line);
      assert.equal(error.column, column);
    });
  }
});

Deno.test("parseYamlDocument() names a duplicate key as written, and the line and column of the repeat", async (t) => {
  const cases: [string, string, string, number, number][] = [
    ["a quoted repeat", "a: 1\n'a': 2\n", 'duplicate key "a"', 2, 1],
    [
      "a long key",
      `${"k".repeat(30)}: 1\nb: 2\n${"k".repeat(30)}: 3\n`,
      `duplicate key "${"k".repeat(30)}"`,
      3,
      1,
    ],
    ["an indented repeat", "a:\n  b: 1\n  b: 2\n", 'duplicate key "b"', 3, 3],
    [
      "a key with a colon inside",
      "a:b: 1\na:b: 2\n",
      'duplicate key "a:b"',
      2,
      1,
    ],
    [
      "a plain key with quotes inside",
      "a'b': 1\na'b': 2\n",
      `duplicate key "a'b'"`,
      2,
      1,
    ],
    [
      "a quoted key of two characters",
      "'ab': 1\n'ab': 2\n",
      'duplicate key "ab"',
      2,
      1,
    ],
    [
      "a repeat in a file with CRLF line ends",
      "a: 1\r\na: 2\r\n",
      'duplicate key "a"',
      2,
      1,
    ],
    [
      "a repeat with nothing after its colon",
      "a:\n  b: 1\na:\n  c: 2\n",
      'duplicate key "a"',
      3,
      1,
    ],
  ];
  for (const [name, text, detail, line, column] of cases) {
    await t.step(name, () => {
      const error = refusal(text);
      assert.equal(error.detail, detail);
      assert.equal(error.line, line);
      assert.equal(error.column, column);
    });
  }
});

Deno.test("parseYamlDocument() gives the parser's own words for a syntax error, with its line and column", async (t) => {
  const cases: [string, string, number, number][] = [
    [
      "a: [1\n",
      "invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ] at line 2",
      2,
      1,
    ],
    [
      "a: !custom 1\n",
      "invalid YAML: unresolved tag: !custom at line 1",
      1,
      4,
    ],
    [
      "version: 1\nowner: @x\n",
      "invalid YAML: plain value cannot start with reserved character @ at line 2",
      2,
      8,
    ],
  ];
  for (const [text, message, line, column] of cases) {
    await t.step(JSON.stringify(text), () => {
      const error = refusal(text);
      assert.equal(
        error.message,
        `Cannot read contract "tests/agent_contract.yaml": ${message}`,
      );
      assert.equal(error.line, line);
      assert.equal(error.column, column);
    });
  }
});

Deno.test("withYamlParser() runs a read that fails for another reason once, and passes its error on", async () => {
  let calls = 0;
  const error = await withYamlParser(() => {
    calls++;
    return parseYamlDocument("a: 1\na: 2\n", PATH);
  }).catch((e) => e);
  assert.ok(error instanceof ContractSyntaxError);
  assert.equal(error.detail, 'duplicate key "a"');
  assert.equal(calls, 1);
});

Deno.test("parseYamlDocument() reads what only the full parser reads with the lines of its keys", () => {
  const doc = parseYamlDocument(": x\n1: a\n2: b\nlist: [a, b]\n", PATH);
  assert.deepEqual(doc.value, {
    "": "x",
    "1": "a",
    "2": "b",
    list: ["a", "b"],
  });
  assert.equal(doc.lineOf(["2"]), 3);
  assert.equal(doc.lineOf([2]), 3);
  assert.equal(doc.lineOf(["list", 1]), 4);
  assert.equal(doc.lineOf(["list", "1"]), undefined);
  assert.equal(doc.lineOf(["list", 2]), undefined);
  assert.equal(doc.lineOf(["missing", "deeper"]), undefined);
});

Deno.test("parseYamlDocument() reads YAML 1.2 strictly: a merge key is an ordinary key, and an implicit key longer than 1024 characters is refused", () => {
  const doc = parseYamlDocument("<<: {a: 1}\nb: 2\n", PATH);
  assert.deepEqual(doc.value, { "<<": { a: 1 }, b: 2 });
  assert.equal(doc.lineOf(["<<"]), 1);
  const error = refusal(`'${"k".repeat(1030)}': 1\n`);
  assert.equal(
    error.detail,
    "invalid YAML: the : indicator must be at most 1024 chars after the start of an implicit block mapping key",
  );
  assert.equal(error.line, 1);
});

Deno.test("parseYamlDocument() gives the parser's message as it is, but for its first letter", () => {
  assert.equal(
    refusal("a: [1\n").detail,
    "invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]",
  );
  assert.equal(
    refusal("a: !!foo 1\n").detail,
    "invalid YAML: unresolved tag: tag:yaml.org,2002:foo",
  );
});

Deno.test("parseYamlDocument() reads a key left empty as the empty string, which has no line of its own", () => {
  const doc = parseYamlDocument(": 1\nb: 2\n", PATH);
  assert.deepEqual(doc.value, { "": 1, b: 2 });
  assert.equal(doc.lineOf([""]), undefined);
  assert.equal(doc.lineOf(["b"]), 2);
});
