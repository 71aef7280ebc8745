import assert from "node:assert/strict";
import type { Finding } from "../../core/finding.ts";
import type { BindingKind, PythonModule } from "../../python/python_module.ts";
import {
  agentContract,
  CONTRACT,
  pyFunction,
  type PyFunctionOptions,
  pyModule,
  SEED_CONTRACT,
} from "./_testing.ts";
import {
  checkProperties,
  HYPOTHESIS_DEFAULT_MAX_EXAMPLES,
} from "./check_properties.ts";
import {
  type ContractProperty,
  type ContractSection,
  readAgentContract,
} from "./read_agent_contract.ts";

const FILE = "tests/properties/test_parse.py";
const PROPERTY: ContractProperty = {
  id: "parse_rejects_empty",
  module: "tests.properties.test_parse",
  name: "test_empty_input_raises",
  minExamples: 40,
};

function modules(
  fn: PyFunctionOptions | null,
  file = FILE,
  qualname = PROPERTY.name,
): Map<string, PythonModule> {
  return new Map([[
    file,
    fn === null ? pyModule() : pyModule(pyFunction(qualname, fn)),
  ]]);
}

Deno.test("checkProperties() judges the registered test in its module", async (t) => {
  const cases: {
    name: string;
    head: Map<string, PythonModule>;
    property?: Partial<ContractProperty>;
    rules: string[];
    at?: string;
  }[] = [
    {
      name: "a Hypothesis test with enough examples passes",
      head: modules({ maxExamples: 40 }),
      rules: [],
    },
    {
      name: "a module that is not in the head tree is missing",
      head: new Map(),
      rules: ["property.module_missing"],
      at: CONTRACT,
    },
    {
      name: "a package module (__init__.py) is found",
      head: modules(
        { maxExamples: 40 },
        "tests/properties/test_parse/__init__.py",
      ),
      rules: [],
    },
    {
      name: "a test function that is gone is missing",
      head: modules(null),
      rules: ["property.test_missing"],
      at: CONTRACT,
    },
    {
      name: "a test renamed in the module is missing",
      head: modules({ maxExamples: 40 }, FILE, "test_empty_input_raises_v2"),
      rules: ["property.test_missing"],
    },
    {
      name: "a method is found by Class.name",
      head: modules({ maxExamples: 40 }, FILE, "TestParse.test_x"),
      property: { name: "TestParse.test_x" },
      rules: [],
    },
    {
      name: "a module-level function does not satisfy Class.name",
      head: modules({ maxExamples: 40 }, FILE, "test_x"),
      property: { name: "TestParse.test_x" },
      rules: ["property.test_missing"],
    },
    {
      name: "assert True is vacuous, at the test file",
      head: modules({
        maxExamples: 40,
        vacuity: { reason: "constant", line: 12 },
      }),
      rules: ["property.vacuous"],
      at: FILE,
    },
    {
      name: "a body without assertions is vacuous",
      head: modules({
        maxExamples: 40,
        vacuity: { reason: "no_assertion", line: 11 },
      }),
      rules: ["property.vacuous"],
    },
    {
      name: "assert x == x is vacuous",
      head: modules({
        maxExamples: 40,
        vacuity: { reason: "tautology", line: 11 },
      }),
      rules: ["property.vacuous"],
    },
    {
      name: "max_examples below min_examples is below the contract",
      head: modules({ maxExamples: 39 }),
      rules: ["property.examples_below_contract"],
      at: FILE,
    },
    {
      name: "max_examples equal to min_examples passes",
      head: modules({ maxExamples: 40 }),
      rules: [],
    },
    {
      name: "no max_examples means Hypothesis' default of 100",
      head: modules({}),
      property: { minExamples: HYPOTHESIS_DEFAULT_MAX_EXAMPLES },
      rules: [],
    },
    {
      name: "the default of 100 is below a min_examples of 101",
      head: modules({}),
      property: { minExamples: 101 },
      rules: ["property.examples_below_contract"],
    },
    {
      name: "@settings without max_examples still means 100",
      head: modules({ keywords: { deadline: "None" } }),
      property: { minExamples: 101 },
      rules: ["property.examples_below_contract"],
    },
    {
      name: "a non-literal max_examples cannot be verified",
      head: modules({ dynamic: true }),
      rules: ["property.examples_below_contract"],
    },
    {
      name: "a test without @given runs one example",
      head: modules({ usesHypothesis: false }),
      rules: ["property.examples_below_contract"],
    },
    {
      name: "a test without @given is enough for min_examples 1",
      head: modules({ usesHypothesis: false }),
      property: { minExamples: 1 },
      rules: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkProperties(
        agentContract({ properties: [{ ...PROPERTY, ...c.property }] }),
        { modules: c.head, path: CONTRACT },
      );
      assert.deepEqual(findings.map((f) => f.rule), c.rules);
      for (const f of findings) {
        assert.equal(f.layer, "property");
        assert.equal(f.blocking, true);
        if (c.at !== undefined) assert.equal(f.path, c.at);
      }
    });
  }
});

