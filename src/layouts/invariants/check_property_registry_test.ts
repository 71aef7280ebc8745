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

Deno.test("checkPropertyRegistry() keeps the ids, targets and policy a human set", async (t) => {
  const Q = { ...P, id: "q" };
  const cases: {
    name: string;
    sides: ContractSides<PropertyRegistry>;
    head?: PythonFunction[];
    base?: PythonFunction[];
    rules: string[];
  }[] = [
    {
      name: "allow_agent_additions turned on is a loosened policy",
      sides: {
        base: registry([P]),
        head: registry([P], { allowAgentAdditions: true }),
      },
      rules: ["property.policy_loosened"],
    },
    {
      name: "allow_agent_additions turned off is no loosening",
      sides: {
        base: registry([P], { allowAgentAdditions: true }),
        head: registry([P]),
      },
      rules: [],
    },
    {
      name: "min_properties raised is no loosening",
      sides: {
        base: registry([P]),
        head: registry([P], { minProperties: 1 }),
      },
      rules: [],
    },
    {
      name: "a registry exactly at its minimum holds",
      sides: {
        base: registry([P], { minProperties: 1 }),
        head: registry([P], { minProperties: 1 }),
      },
      rules: [],
    },
    {
      name: "an unusable head copy is held to the base minimum",
      sides: { base: registry([P], { minProperties: 2 }), head: null },
      rules: ["property.below_minimum"],
    },
    {
      name: "a property the head drops is removed",
      sides: { base: registry([P]), head: registry([]) },
      rules: ["property.removed"],
    },
    {
      name: "a property the head adds is forbidden when the base says so",
      sides: { base: registry([P]), head: registry([P, Q]) },
      rules: ["property.addition_forbidden"],
    },
    {
      name: "a property the head adds is allowed when the base allows it",
      sides: {
        base: registry([P], { allowAgentAdditions: true }),
        head: registry([P, Q], { allowAgentAdditions: true }),
      },
      rules: [],
    },
    {
      name:
        "a property pointed at another function is retargeted and its new target is judged",
      sides: {
        base: registry([P]),
        head: registry([{ ...P, function: "test_q" }]),
      },
      head: [
        pyFunction("test_p", SOURCE),
        pyFunction("test_q", "def test_q(x):\n    assert True", {
          vacuity: { reason: "constant", line: 11 },
        }),
      ],
      rules: [
        "property.retargeted",
        "property.source_mismatch",
        "property.vacuous",
      ],
    },
    {
      name: "a property pointed at another module is retargeted",
      sides: {
        base: registry([P]),
        head: registry([{ ...P, module: "tests.test_q" }]),
      },
      rules: ["property.module_missing", "property.retargeted"],
    },
    {
      name: "an async def is not the registered plain def",
      sides: { base: registry([P]), head: registry([P]) },
      head: [pyFunction("test_p", `async ${SOURCE}`)],
      rules: ["property.test_missing"],
    },
    {
      name: "a function defined twice is shadowed",
      sides: { base: registry([P]), head: registry([P]) },
      head: [pyFunction("test_p", SOURCE, { shadowedLines: [3] })],
      rules: ["property.shadowed"],
    },
    {
      name: "an empty list of earlier definitions is not shadowing",
      sides: { base: registry([P]), head: registry([P]) },
      head: [pyFunction("test_p", SOURCE, { shadowedLines: [] })],
      rules: [],
    },
    {
      name: "a new property that cannot fail is vacuous",
      sides: { base: undefined, head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          vacuity: { reason: "no_assertion", line: 11 },
        }),
      ],
      rules: ["property.vacuous"],
    },
    {
      name: "a changed property that cannot fail is vacuous",
      sides: { base: registry([P]), head: registry([P]) },
      head: [
        pyFunction("test_p", `${SOURCE} or True`, {
          vacuity: { reason: "tautology", line: 11 },
        }),
      ],
      rules: ["property.source_changed", "property.vacuous"],
    },
    {
      name: "a new property is not compared with the base's settings",
      sides: { base: undefined, head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          settings: { line: 8, keywords: { derandomize: "True" } },
        }),
      ],
      rules: [],
    },
    {
      name:
        "a finding at both the old and the new spelling of one target is reported once",
      sides: {
        base: registry([P]),
        head: registry([{ ...P, module: "tests/test_p" }]),
      },
      head: [pyFunction("test_p", SOURCE, { shadowedLines: [3] })],
      rules: ["property.retargeted", "property.shadowed"],
    },
    {
      name:
        "settings weakened against a base that lacks the function are not compared",
      sides: { base: registry([P]), head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          settings: { line: 8, keywords: { derandomize: "True" } },
        }),
      ],
      base: [],
      rules: [],
    },
    {
      name: "settings weakened against a base async def are compared",
      sides: { base: registry([P]), head: registry([P]) },
      head: [
        pyFunction("test_p", SOURCE, {
          settings: { line: 8, keywords: { derandomize: "True" } },
        }),
      ],
      base: [pyFunction("test_p", `async ${SOURCE}`)],
      rules: ["property.examples_lowered"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkPropertyRegistry(
        c.sides,
        options(c.head ?? [pyFunction("test_p", SOURCE)], c.base),
      );
      assert.deepEqual(ruleIds(findings), c.rules);
    });
  }
});

