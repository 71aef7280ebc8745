import assert from "node:assert/strict";
import fc from "fast-check";
import { parseSimpleYaml } from "./_parse_simple_yaml.ts";
import { parseYamlDocument, type YamlPath } from "./parse_yaml_document.ts";
import { loadYamlParser } from "./parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

/** The full parser's reading, or the error it gives. */
function full(text: string) {
  try {
    return parseYamlDocument(text, "x.yaml", { simple: false });
  } catch (error) {
    return error as Error;
  }
}

/** Every key and item path in `value`, plus one missing path below each. */
function pathsOf(value: unknown, prefix: YamlPath = []): YamlPath[] {
  const out: YamlPath[] = [prefix, [...prefix, "missing"], [...prefix, 7]];
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...pathsOf(item, [...prefix, i])));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(...pathsOf(item, [...prefix, key]));
    }
  }
  return out;
}

/**
 * Whenever the fast reader accepts `text`, the full parser accepts it too
 * and gives the same value and the same line for every path.
 */
function assertAgrees(text: string): boolean {
  const fast = parseSimpleYaml(text);
  if (fast === undefined) return false;
  const slow = full(text);
  assert.ok(
    !(slow instanceof Error),
    `fast reader accepted what the full parser refuses (${
      slow instanceof Error ? slow.message : ""
    }):\n${text}`,
  );
  assert.deepStrictEqual(fast.value, slow.value, text);
  for (const path of pathsOf(slow.value)) {
    assert.equal(fast.lineOf(path), slow.lineOf(path), `${path}\n${text}`);
  }
  return true;
}

const CONTRACT = `# tests/agent_contract.yaml
version: 1
properties:
  - id: parse_rejects_empty
    module: tests.properties.test_parse
    name: test_empty_input_raises
    min_examples: 40

  - id: roundtrip_stable
    module: tests.properties.test_codec
    name: Codec.test_decode_encode_identity
    min_examples: 80
fixtures:
- id: invoice_v3
  path: tests/fixtures/invoice_v3.json
  sha256: 1e3456789012345678901234567890123456789012345678901234567890abcd
  unlock: null
    # an indented comment
freezes: []
extra: {}
max_active_freezes: 3
`;

Deno.test("parseSimpleYaml() reads a plain contract as the full parser does", () => {
  assert.ok(assertAgrees(CONTRACT));
  const fast = parseSimpleYaml(CONTRACT);
  assert.equal(fast?.lineOf(["fixtures", 0, "sha256"]), 16);
  assert.equal(fast?.lineOf(["properties", 1, "min_examples"]), 12);
});

Deno.test("parseSimpleYaml() reads a document of blank lines and comments as null, as the full parser does", () => {
  for (const text of ["", "\n", "# nothing frozen\n", "\n  # indented\n\n#x"]) {
    assert.ok(assertAgrees(text), JSON.stringify(text));
    assert.equal(parseSimpleYaml(text)?.value, null);
  }
});