Deno.test("checkProperties() says which vacuity reason, at the assertion line", () => {
  const [f] = checkProperties(agentContract({ properties: [PROPERTY] }), {
    modules: modules({
      maxExamples: 40,
      vacuity: { reason: "constant", line: 12 },
    }),
    path: CONTRACT,
  });
  assert.equal(f?.path, FILE);
  assert.equal(f?.line, 12);
  assert.equal(
    f?.message,
    'Property "parse_rejects_empty" test "test_empty_input_raises" cannot fail: it only asserts a constant (such as assert True); restore the invariant',
  );
});

Deno.test("checkProperties() points contract problems at the contract lines", () => {
  const contract = readAgentContract(SEED_CONTRACT, { path: CONTRACT });
  const findings = checkProperties(contract, {
    modules: modules(null),
    path: CONTRACT,
  });
  assert.deepEqual(findings.map((f) => [f.rule, f.path, f.line]), [
    ["property.test_missing", CONTRACT, 6],
    ["property.module_missing", CONTRACT, 9],
  ]);
});

Deno.test("checkProperties() reports weakened settings against the base test", async (t) => {
  const cases: {
    name: string;
    base: PyFunctionOptions;
    head: PyFunctionOptions;
    rules: string[];
  }[] = [
    {
      name: "max_examples lowered, though still above the contract",
      base: { maxExamples: 500 },
      head: { maxExamples: 200 },
      rules: ["property.examples_lowered"],
    },
    {
      name: "max_examples raised is fine",
      base: { maxExamples: 50 },
      head: { maxExamples: 60 },
      rules: [],
    },
    {
      name: "@settings removed drops 500 to the default 100",
      base: { maxExamples: 500 },
      head: {},
      rules: ["property.examples_lowered"],
    },
    {
      name: "@given removed drops to one example",
      base: { maxExamples: 40 },
      head: { usesHypothesis: false },
      rules: [
        "property.examples_below_contract",
        "property.examples_lowered",
      ],
    },
    {
      name: "deadline added is not weakening",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { deadline: "None" } },
      rules: [],
    },
    {
      name: "verbosity and database changes are not weakening",
      base: { maxExamples: 40 },
      head: {
        maxExamples: 40,
        keywords: { verbosity: "Verbosity.verbose", database: "None" },
      },
      rules: [],
    },
    {
      name: "phases restricted to explicit examples",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { phases: "[Phase.explicit]" } },
      rules: ["property.examples_lowered"],
    },
    {
      name: "phases without shrink is not weakening",
      base: { maxExamples: 40 },
      head: {
        maxExamples: 40,
        keywords: {
          phases: "(Phase.explicit, Phase.reuse, Phase.generate, Phase.target)",
        },
      },
      rules: [],
    },
    {
      name: "phases widened back to generate is not weakening",
      base: { maxExamples: 40, keywords: { phases: "[Phase.explicit]" } },
      head: {
        maxExamples: 40,
        keywords: { phases: "[Phase.explicit, Phase.generate]" },
      },
      rules: [],
    },
    {
      name: "phases set from a variable is weakening",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { phases: "FAST_PHASES" } },
      rules: ["property.examples_lowered"],
    },
    {
      name: "suppress_health_check added",
      base: { maxExamples: 40 },
      head: {
        maxExamples: 40,
        keywords: { suppress_health_check: "[HealthCheck.too_slow]" },
      },
      rules: ["property.examples_lowered"],
    },
    {
      name: "suppress_health_check narrowed is not weakening",
      base: {
        maxExamples: 40,
        keywords: {
          suppress_health_check:
            "[HealthCheck.too_slow, HealthCheck.filter_too_much]",
        },
      },
      head: {
        maxExamples: 40,
        keywords: { suppress_health_check: "[HealthCheck.too_slow]" },
      },
      rules: [],
    },
    {
      name: "suppress_health_check=list(HealthCheck) is weakening",
      base: { maxExamples: 40 },
      head: {
        maxExamples: 40,
        keywords: { suppress_health_check: "list(HealthCheck)" },
      },
      rules: ["property.examples_lowered"],
    },
    {
      name: "derandomize turned on ignores pawl's seed",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { derandomize: "True" } },
      rules: ["property.examples_lowered"],
    },
    {
      name: "derandomize=False is not weakening",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { derandomize: "False" } },
      rules: [],
    },
    {
      name: "stateful_step_count lowered below the default",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { stateful_step_count: "5" } },
      rules: ["property.examples_lowered"],
    },
    {
      name: "stateful_step_count raised",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { stateful_step_count: "1_000" } },
      rules: [],
    },
    {
      name: "a parent settings object added",
      base: { maxExamples: 40 },
      head: { maxExamples: 40, keywords: { parent: "FAST" } },
      rules: ["property.examples_lowered"],
    },
    {
      name: "unchanged settings with a keyword pawl does not know",
      base: { maxExamples: 40, keywords: { backend: '"crosshair"' } },
      head: { maxExamples: 40, keywords: { backend: '"crosshair"' } },
      rules: [],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const findings = checkProperties(
        agentContract({ properties: [PROPERTY] }),
        {
          modules: modules(c.head),
          baseModules: modules(c.base),
          path: CONTRACT,
        },
      );
      assert.deepEqual(findings.map((f) => f.rule).sort(), c.rules);
      for (const f of findings) assert.equal(f.path, FILE);
    });
  }
});

