import assert from "node:assert/strict";
import { z } from "zod";
import { loadYamlParser, parseYamlDocument } from "./parse_yaml_document.ts";
import { nearestLine, schemaIssueError } from "./schema_issue_error.ts";

// Some texts below are flow style, which only the full YAML parser reads.
await loadYamlParser();

const PATH = "tests/policy.yaml";

const SCHEMA = z.strictObject({
  version: z.literal(1),
  policy: z.strictObject({
    max_frozen: z.int().min(0),
    owner: z.string().min(1),
    strict: z.boolean(),
    mode: z.enum(["block", "warn"]),
  }),
  items: z.array(z.strictObject({ id: z.string() })).refine(
    (items) => items.length < 3,
    { message: "must hold fewer than 3 items" },
  ),
  labels: z.record(z.string(), z.string()).optional(),
}).superRefine((value, ctx) => {
  if (value.policy.owner === "nobody") {
    ctx.addIssue({
      code: "custom",
      path: ["policy", "owner"],
      message: 'the owner "nobody" cannot approve anything',
      params: { detail: true },
    });
  }
});

const GOOD = `version: 1
policy:
  max_frozen: 3
  owner: agent
  strict: true
  mode: block
items:
  - id: a
  - id: b
`;

/** The error for `text` read against SCHEMA, with the line, key and message it gives. */
function refused(
  text: string,
  options: { schema?: boolean } = {},
): { message: string; line: number | undefined; key: string | undefined } {
  const doc = parseYamlDocument(text, PATH);
  const result = SCHEMA.safeParse(doc.value, { reportInput: true });
  assert.ok(!result.success, `expected ${JSON.stringify(text)} to be refused`);
  const error = schemaIssueError(
    PATH,
    result.error.issues,
    doc.lineOf,
    options.schema === false ? {} : { schema: SCHEMA },
  );
  return { message: error.message, line: error.line, key: error.key };
}

function edited(from: string, to: string): string {
  assert.ok(GOOD.includes(from), from);
  return GOOD.replace(from, to);
}

Deno.test("schemaIssueError() names the file, the key and its line for each kind of problem", async (t) => {
  const cases: [string, string, string, number | undefined, string][] = [
    [
      "an unknown key, with the key it was meant to be",
      edited("max_frozen:", "max_frozn:"),
      'unknown key "policy.max_frozn" at line 3; did you mean "max_frozen"?',
      3,
      "policy.max_frozn",
    ],
    [
      "two unknown keys in one mapping",
      edited("  mode: block\n", "  mode: block\n  notes: x\n  extra: y\n"),
      'unknown key "policy.notes" (and 1 more) at line 7',
      7,
      "policy.notes",
    ],
    [
      "a missing key, at its mapping's line",
      edited("  strict: true\n", ""),
      'missing key "policy.strict" at line 2',
      2,
      "policy.strict",
    ],
    [
      "a missing top-level key, at the top of the file",
      "version: 1\npolicy:\n  max_frozen: 3\n  owner: a\n  strict: true\n  mode: warn\n",
      'missing key "items" at line 1',
      1,
      "items",
    ],
    [
      "a key of the wrong type",
      edited("max_frozen: 3", 'max_frozen: "3"'),
      '"policy.max_frozen" must be an integer, not "3" at line 3',
      3,
      "policy.max_frozen",
    ],
    [
      "a fraction where an integer belongs",
      edited("max_frozen: 3", "max_frozen: 1.5"),
      '"policy.max_frozen" must be an integer, not 1.5 at line 3',
      3,
      "policy.max_frozen",
    ],
    [
      "a null where a string belongs",
      edited("owner: agent", "owner: null"),
      '"policy.owner" must be a string, not null at line 4',
      4,
      "policy.owner",
    ],
    [
      "a list where a boolean belongs",
      edited("strict: true", "strict: [1]"),
      '"policy.strict" must be true or false, not a list at line 5',
      5,
      "policy.strict",
    ],
    [
      "a mapping where a list belongs",
      edited("items:\n  - id: a\n  - id: b\n", "items:\n  id: a\n"),
      '"items" must be a list, not a mapping at line 7',
      7,
      "items",
    ],
    [
      "a list where a mapping of strings belongs",
      `${GOOD}labels:\n  - a\n`,
      '"labels" must be a mapping, not a list at line 10',
      10,
      "labels",
    ],
    [
      "a key in a list item",
      edited("  - id: b\n", "  - id: 3\n"),
      '"items[1].id" must be a string, not 3 at line 9',
      9,
      "items[1].id",
    ],
    [
      "a value not among the allowed ones",
      edited("mode: block", "mode: fast"),
      '"policy.mode" must be "block" or "warn", not "fast" at line 6',
      6,
      "policy.mode",
    ],
    [
      "a literal not matched",
      edited("version: 1", "version: 2"),
      '"version" must be 1, not 2 at line 1',
      1,
      "version",
    ],
    [
      "a number below its minimum",
      edited("max_frozen: 3", "max_frozen: -1"),
      '"policy.max_frozen" must be an integer of at least 0, not -1 at line 3',
      3,
      "policy.max_frozen",
    ],
    [
      "a string below its minimum length",
      edited("owner: agent", "owner: ''"),
      '"policy.owner" must be at least 1, not "" at line 4',
      4,
      "policy.owner",
    ],
    [
      "a refinement, after its key",
      edited("  - id: b\n", "  - id: b\n  - id: c\n"),
      '"items" must hold fewer than 3 items at line 7',
      7,
      "items",
    ],
    [
      "a refinement that supplies its whole detail",
      edited("owner: agent", "owner: nobody"),
      'the owner "nobody" cannot approve anything at line 4',
      4,
      "policy.owner",
    ],
    [
      "an empty file",
      "",
      "the file is empty at line 1",
      1,
      "",
    ],
    [
      "a file that is a list",
      "- a\n",
      "the file must be a mapping, not a list at line 1",
      1,
      "",
    ],
    [
      "a long value, shortened",
      edited("mode: block", `mode: ${"m".repeat(45)}`),
      `"policy.mode" must be "block" or "warn", not "${
        "m".repeat(36)
      }... at line 6`,
      6,
      "policy.mode",
    ],
  ];
  for (const [name, text, message, line, key] of cases) {
    await t.step(name, () => {
      assert.deepEqual(refused(text), {
        message: `Cannot read contract "tests/policy.yaml": ${message}`,
        line,
        key,
      });
    });
  }
});