Deno.test("parseSimpleYaml() leaves everything outside its subset to the full parser", async (t) => {
  const cases: [string, string][] = [
    ["a trailing comment", "a: 1 # one\n"],
    ["an anchor", "a: &x 1\nb: 2\n"],
    ["an alias", "a: 1\nb: *a\n"],
    ["a tag", "a: !!str 1\n"],
    ["a block scalar", "a: |\n  text\n"],
    ["an escape", 'a: "x\\ny"\n'],
    ["a multi-line scalar", "a: one\n  two\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a null key", "null: 1\n"],
    ["a __proto__ key", "__proto__: 1\n"],
    ["a quoted key", '"a": 1\n'],
    ["a float", "a: 1.5\n"],
    ["an exponent that looks like hex", "a: 1e10\n"],
    ["a leading zero", "a: 007\n"],
    ["a negative number", "a: -3\n"],
    ["a huge integer", "a: 12345678901234567890\n"],
    ["a tilde", "a: ~\n"],
    ["True", "a: True\n"],
    ["a flow list", "a: [1, 2]\n"],
    ["a mapping value inside a value", "a: b: c\n"],
    ["a tab", "a:\t1\n"],
    ["a carriage return", "a: 1\r\nb: 2\r\n"],
    ["a document marker", "---\na: 1\n"],
    ["a directive", "%YAML 1.2\n---\na: 1\n"],
    ["a document end marker", "a: 1\n...\n"],
    ["a second document", "a: 1\n---\nb: 2\n"],
    ["a document marker after a key", "a:\n--- x\n"],
    ["a bare dash", "a:\n  -\n  - x\n"],
    ["a nested list on one line", "a:\n  - - x\n"],
    ["a top-level list", "- a\n"],
    ["a top-level scalar", "text\n"],
    ["a key indented wrongly", "a:\n  b: 1\n c: 2\n"],
    ["trailing spaces", "a: 1 \n"],
    ["a non-ASCII scalar", "a: café\n"],
    ["a colon with no space after it", "a:b\n"],
    ["a NULL key", "NULL: 1\n"],
    ["a lone carriage return in a comment", "a: 1\n# note\rb: 2\n"],
    ["a list item indented deeper than the one before", "a:\n  - x\n   - y\n"],
    ["a key that starts with a dash", "a:\n-b: 1\n"],
    ["a NULL value", "a: NULL\n"],
    ["a hexadecimal number with letters", "a: 0x1F\n"],
    ["an exponent written with a capital E", "a: 1E5\n"],
    ["a float with nothing after its point", "a: 1.\n"],
    ["an integer of 16 digits", "a: 1234567890123456\n"],
    ["a byte order mark as indentation", "a:\n\uFEFFb: 1\n"],
    ["a no-break space as indentation", "a:\n\u00a0b: 1\n"],
    ["a line separator as indentation", "a:\n\u2028 b: 1\n"],
    ["a form feed as indentation", "a:\n\fb: 1\n"],
    ["an ideographic space before a dash", "a:\n  \u3000- x\n"],
    ["a line of a no-break space", "a: 1\n\u00a0\n"],
    ["a trailing no-break space", "a:\u00a0\n"],
    ["a trailing space after a quoted scalar", "a: 'x' \n"],
    ["a trailing space after an empty list", "a: [] \n"],
    ["a trailing space after an item", "a:\n  - x \n"],
    ["a key after other text", "abc'x k: '\n"],
    ["a no-break space after a dash", "a:\n  - \u00a0x\n"],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => assert.equal(parseSimpleYaml(text), undefined));
  }
});

