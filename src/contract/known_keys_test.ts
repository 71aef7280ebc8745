import assert from "node:assert/strict";
import { z } from "zod";
import { type KeyPath, knownKeys } from "./known_keys.ts";

Deno.test("knownKeys() finds the keys of the object a path leads to, through every wrapper", async (t) => {
  const leaf = z.strictObject({ runner: z.string(), timeout: z.number() });
  type Node = { name: string; children?: Node[] | undefined };
  const tree: z.ZodType<Node> = z.lazy(() =>
    z.strictObject({ name: z.string(), children: z.array(tree).optional() })
  );
  const schema = z.strictObject({
    tests: leaf.optional(),
    defaults: leaf.default({ runner: "pytest", timeout: 1 }),
    piped: z.string().transform((s) => s.length).pipe(z.number()),
    parsed: leaf.pipe(z.any()),
    list: z.array(leaf),
    table: z.record(z.string(), leaf),
    either: z.union([
      z.strictObject({ a: z.string(), shared: z.string() }),
      z.strictObject({ b: z.string(), shared: z.string() }),
    ]),
    later: z.lazy(() => leaf),
    tree,
    name: z.string(),
  });
  const cases: [string, KeyPath, string[]][] = [
    ["the document itself", [], [
      "tests",
      "defaults",
      "piped",
      "parsed",
      "list",
      "table",
      "either",
      "later",
      "tree",
      "name",
    ]],
    ["through optional", ["tests"], ["runner", "timeout"]],
    ["through a default", ["defaults"], ["runner", "timeout"]],
    ["through a pipe, from its input side", ["parsed"], ["runner", "timeout"]],
    ["a pipe whose input is no object", ["piped"], []],
    ["an array element, whatever the index", ["list", 3], [
      "runner",
      "timeout",
    ]],
    ["a record value, whatever the key", ["table", "any"], [
      "runner",
      "timeout",
    ]],
    ["every option of a union, each key once", ["either"], [
      "a",
      "shared",
      "b",
    ]],
    ["through lazy", ["later"], ["runner", "timeout"]],
    ["a recursive schema, some levels down", [
      "tree",
      "children",
      0,
      "children",
      1,
    ], ["name", "children"]],
    ["a key the object does not have", ["nope"], []],
    ["a key every object inherits", ["constructor"], []],
    ["the prototype's key", ["__proto__", "x"], []],
    ["a path into a string", ["name", "x"], []],
    ["a path ending at a string", ["name"], []],
    ["an array itself is no object", ["list"], []],
    ["past a leaf's keys", ["tests", "runner"], []],
  ];
  for (const [name, path, keys] of cases) {
    await t.step(name, () => assert.deepEqual(knownKeys(schema, path), keys));
  }
});

Deno.test("knownKeys() gives up on a path that goes too deep into a recursive schema", async (t) => {
  type Node = { next?: Node | undefined };
  const chain: z.ZodType<Node> = z.lazy(() =>
    z.strictObject({ next: chain.optional() })
  );
  // Each step down is a lazy, an optional and an object: three levels.
  const at = (steps: number) =>
    knownKeys(chain, Array.from({ length: steps }, () => "next"));
  await t.step("within the limit", () => assert.deepEqual(at(20), ["next"]));
  await t.step("past it", () => assert.deepEqual(at(40), []));
});

Deno.test("knownKeys() gives up on a path too deep through arrays, records and unions too", async (t) => {
  type Node = { kids?: Node[] | undefined } | {
    map?: Record<string, Node> | undefined;
  };
  const node: z.ZodType<Node> = z.lazy(() =>
    z.union([
      z.strictObject({ kids: z.array(node).optional() }),
      z.strictObject({ map: z.record(z.string(), node).optional() }),
    ])
  );
  const down = (steps: number, via: "kids" | "map") =>
    knownKeys(
      node,
      Array.from({ length: steps }, () => [via, 0]).flat(),
    );
  await t.step("an array within the limit", () => {
    assert.deepEqual(down(5, "kids"), ["kids", "map"]);
  });
  // Each step down is five levels: lazy, union, object, optional and array
  // or record. Sixteen steps, eighty levels, pass the limit; were a level
  // counted down instead, they would not.
  await t.step("an array past it", () => {
    assert.deepEqual(down(16, "kids"), []);
  });
  await t.step("a record within the limit", () => {
    assert.deepEqual(down(5, "map"), ["kids", "map"]);
  });
  await t.step("a record past it", () => {
    assert.deepEqual(down(16, "map"), []);
  });
});