Deno.test("schemaIssueError() reports the problem nearest the top of the file, and one with no line first", () => {
  const late = edited("version: 1\n", "").replace(
    "items:\n",
    "version: 2\nitems:\n",
  );
  assert.equal(
    refused(`${late}`.replace("strict: true", "strict: 1")).message,
    'Cannot read contract "tests/policy.yaml": "policy.strict" must be true or false, not 1 at line 4',
  );
  const result = z.strictObject({ a: z.string(), b: z.string() }).safeParse(
    { a: 1, b: 2 },
    { reportInput: true },
  );
  assert.ok(!result.success);
  const error = schemaIssueError(
    PATH,
    result.error.issues,
    (path) => path[0] === "a" ? 5 : undefined,
  );
  assert.equal(error.key, "b");
  assert.equal(error.line, undefined);
});

Deno.test("schemaIssueError() without the schema cannot tell a misspelt key from a missing one", () => {
  assert.equal(
    refused(edited("max_frozen:", "max_frozn:"), { schema: false }).message,
    'Cannot read contract "tests/policy.yaml": missing key "policy.max_frozen" at line 2',
  );
  assert.equal(
    refused(`${GOOD}notes: x\n`, { schema: false }).message,
    'Cannot read contract "tests/policy.yaml": unknown key "notes" at line 10',
  );
});

Deno.test("schemaIssueError() shows a value of at most 40 characters whole and cuts a longer one", async (t) => {
  const schema = z.strictObject({ n: z.number() });
  for (
    const [input, shown] of [
      ["x".repeat(38), `"${"x".repeat(38)}"`],
      ["x".repeat(39), `"${"x".repeat(36)}...`],
      [10n, "10"],
    ] as const
  ) {
    await t.step(String(input).length.toString(), () => {
      const result = schema.safeParse({ n: input }, { reportInput: true });
      assert.ok(!result.success);
      const error = schemaIssueError(PATH, result.error.issues, () => 2);
      assert.equal(error.detail, `"n" must be an integer, not ${shown}`);
    });
  }
});

Deno.test("schemaIssueError() says the file does not match when there is no issue to report", () => {
  const error = schemaIssueError(PATH, [], () => 1);
  assert.equal(
    error.message,
    'Cannot read contract "tests/policy.yaml": the file does not match its schema',
  );
  assert.equal(error.line, undefined);
});

Deno.test("nearestLine() gives the line of a path, or of its closest ancestor that exists", async (t) => {
  const doc = parseYamlDocument(
    "version: 1\ncontracts:\n  - id: first\n    min_trials: 10\n  - id: second\n    min_trials: 20\n",
    "contracts.yml",
  );
  const cases: [string, (string | number)[], number | undefined][] = [
    ["a key that exists", ["contracts", 1, "min_trials"], 6],
    ["a key below a missing one", ["contracts", 1, "test", "x"], 5],
    ["a missing item", ["contracts", 5], 2],
    ["a missing top-level key", ["notes"], 1],
    ["the document", [], 1],
  ];
  for (const [name, path, line] of cases) {
    await t.step(
      name,
      () => assert.equal(nearestLine((p) => doc.lineOf(p), path), line),
    );
  }
});

Deno.test("schemaIssueError() names a type it has no words for by its name", () => {
  const result = z.strictObject({ at: z.bigint() }).safeParse({ at: 3 }, {
    reportInput: true,
  });
  assert.ok(!result.success);
  const error = schemaIssueError("x.toml", result.error.issues, () => 2);
  assert.equal(
    error.message,
    'Cannot read contract "x.toml": "at" must be of type bigint, not 3 at line 2',
  );
});
