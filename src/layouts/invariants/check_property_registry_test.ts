import assert from "node:assert/strict";
import type { PythonFunction } from "../../python/python_module.ts";
import {
  pyFunction,
  pyModule,
  registry,
  ruleIds,
  sha,
  treeOf,
} from "./_testing.ts";
import {
  checkPropertyRegistry,
  type CheckPropertyRegistryOptions,
} from "./check_property_registry.ts";
import type { ContractSides } from "./invariants_contract.ts";
import type {
  PropertyRegistry,
  RegisteredProperty,
} from "./read_property_registry.ts";
import { sourceSha256 } from "./source_sha256.ts";

const FILE = "tests/test_p.py";
const SOURCE = "def test_p(x):\n    assert f(x) > 0";
const P: Omit<RegisteredProperty, "index"> = {
  id: "p",
  module: "tests.test_p",
  function: "test_p",
  sourceSha256: sourceSha256(SOURCE),
};

function options(
  head: PythonFunction[] | null,
  base: PythonFunction[] = [pyFunction("test_p", SOURCE)],
): CheckPropertyRegistryOptions {
  return {
    headTree: head === null ? treeOf({}) : treeOf({ [FILE]: "file" }),
    headModules: head === null
      ? new Map()
      : new Map([[FILE, pyModule(...head)]]),
    baseTree: treeOf({ [FILE]: "file" }),
    baseModules: new Map([[FILE, pyModule(...base)]]),
  };
}

Deno.test("checkPropertyRegistry() judges a registry base → head", async (t) => {
  const cases: {
    name: string;
    sides: ContractSides<PropertyRegistry>;
    head?: PythonFunction[] | null;
    rules: string[];
  }[] = [
    {
      name: "an unchanged registry and function pass",
      sides: { base: registry([P]), head: registry([P]) },
      rules: [],
    },
    {
      name: "a head copy that is unusable is judged by the base copy",
      sides: { base: registry([P]), head: null },
      head: [pyFunction("test_p", SOURCE.replace("> 0", ">= 0"))],
      rules: ["property.source_changed"],
    },
    {
      name: "CRLF line endings do not change the hash",
      sides: { base: registry([P]), head: registry([P]) },
      head: [pyFunction("test_p", SOURCE.replaceAll("\n", "\r\n"))],
      rules: [],
    },
    {
      name: "the minimum is the larger of base and head",
      sides: {
        base: registry([P], { minProperties: 1 }),
        head: registry([P], { minProperties: 2 }),
      },
      rules: ["property.below_minimum"],
    },
    {
      name:
        "no base registry: a head row with its real hash is an allowed addition",
      sides: {
        base: undefined,
        head: registry([P], { allowAgentAdditions: false }),
      },
      rules: [],
    },
    {
      name: "no base registry: a head row with a wrong hash is a mismatch",
      sides: {
        base: undefined,
        head: registry([{ ...P, sourceSha256: sha("0") }]),
      },
      rules: ["property.source_mismatch"],
    },
    {
      name: "nothing on either side: nothing to judge",
      sides: { base: undefined, head: null },
      head: null,
      rules: [],
    },
    {
      name: "a symlinked module is missing",
      sides: { base: registry([P]), head: registry([P]) },
      head: null,
      rules: ["property.module_missing"],
    },
    {
      name: "a method of the same name is not the property",
      sides: { base: registry([P]), head: registry([P]) },
      head: [pyFunction("TestP.test_p", SOURCE)],
      rules: ["property.test_missing"],
    },
    {
      name: "a derandomized test is weaker",
      sides: { base: registry([P]), head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          settings: { line: 8, keywords: { derandomize: "True" } },
        }),
      ],
      rules: ["property.examples_lowered"],
    },
    {
      name:
        "a vacuous property whose source did not change is left to the human who accepted it",
      sides: { base: registry([P]), head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          vacuity: { reason: "constant", line: 11 },
        }),
      ],
      rules: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const head = c.head === undefined
        ? [pyFunction("test_p", SOURCE)]
        : c.head;
      const findings = checkPropertyRegistry(c.sides, options(head));
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

Deno.test("checkPropertyRegistry() points each finding at the file a person must fix", () => {
  const base = registry([P, { ...P, id: "q" }], { minProperties: 2 });
  const head = registry([{ ...P, sourceSha256: sha("c") }], {
    minProperties: 1,
  });
  const findings = checkPropertyRegistry(
    { base, head },
    options([pyFunction("test_p", `${SOURCE} + 1`, { line: 7 })]),
  );
  const where = findings.map((f) => [f.rule, f.path, f.line]);
  assert.deepEqual(where, [
    ["property.policy_loosened", "invariants.toml", 2],
    ["property.below_minimum", "invariants.toml", 2],
    ["property.source_changed", "invariants.toml", 100],
    ["property.source_changed", FILE, 7],
    ["property.removed", "invariants.toml", undefined],
    // A removed property is still checked at its base target.
    ["property.source_changed", FILE, 7],
  ]);
  assert.match(
    findings[3]?.message ?? "",
    /^Property "p" source of "test_p" changed: expected [0-9a-f]{12} got [0-9a-f]{12}; /,
  );
});