Deno.test("checkProperties() compares with the base test the property id named at base", () => {
  const head = agentContract({
    properties: [{ ...PROPERTY, name: "test_other" }],
  });
  const base = agentContract({ properties: [PROPERTY] });
  const headModules = new Map([[
    FILE,
    pyModule(pyFunction("test_other", { maxExamples: 40 })),
  ]]);
  const findings = checkProperties(head, {
    modules: headModules,
    baseModules: modules({ maxExamples: 1000 }),
    baseContract: base,
    path: CONTRACT,
  });
  assert.deepEqual(findings.map((f) => f.rule), ["property.examples_lowered"]);
  assert.match(
    findings[0]?.message ?? "",
    /lowered its example count from 1000 to 40/,
  );
});

Deno.test("checkProperties() mentions a syntax error when the test is not found", () => {
  const findings = checkProperties(agentContract({ properties: [PROPERTY] }), {
    modules: new Map([[FILE, {
      functions: new Map(),
      syntaxError: { line: 3, column: 1 },
    }]]),
    path: CONTRACT,
  });
  assert.match(findings[0]?.message ?? "", /syntax error at line 3/);
});

Deno.test("checkProperties() says what each finding is about: the property, the test, its file and the numbers", async (t) => {
  const judge = (
    head: Map<string, PythonModule>,
    base?: Map<string, PythonModule>,
    property: Partial<ContractProperty> = {},
  ) =>
    checkProperties(
      agentContract({ properties: [{ ...PROPERTY, ...property }] }),
      {
        modules: head,
        path: CONTRACT,
        ...(base === undefined ? {} : { baseModules: base }),
      },
    );
  const bound = (kind: BindingKind) => {
    const module = pyModule();
    module.bindings = new Map([[PROPERTY.name, [
      { kind: "def", line: 3 },
      { kind, line: 9 },
    ]]]);
    return new Map([[FILE, module]]);
  };
  const cases: [string, () => Finding[], [string, string, number][], RegExp][] =
    [
      [
        "a missing module names both files it looked for",
        () => judge(new Map()),
        [["property.module_missing", CONTRACT, 0]],
        /^Property "parse_rejects_empty" module "tests\.properties\.test_parse" has no file at head: neither "tests\/properties\/test_parse\.py" nor "tests\/properties\/test_parse\/__init__\.py" is a regular file$/,
      ],
      [
        "a missing test names the test and its file",
        () => judge(modules(null)),
        [["property.test_missing", CONTRACT, 0]],
        /^Property "parse_rejects_empty" test "test_empty_input_raises" is not defined in "tests\/properties\/test_parse\.py": restore the test, do not delete the property$/,
      ],
      [
        "a test name bound last to something else says where",
        () => judge(bound("assign")),
        [["property.test_missing", CONTRACT, 0]],
        /^Property "parse_rejects_empty" test "test_empty_input_raises" in "tests\/properties\/test_parse\.py" is bound at line 9 to something pawl cannot read as a test: .*"test_empty_input_raises = Machine\.TestCase" or "class test_empty_input_raises\(Machine\.TestCase\)".*: restore the base's binding$/,
      ],
      [
        "a test name deleted last is simply not defined",
        () => judge(bound("del")),
        [["property.test_missing", CONTRACT, 0]],
        /is not defined in "tests\/properties\/test_parse\.py": restore the test/,
      ],
      [
        "a test name bound last by a def the analysis did not see is not defined",
        () => judge(bound("def")),
        [["property.test_missing", CONTRACT, 0]],
        /is not defined in /,
      ],
      [
        "a max_examples pawl cannot read names what is written and the minimum",
        () => judge(modules({ dynamic: true })),
        [["property.examples_below_contract", FILE, 8]],
        /^Property "parse_rejects_empty" test "test_empty_input_raises" sets max_examples to "N_EXAMPLES", which cannot be read statically: write an integer literal of at least 40$/,
      ],
      [
        "too few examples names the count and the minimum, at the settings line",
        () => judge(modules({ maxExamples: 39 })),
        [["property.examples_below_contract", FILE, 8]],
        /^Property "parse_rejects_empty" test "test_empty_input_raises" runs at most 39 examples but the contract requires min_examples 40: restore the count$/,
      ],
      [
        "too few examples without settings points at the def",
        () => judge(modules({ usesHypothesis: false })),
        [["property.examples_below_contract", FILE, 10]],
        /but the contract requires min_examples 40/,
      ],
      [
        "fewer examples than at base says so, at the settings line",
        () =>
          judge(modules({ maxExamples: 200 }), modules({ maxExamples: 500 })),
        [["property.examples_lowered", FILE, 8]],
        /^Property "parse_rejects_empty" test "test_empty_input_raises" .*500.*200.*: restore the base settings$/,
      ],
    ];
  for (const [name, run, expected, message] of cases) {
    await t.step(name, () => {
      const found = run();
      assert.deepEqual(
        found.map((f) => [f.rule, f.path, f.line ?? 0]),
        expected,
      );
      assert.match(found[0]?.message ?? "", message);
    });
  }
});

