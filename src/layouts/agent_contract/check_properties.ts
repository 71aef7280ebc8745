/**
 * Layer 1 of seed 000: a registered property is a named invariant that must
 * exist, must be able to fail, and must run at least `min_examples`
 * Hypothesis examples. Judged on parsed source (`PythonModule`), never on
 * regular expressions over files.
 *
 * @module
 */
import { plural } from "../../core/plural.ts";
import { type Finding, finding } from "../../core/finding.ts";
import type {
  PythonFunction,
  PythonModule,
  VacuityReason,
} from "../../python/python_module.ts";
import {
  type HypothesisExamples,
  hypothesisExamples,
  weakenedSettings,
} from "../../contract/weakened_settings.ts";
import type { AgentContract, ContractProperty } from "./read_agent_contract.ts";
import {
  type ActiveProfile,
  activeProfile,
  examplesOf,
} from "../../contract/hypothesis_profiles.ts";
import { modulePathCandidates } from "../../contract/module_path.ts";

export { HYPOTHESIS_DEFAULT_MAX_EXAMPLES } from "../../contract/weakened_settings.ts";

/** Options for {@linkcode checkProperties}. */
export interface CheckPropertiesOptions {
  /** Head analyses of every file `modulePath` resolved, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Base analyses, keyed by path, to detect settings weakened in the patch. */
  baseModules?: ReadonlyMap<string, PythonModule> | undefined;
  /** The base contract, to find the base test of a property id. */
  baseContract?: AgentContract;
  /** Repository-relative path of the contract file, for findings. */
  path: string;
  /** The base's `[environment] env`, which may choose the profile. */
  env?: Readonly<Record<string, string>> | undefined;
}

/**
 * Judge every registered property against the parsed head modules:
 * - no module file → `property.module_missing` (contract line);
 * - no such function (`test_x` or `Class.test_x`) → `property.test_missing`
 *   (contract line);
 * - the analysis found it cannot fail → `property.vacuous` (test file, at
 *   the assertion);
 * - fewer examples than `min_examples` → `property.examples_below_contract`
 *   (test file). A test without `@given` runs one example; a Hypothesis test
 *   without `max_examples` runs the default 100; a `max_examples` that is not
 *   an integer literal cannot be verified and is reported under this rule;
 * - compared with the same test at base: fewer examples, or a Hypothesis
 *   setting changed in a weakening way (a failure-finding `phase` dropped,
 *   `suppress_health_check` widened, `derandomize` turned on,
 *   `stateful_step_count` lowered, any unknown keyword such as `parent` or
 *   `backend` added, changed or removed) → `property.examples_lowered`.
 *   `deadline`, `verbosity`, `print_blob`, `report_multiple_bugs` and
 *   `database` are not weakening.
 *
 * @example
 * ```ts
 * import { checkProperties } from "./check_properties.ts";
 * import { NO_LINES } from "./read_agent_contract.ts";
 * const findings = checkProperties({
 *   version: 1, fixtures: [], freezes: [], maxActiveFreezes: 0, lines: NO_LINES,
 *   properties: [{ id: "p", module: "tests.test_p", name: "test_p", minExamples: 10 }],
 * }, { modules: new Map(), path: "tests/agent_contract.yaml" });
 * if (findings[0]?.rule !== "property.module_missing") throw new Error();
 * ```
 */