Deno.test("parseSimpleYaml() agrees with the full parser on generated documents", () => {
  const keys = fc.constantFrom(
    "id",
    "name",
    "min_examples",
    "path",
    "version",
    "null",
    "True",
    "__proto__",
    "a1",
    "x_y",
  );
  // Mostly scalars the fast reader takes, some it must leave alone.
  // The scalars the fast reader reads itself.
  const simple = [
    "1",
    "0",
    "40",
    "null",
    "true",
    "false",
    "yes",
    "tests.properties.test_x",
    "Class.test_y",
    "2099-01-01T00:00:00Z",
    "a:b",
    "x,y",
    "'single'",
    '"double"',
    "''",
    '""',
    "[]",
    "{}",
    "123456789012345",
    "6e251fd4497f2747cef0a27287f0242a15c0b05992e8f8e11ef9ee65f5120f70",
    "two words",
  ];
  const scalars = fc.oneof(
    {
      arbitrary: fc.constantFrom(...simple),
      weight: 6,
    },
    {
      arbitrary: fc.constantFrom(
        "007",
        "-3",
        "+3",
        "1e5",
        "1.5",
        ".inf",
        "0x1F",
        "0o17",
        "~",
        "Null",
        "a: b",
        "a #b",
        "a#b",
        '"with \\"escape"',
        "[1]",
        "&anchor v",
        "*alias",
        "!tag v",
        "|",
        "-",
        "- x",
        "café",
        "1234567890123456",
        "1234e567",
        "ends:",
      ),
      weight: 1,
    },
  );
  type Value = string | { seq: Value[] } | { map: [string, Value][] };
  const { value } = fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      scalars,
      fc.record({ seq: fc.array(tie("value"), { maxLength: 3 }) }),
      fc.record({
        map: fc.array(fc.tuple(keys, tie("value")), { maxLength: 4 }),
      }),
    ),
  }));
  const noise = fc.array(
    fc.constantFrom("", "  ", "# comment", "   # deep comment", "  x"),
    { maxLength: 1 },
  );
  const style = fc.record({
    indent: fc.integer({ min: 1, max: 4 }),
    compactList: fc.boolean(),
    dashGap: fc.integer({ min: 1, max: 2 }),
    noise: fc.array(
      fc.oneof({ arbitrary: fc.constant([]), weight: 8 }, {
        arbitrary: noise,
        weight: 1,
      }),
      {
        minLength: 40,
        maxLength: 40,
      },
    ),
  });
  let accepted = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(keys, value), { minLength: 1, maxLength: 4 }),
      style,
      (top, s) => {
        const lines: string[] = [];
        let n = 0;
        const push = (line: string) => {
          lines.push(line);
          lines.push(...(s.noise[n++ % s.noise.length] ?? []));
        };
        // `lead` starts the first line: "" (top level), "key:" or "- ".
        const render = (v: Value, col: number, lead: string) => {
          const after = lead.endsWith(":") ? " " : "";
          if (typeof v === "string") return push(`${lead}${after}${v}`);
          const items = "seq" in v ? v.seq : v.map;
          if (items.length === 0) {
            return push(`${lead}${after}${"seq" in v ? "[]" : "{}"}`);
          }
          if ("map" in v) {
            v.map.forEach(([k, item], i) => {
              const key = i === 0 && lead.endsWith(" ")
                ? `${lead}${k}:` // the first key shares the dash's line
                : `${" ".repeat(col)}${k}:`;
              if (i === 0 && lead.endsWith(":")) push(lead);
              render(item, col + s.indent, key);
            });
            return;
          }
          if (lead.endsWith(" ")) {
            // A list right after a dash: "- - x" (outside the subset).
            return push(`${lead}- x`);
          }
          if (lead !== "") push(lead);
          const dashCol = s.compactList ? Math.max(0, col - s.indent) : col;
          for (const item of v.seq) {
            const dash = `${" ".repeat(dashCol)}-${" ".repeat(s.dashGap)}`;
            render(item, dashCol + 1 + s.dashGap, dash);
          }
        };
        render({ map: top }, 0, "");
        const text = lines.join("\n") + "\n";
        const read = assertAgrees(text);
        if (read) accepted++;
        // A document of nothing but the subset is read fast.
        const inSubset = (v: Value, inSeq: boolean): boolean =>
          typeof v === "string"
            ? simple.includes(v)
            : "seq" in v
            ? !(inSeq && v.seq.length > 0) &&
              v.seq.every((item) => inSubset(item, true))
            : new Set(v.map.map(([k]) => k)).size === v.map.length &&
              v.map.every(([k, item]) =>
                !["null", "True", "__proto__"].includes(k) &&
                inSubset(item, false)
              );
        if (
          inSubset({ map: top }, false) &&
          s.noise.every((lines) => lines.every((l: string) => l !== "  x"))
        ) {
          assert.ok(
            read,
            `a document of the subset was not read fast:\n${text}`,
          );
        }
      },
    ),
    { numRuns: 600 },
  );
  // The generator must reach the fast path often, or this proves nothing.
  assert.ok(accepted > 60, `only ${accepted} documents were read fast`);
});

Deno.test("parseSimpleYaml() finds a list item only by a number, as the full parser does", () => {
  const text = "list:\n  - a\n  - b\n";
  const fast = parseSimpleYaml(text);
  const slow = full(text);
  assert.ok(!(slow instanceof Error));
  for (const path of [["list", 1], ["list", "1"], ["list", "x"]] as const) {
    assert.equal(fast?.lineOf(path), slow.lineOf(path), JSON.stringify(path));
  }
  assert.equal(fast?.lineOf(["list", 1]), 3);
  assert.equal(fast?.lineOf(["list", "1"]), undefined);
});

