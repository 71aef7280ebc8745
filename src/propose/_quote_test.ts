import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { parseYamlDocument } from "../contract/parse_yaml_document.ts";
import { commentSafe } from "./_header.ts";
import { quoteString } from "./_quote.ts";
import { loadYamlParser } from "../contract/parse_yaml_document.ts";

// These texts include ones only the full YAML parser reads.
await loadYamlParser();

Deno.test("quoteString() reads back as the same string everywhere", async (t) => {
  const samples = [
    "0123456789".repeat(6) + "0123",
    "yes",
    "null",
    "~",
    "1e3",
    "2026-09-22",
    "a\nb",
    "tab\there",
    'quote " and \\ backslash',
    "del \u007f c1 \u0085 \u009f ls \u2028 bom \ufeff nc \uffff",
    "日本語 café 🎉",
    "",
  ];
  const check = (text: string) => {
    const quoted = quoteString(text);
    assert.doesNotMatch(quoted, /[\n\r\u2028\u2029\u0085]/);
    const expected = text.toWellFormed();
    assert.equal(
      (parseYamlDocument(`k: ${quoted}\n`, "x.yaml").value as { k: unknown }).k,
      expected,
    );
    assert.equal(parseToml(`k = ${quoted}\n`)["k"], expected);
    assert.equal(JSON.parse(quoted), expected);
  };

  await t.step("for strings YAML or TOML could misread", () => {
    for (const sample of samples) check(sample);
  });

  await t.step("for any string", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), check), {
      numRuns: 500,
    });
  });
});

Deno.test("commentSafe() keeps any text on one comment line", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (text) => {
      const safe = commentSafe(text);
      const yaml = parseYamlDocument(`# ${safe}\nk: 1\n`, "x.yaml").value;
      assert.deepEqual(yaml, { k: 1 });
      assert.deepEqual({ ...parseToml(`# ${safe}\nk = 1\n`) }, { k: 1 });
    }),
    { numRuns: 500 },
  );
});