/** `registry(properties, policy)` whose `lineOf` answers from `lines` (path joined with dots). */
function lined(
  properties: Omit<RegisteredProperty, "index">[],
  lines: Record<string, number>,
  policy: Partial<PropertyRegistry["policy"]> = {},
): PropertyRegistry {
  return {
    ...registry(properties, policy),
    lineOf: (path) => lines[path.join(".")],
  };
}

const KEY_LINES = {
  "policy.min_properties": 2,
  "policy.allow_agent_additions": 3,
  "property.0": 10,
  "property.0.module": 11,
  "property.0.function": 12,
  "property.0.source_sha256": 13,
  "property.1": 20,
};

Deno.test("checkPropertyRegistry() points each finding at the key or the function it is about", async (t) => {
  const Q = { ...P, id: "q" };
  const cases: {
    name: string;
    sides: ContractSides<PropertyRegistry>;
    head?: PythonFunction[] | null;
    where: [string, string | undefined, number | undefined][];
  }[] = [
    {
      name: "allow_agent_additions turned on points at that key",
      sides: {
        base: registry([P]),
        head: lined([P], KEY_LINES, { allowAgentAdditions: true }),
      },
      where: [["property.policy_loosened", "invariants.toml", 3]],
    },
    {
      name: "a registry below its minimum points at min_properties",
      sides: {
        base: registry([P], { minProperties: 2 }),
        head: lined([P], KEY_LINES, { minProperties: 2 }),
      },
      where: [["property.below_minimum", "invariants.toml", 2]],
    },
    {
      name: "a retargeted property points at its function key",
      sides: {
        base: registry([P]),
        head: lined([{ ...P, function: "test_q" }], KEY_LINES),
      },
      head: [pyFunction("test_p", SOURCE), pyFunction("test_q", SOURCE)],
      where: [["property.retargeted", "invariants.toml", 12]],
    },
    {
      name: "a retargeted property without a function line points at its row",
      sides: {
        base: registry([P]),
        head: lined([{ ...P, function: "test_q" }], { "property.0": 10 }),
      },
      head: [pyFunction("test_p", SOURCE), pyFunction("test_q", SOURCE)],
      where: [["property.retargeted", "invariants.toml", 10]],
    },
    {
      name: "a rewritten hash points at source_sha256",
      sides: {
        base: registry([P]),
        head: lined([{ ...P, sourceSha256: sha("c") }], KEY_LINES),
      },
      where: [["property.source_changed", "invariants.toml", 13]],
    },
    {
      name: "a missing module points at its module key",
      sides: { base: registry([P]), head: lined([P], KEY_LINES) },
      head: null,
      where: [["property.module_missing", "invariants.toml", 11]],
    },
    {
      name:
        "a missing module of an unusable head copy points at the base copy's line",
      sides: { base: lined([P], KEY_LINES), head: null },
      head: null,
      where: [["property.module_missing", "invariants.toml", 11]],
    },
    {
      name: "a missing function points at its function key",
      sides: { base: registry([P]), head: lined([P], KEY_LINES) },
      head: [],
      where: [["property.test_missing", "invariants.toml", 12]],
    },
    {
      name:
        "a removed property whose module is gone points at no line of the registry",
      sides: { base: registry([P]), head: lined([], KEY_LINES) },
      head: null,
      where: [
        ["property.removed", "invariants.toml", undefined],
        ["property.module_missing", "invariants.toml", undefined],
      ],
    },
    {
      name: "a forbidden addition points at its row",
      sides: { base: registry([P]), head: lined([P, Q], KEY_LINES) },
      where: [["property.addition_forbidden", "invariants.toml", 20]],
    },
    {
      name: "an async def points at the def",
      sides: { base: registry([P]), head: lined([P], KEY_LINES) },
      head: [pyFunction("test_p", `async ${SOURCE}`, { line: 5 })],
      where: [["property.test_missing", FILE, 5]],
    },
    {
      name: "a shadowed function points at its last def",
      sides: { base: registry([P]), head: lined([P], KEY_LINES) },
      head: [pyFunction("test_p", SOURCE, { line: 5, shadowedLines: [2] })],
      where: [["property.shadowed", FILE, 5]],
    },
    {
      name: "a vacuous function points at the line that cannot fail",
      sides: { base: undefined, head: lined([P], KEY_LINES) },
      head: [
        pyFunction("test_p", SOURCE, {
          line: 5,
          vacuity: { reason: "constant", line: 6 },
        }),
      ],
      where: [["property.vacuous", FILE, 6]],
    },
    {
      name: "lowered settings point at the @settings line",
      sides: { base: registry([P]), head: lined([P], KEY_LINES) },
      head: [
        pyFunction("test_p", SOURCE, {
          line: 5,
          settings: { line: 4, keywords: { derandomize: "True" } },
        }),
      ],
      where: [["property.examples_lowered", FILE, 4]],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const head = c.head === undefined
        ? [pyFunction("test_p", SOURCE)]
        : c.head;
      const findings = checkPropertyRegistry(c.sides, options(head));
      assert.deepEqual(findings.map((f) => [f.rule, f.path, f.line]), c.where);
    });
  }
});