export function checkProperties(
  contract: AgentContract,
  options: CheckPropertiesOptions,
): Finding[] {
  const { modules, path } = options;
  const findings: Finding[] = [];
  // The profile in effect when the tests run, as the base configures it
  // (a head that changes a conftest or a test module's profile calls is
  // judged by the harness rules): its conftest and __init__ files and its
  // registered test modules, as propose reads them, and its variables.
  const profileSource = options.baseModules ?? modules;
  const testModules = new Set<string>();
  for (
    const p of [
      ...contract.properties,
      ...(options.baseContract?.properties ?? []),
    ]
  ) {
    const found = resolveModule(p.module, profileSource);
    if (found !== undefined) testModules.add(found.path);
  }
  const profile = activeProfile(
    [...profileSource].filter(([path, module]) =>
      module.syntaxError === undefined &&
      (testModules.has(path) || /(^|\/)(conftest|__init__)\.py$/.test(path))
    ).map(([path, module]) => ({ path, module })),
    { env: options.env },
  );
  // By id, first entry wins (as a linear search would): thousands of
  // properties must not cost a scan of the base contract each.
  const baseById = new Map<string, ContractProperty>();
  // Stryker disable next-line ArrayDeclaration: with no base contract no property looks anything up by a stand-in's missing id, so the index stays unused either way
  for (const p of options.baseContract?.properties ?? []) {
    if (!baseById.has(p.id)) baseById.set(p.id, p);
  }
  for (const property of contract.properties) {
    const name = JSON.stringify(property.id);
    const lines = contract.lines;
    const resolved = resolveModule(property.module, modules);
    if (resolved === undefined) {
      const [pkg, mod] = modulePathCandidates(property.module);
      findings.push(finding(
        "property.module_missing",
        `Property ${name} module ${
          JSON.stringify(property.module)
        } has no file at head: neither ${JSON.stringify(mod)} nor ${
          JSON.stringify(pkg)
        } is a regular file`,
        {
          path,
          line: lines.entry("properties", property.id, "module") ??
            lines.entry("properties", property.id),
        },
      ));
      continue;
    }
    const fn = resolved.module.functions.get(property.name);
    if (fn === undefined) {
      const syntax = resolved.module.syntaxError;
      const bound = resolved.module.bindings?.get(property.name)?.at(-1);
      findings.push(finding(
        "property.test_missing",
        bound !== undefined && bound.kind !== "def" && bound.kind !== "del"
          ? `Property ${name} test ${JSON.stringify(property.name)} in ${
            JSON.stringify(resolved.path)
          } is bound at line ${bound.line} to something pawl cannot read as a test: a test is a def, a method, or a state machine's TestCase bound as "${property.name} = Machine.TestCase" or "class ${property.name}(Machine.TestCase)"; a wrapped TestCase (pytest.mark.skip(...)(Machine.TestCase), unittest.skip(...)) hides what runs: restore the base's binding`
          : `Property ${name} test ${
            JSON.stringify(property.name)
          } is not defined in ${JSON.stringify(resolved.path)}${
            syntax === undefined
              ? ""
              : ` (the file has a syntax error at line ${syntax.line})`
          }: restore the test, do not delete the property`,
        {
          path,
          line: lines.entry("properties", property.id, "name") ??
            lines.entry("properties", property.id),
        },
      ));
      continue;
    }
    const testName = `Property ${name} test ${JSON.stringify(fn.qualname)}`;
    if (fn.vacuity !== undefined) {
      findings.push(finding(
        "property.vacuous",
        `${testName} cannot fail: ${
          VACUITY[fn.vacuity.reason]
        }; restore the invariant`,
        { path: resolved.path, line: fn.vacuity.line },
      ));
    }
    const examples = underProfile(hypothesisExamples(fn), fn, profile);
    const where = { path: resolved.path, line: fn.settings?.line ?? fn.line };
    if (examples.kind === "dynamic") {
      findings.push(finding(
        "property.examples_below_contract",
        `${testName} sets max_examples to ${
          JSON.stringify(
            // Stryker disable next-line OptionalChaining: an unreadable count comes only from a test's own settings, so they are there whenever this message is written
            fn.settings?.keywords["max_examples"] ?? "?",
          )
        }, which cannot be read statically: write an integer literal of at least ${property.minExamples}`,
        where,
      ));
    } else if (examples.count < property.minExamples) {
      findings.push(finding(
        "property.examples_below_contract",
        `${testName} ${examples.description} but the contract requires min_examples ${property.minExamples}: restore the count`,
        where,
      ));
    }
    const baseFn = baseFunction(property, baseById, options);
    if (baseFn !== undefined) {
      for (const detail of weakenedSettings(fn, baseFn)) {
        findings.push(finding(
          "property.examples_lowered",
          `${testName} ${detail}: restore the base settings`,
          where,
        ));
      }
    }
  }
  return findings;
}

/**
 * A test without `max_examples` of its own runs as many examples as the
 * loaded profile says, when pawl can read that profile.
 */
function underProfile(
  examples: HypothesisExamples,
  fn: PythonFunction,
  profile: ActiveProfile,
): HypothesisExamples {
  if (
    examples.kind !== "known" || !fn.usesHypothesis ||
    // Stryker disable next-line ConditionalExpression: a test's own max_examples makes examplesOf() answer from its settings, never from the profile, so the next check returns the same
    fn.settings?.maxExamples !== undefined
  ) return examples;
  const source = examplesOf(fn, profile);
  if (source.from !== "profile") return examples;
  return {
    // Stryker disable next-line StringLiteral: the caller tells only a "dynamic" count apart, and a profile's count never is one
    kind: "known",
    count: source.count,
    description: `runs ${
      plural(source.count, "example")
    } under the ${source.detail}`,
  };
}

const VACUITY: Record<VacuityReason, string> = {
  "no_assertion": "it has no assertion",
  constant: "it only asserts a constant (such as assert True)",
  tautology: "it only compares an expression with itself",
};

interface ResolvedModule {
  path: string;
  module: PythonModule;
}

function resolveModule(
  module: string,
  modules: ReadonlyMap<string, PythonModule>,
): ResolvedModule | undefined {
  for (const path of modulePathCandidates(module)) {
    const found = modules.get(path);
    if (found !== undefined) return { path, module: found };
  }
  return undefined;
}

function baseFunction(
  property: ContractProperty,
  baseById: ReadonlyMap<string, ContractProperty>,
  options: CheckPropertiesOptions,
): PythonFunction | undefined {
  if (options.baseModules === undefined) return undefined;
  const target = baseById.get(property.id) ?? property;
  return resolveModule(target.module, options.baseModules)?.module.functions
    .get(target.name);
}
