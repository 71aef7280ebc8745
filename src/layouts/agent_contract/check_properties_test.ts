import assert from "node:assert/strict";
import type { PythonModule } from "../../python/python_module.ts";
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