Deno.test("parseSimpleYaml() reads a key with nothing after it as null, as the full parser does", () => {
  for (const text of ["a:\nb: 1\n", "a:\n# later\nb:\n"]) {
    assert.ok(assertAgrees(text), JSON.stringify(text));
  }
  assert.deepEqual(parseSimpleYaml("a:\nb: 1\n")?.value, { a: null, b: 1 });
});

Deno.test("parseSimpleYaml() reads null, true, false and one-line quoted scalars itself, as the full parser does", () => {
  const text = "a: null\nb: true\nc: false\nd: 'x: y'\ne: \"1\"\n";
  assert.ok(assertAgrees(text));
  assert.deepEqual(parseSimpleYaml(text)?.value, {
    a: null,
    b: true,
    c: false,
    d: "x: y",
    e: "1",
  });
});

Deno.test("parseSimpleYaml() finds nothing inside an empty list or map, as the full parser does", () => {
  const text = "a: []\nb: {}\n";
  const fast = parseSimpleYaml(text);
  const slow = full(text);
  assert.ok(!(slow instanceof Error));
  for (const path of [["a", 0], ["b", "x"], ["a"], ["b"]] as const) {
    assert.equal(fast?.lineOf(path), slow.lineOf(path), JSON.stringify(path));
  }
  assert.equal(fast?.lineOf(["a", 0]), undefined);
});

Deno.test("parseSimpleYaml() agrees with the full parser on scalars and keys built from the core schema's pieces", () => {
  // Pieces of what YAML 1.2's core schema reads as null, booleans and
  // numbers, in every case and next to each other, with the characters a
  // plain scalar may hold or must not start or end with.
  const piece = fc.constantFrom(
    ...["null", "Null", "NULL", "nULL", "~", "true", "True", "TRUE", "tRUE"],
    ...["false", "False", "FALSE", "fALSE", ".inf", ".Inf", ".INF", ".NaN"],
    ...[".nan", ".NAN", "0", "7", "12", "0x", "1F", "0o", "17", "8", "e"],
    ...["E", "5", ".", "+", "-", "_", "a", "x", " ", ":", ": ", "#", " #"],
    ...["'", '"', "\\", "[", "]", "{", "}", ",", "&", "*", "!", "|", ">"],
    ...["%", "@", "`", "?", "=", "(", ")", "/", "'a'", '"a"', "''"],
    ...["1.5", ".5", "1.", "1e5", "1.5e3", ".5E-3", "0o7", "0x1f", "+.inf"],
  );
  const text = fc.array(piece, { minLength: 1, maxLength: 3 })
    .map((pieces) => pieces.join(""));
  let accepted = 0;
  fc.assert(
    fc.property(text, text, (key, scalar) => {
      const docs = [
        `${key}: ${scalar}\n`,
        `${key}:\n  inner: ${scalar}\n`,
        `a:\n  - ${scalar}\n  - ${key}: ${scalar}\n`,
        `a:\n- ${scalar}\nb: 1\n`,
        `${key}:\n`,
        `a: 1\n${key}: 2\n`,
      ];
      for (const doc of docs) if (assertAgrees(doc)) accepted++;
    }),
    { numRuns: 3000 },
  );
  assert.ok(accepted > 1000, `only ${accepted} documents were read fast`);
});

Deno.test("parseSimpleYaml() never reads a core-schema null, boolean or number as a string", async (t) => {
  const values = [
    ...["null", "Null", "NULL", "~", "true", "True", "TRUE", "false"],
    ...["False", "FALSE", "0o17", "0x1F", "0x1f", "+12", "-12", "007"],
    ...[".inf", "-.inf", "+.inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"],
    ...["1e5", "1E5", "1.5e3", "1.e3", ".5e3", ".5e-3", "12.5e+3", "1.5"],
    ...["1.", ".5", "-1.5", "+.5", "1234567890123456", "0.0", "10.25"],
  ];
  for (const value of values) {
    await t.step(value, () => {
      for (const text of [`a: ${value}\n`, `a:\n  - ${value}\n`]) {
        assertAgrees(text);
      }
      assertAgrees(`${value}: 1\n`);
    });
  }
});