Deno.test("checkPropertyRegistry() messages name the property, its target and what to restore", async (t) => {
  const Q = { ...P, id: "q" };
  const messages = (
    sides: ContractSides<PropertyRegistry>,
    head: PythonFunction[] | null = [pyFunction("test_p", SOURCE)],
    extra: Partial<CheckPropertyRegistryOptions> = {},
  ) =>
    checkPropertyRegistry(sides, { ...options(head), ...extra }).map((f) =>
      f.message
    );
  const got = sourceSha256("def test_q(x):\n    assert g(x)");
  const cases: { name: string; messages: string[]; want: string[] }[] = [
    {
      name: "one property below the minimum is counted in the singular",
      messages: messages({
        base: registry([P], { minProperties: 2 }),
        head: null,
      }),
      want: [
        "The registry holds 1 property, fewer than min_properties 2: restore the removed properties",
      ],
    },
    {
      name: "no property below the minimum is counted in the plural",
      messages: messages({
        base: undefined,
        head: registry([], { minProperties: 1 }),
      }),
      want: [
        "The registry holds 0 properties, fewer than min_properties 1: restore the removed properties",
      ],
    },
    {
      name: "a lowered minimum names both values",
      messages: messages({
        base: registry([P], { minProperties: 1 }),
        head: registry([P], { minProperties: 0 }),
      }),
      want: [
        "The pull request lowers min_properties from 1 to 0: the property policy changes only in a human commit",
      ],
    },
    {
      name: "allow_agent_additions turned on says who changes the policy",
      messages: messages({
        base: registry([P]),
        head: registry([P], { allowAgentAdditions: true }),
      }),
      want: [
        "The pull request turns allow_agent_additions on: the property policy changes only in a human commit",
      ],
    },
    {
      name: "a removed property says a human removes it",
      messages: messages({ base: registry([P]), head: registry([]) }),
      want: [
        'Property "p" was removed from the registry: a registered property may only be removed in a human commit',
      ],
    },
    {
      name: "a retargeted property names both targets",
      messages: messages(
        { base: registry([P]), head: registry([{ ...P, function: "test_q" }]) },
        [pyFunction("test_p", SOURCE), pyFunction("test_q", SOURCE)],
      ),
      want: [
        'Property "p" now points at "tests.test_p:test_q" instead of "tests.test_p:test_p": the base target is still checked',
      ],
    },
    {
      name: "a rewritten hash names both hashes, shortened",
      messages: messages({
        base: registry([P]),
        head: registry([{ ...P, sourceSha256: sha("c") }]),
      }),
      want: [
        `Property "p" source_sha256 was rewritten from ${
          P.sourceSha256.slice(0, 12)
        } to ${
          sha("c").slice(0, 12)
        }: a recorded hash changes only in a human commit`,
      ],
    },
    {
      name: "a forbidden addition names the policy",
      messages: messages({
        base: registry([P]),
        head: registry([P, { ...Q, sourceSha256: sourceSha256(SOURCE) }]),
      }),
      want: [
        'Property "q" is added while the base policy sets allow_agent_additions = false: a human adds properties',
      ],
    },
    {
      name: "a new property with a wrong hash offers the real one",
      messages: messages(
        { base: undefined, head: registry([{ ...P, function: "test_q" }]) },
        [pyFunction("test_q", "def test_q(x):\n    assert g(x)")],
      ),
      want: [
        `Property "p" records source_sha256 ${
          P.sourceSha256.slice(0, 12)
        } but "test_q" hashes to ${
          got.slice(0, 12)
        }: record the hash of the function as it is (${got})`,
      ],
    },
    {
      name: "a missing module names the module and its file",
      messages: messages({ base: registry([P]), head: registry([P]) }, null),
      want: [
        'Property "p" module "tests.test_p" has no regular file "tests/test_p.py" at head: restore the module, do not delete the property',
      ],
    },
    {
      name: "a missing function names the function and its file",
      messages: messages({ base: registry([P]), head: registry([P]) }, []),
      want: [
        'Property "p" function "test_p" is not defined at module level in "tests/test_p.py": restore the function, do not delete the property',
      ],
    },
    {
      name: "a missing function in a file that does not parse names the line",
      messages: checkPropertyRegistry(
        { base: registry([P]), head: registry([P]) },
        {
          ...options([]),
          headModules: new Map([[FILE, {
            ...pyModule(),
            syntaxError: { line: 4, column: 1 },
          }]]),
        },
      ).map((f) => f.message),
      want: [
        'Property "p" function "test_p" is not defined at module level in "tests/test_p.py" (the file has a syntax error at line 4): restore the function, do not delete the property',
      ],
    },
    {
      name: "an async def says the seed's checker never finds it",
      messages: messages({ base: registry([P]), head: registry([P]) }, [
        pyFunction("test_p", `async ${SOURCE}`),
      ]),
      want: [
        `Property "p" function "test_p" in "tests/test_p.py" is an async def, which the seed's checker never finds (it hashes a plain def): register a plain def`,
      ],
    },
    {
      name: "a shadowed function lists every definition's line",
      messages: messages({ base: registry([P]), head: registry([P]) }, [
        pyFunction("test_p", SOURCE, { line: 9, shadowedLines: [2, 5] }),
      ]),
      want: [
        'Property "p" function "test_p" is defined more than once in "tests/test_p.py" (lines 2, 5, 9): pytest runs only the last definition, so an earlier body can hide behind it; keep exactly one definition',
      ],
    },
    ...([
      ["no_assertion", "it has no assertion"],
      ["constant", "it only asserts a constant (such as assert True)"],
      ["tautology", "it only compares an expression with itself"],
    ] as const).map(([reason, text]) => ({
      name: `a vacuous property says why it cannot fail: ${reason}`,
      messages: messages({ base: undefined, head: registry([P]) }, [
        pyFunction("test_p", SOURCE, { vacuity: { reason, line: 11 } }),
      ]),
      want: [
        `Property "p" function "test_p" cannot fail: ${text}; restore the invariant`,
      ],
    })),
    {
      name: "lowered settings say decorators sit outside the hash",
      messages: messages({ base: registry([P]), head: registry([P]) }, [
        pyFunction("test_p", SOURCE, {
          settings: { line: 8, keywords: { derandomize: "True" } },
        }),
      ]),
      want: [
        'Property "p" function "test_p" changed derandomize from the default to "True", which can hide failures: decorators sit outside the source hash, restore the base settings',
      ],
    },
    {
      name: "findings name the registry's own path when given",
      messages: checkPropertyRegistry(
        { base: registry([P]), head: registry([]) },
        {
          ...options([pyFunction("test_p", SOURCE)]),
          path: "ci/invariants.toml",
        },
      ).map((f) => f.path ?? ""),
      want: ["ci/invariants.toml"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.deepEqual(c.messages, c.want);
    });
  }
});