Deno.test("checkProperties() points at the property's entry when its key has no line", () => {
  const base = readAgentContract(SEED_CONTRACT, { path: CONTRACT });
  const contract = {
    ...base,
    lines: {
      ...base.lines,
      entry: (section: ContractSection, id: string, key?: string) =>
        key === undefined ? base.lines.entry(section, id) : undefined,
    },
  } as typeof base;
  const findings = checkProperties(contract, {
    modules: modules(null),
    path: CONTRACT,
  });
  assert.deepEqual(findings.map((f) => [f.rule, f.line]), [
    ["property.test_missing", 4],
    ["property.module_missing", 8],
  ]);
});

Deno.test("checkProperties() compares with the first base entry of a property id listed twice", () => {
  const head = agentContract({
    properties: [{ ...PROPERTY, name: "test_other" }],
  });
  const base = agentContract({
    properties: [PROPERTY, { ...PROPERTY, name: "test_second" }],
  });
  const findings = checkProperties(head, {
    modules: new Map([[
      FILE,
      pyModule(pyFunction("test_other", { maxExamples: 40 })),
    ]]),
    baseModules: new Map([[
      FILE,
      pyModule(
        pyFunction(PROPERTY.name, { maxExamples: 1000 }),
        pyFunction("test_second", { maxExamples: 40 }),
      ),
    ]]),
    baseContract: base,
    path: CONTRACT,
  });
  assert.match(
    findings[0]?.message ?? "",
    /lowered its example count from 1000 to 40/,
  );
});

Deno.test("checkProperties() says why a test cannot fail and what an unreadable count was", async (t) => {
  const judgeOne = (fn: ReturnType<typeof pyFunction>, module = pyModule(fn)) =>
    checkProperties(agentContract({ properties: [PROPERTY] }), {
      modules: new Map([[FILE, module]]),
      path: CONTRACT,
    }).map((f) => f.message);
  await t.step("a test with no assertion", () => {
    const [message] = judgeOne(pyFunction(PROPERTY.name, {
      maxExamples: 40,
      vacuity: { reason: "no_assertion", line: 11 },
    }));
    assert.match(message ?? "", /cannot fail: it has no assertion; /);
  });
  await t.step("a test that compares an expression with itself", () => {
    const [message] = judgeOne(pyFunction(PROPERTY.name, {
      maxExamples: 40,
      vacuity: { reason: "tautology", line: 11 },
    }));
    assert.match(
      message ?? "",
      /cannot fail: it only compares an expression with itself; /,
    );
  });
  await t.step("an unreadable count with no max_examples keyword", () => {
    const fn = pyFunction(PROPERTY.name);
    fn.settings = { line: 8, keywords: {}, maxExamplesDynamic: true };
    const [message] = judgeOne(fn);
    assert.match(message ?? "", /sets max_examples to "\?", which cannot/);
  });
  await t.step(
    "a missing test in a module that records other names' bindings",
    () => {
      const module = pyModule();
      module.bindings = new Map([["test_other", [{ kind: "def", line: 3 }]]]);
      const messages = judgeOne(pyFunction("unused"), module);
      assert.match(messages[0] ?? "", /is not defined in /);
    },
  );
});

Deno.test("checkProperties() compares nothing when the base has no module for the property", () => {
  const findings = checkProperties(agentContract({ properties: [PROPERTY] }), {
    modules: modules({ maxExamples: 40 }),
    baseModules: new Map(),
    baseContract: agentContract({ properties: [PROPERTY] }),
    path: CONTRACT,
  });
  assert.deepEqual(findings, []);
});
