/**
 * Layer 1 of seed 000: a registered property is a named invariant that must
 * exist, must be able to fail, and must run at least `min_examples`
 * Hypothesis examples. Judged on parsed source (`PythonModule`), never on
 * regular expressions over files.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type {
  HypothesisSettings,
  PythonFunction,
  PythonModule,
  VacuityReason,
} from "../../python/python_module.ts";
import type { AgentContract, ContractProperty } from "./read_agent_contract.ts";

/**
 * Hypothesis' `max_examples` when no `@settings(max_examples=...)` is
 * written. Profiles loaded in a conftest are out of reach of a static
 * check; the harness rules guard conftest changes instead.
 */
export const HYPOTHESIS_DEFAULT_MAX_EXAMPLES = 100;

/** Hypothesis' default `stateful_step_count`. */
const DEFAULT_STATEFUL_STEP_COUNT = 50;

/** Settings keywords that never make a test weaker at finding bugs. */
const HARMLESS_KEYWORDS = new Set([
  "deadline",
  "verbosity",
  "print_blob",
  "report_multiple_bugs",
  "database",
]);

/**
 * The phases that find failures. Dropping `shrink` or `explain` only makes
 * reports less readable, so those are not weakening.
 */
const FINDING_PHASES = ["explicit", "reuse", "generate", "target"];

/** Options for {@linkcode checkProperties}. */
export interface CheckPropertiesOptions {
  /** Head analyses of every file {@linkcode modulePath} resolved, keyed by path. */
  modules: ReadonlyMap<string, PythonModule>;
  /** Base analyses, keyed by path, to detect settings weakened in the patch. */
  baseModules?: ReadonlyMap<string, PythonModule>;
  /** The base contract, to find the base test of a property id. */
  baseContract?: AgentContract;
  /** Repository-relative path of the contract file, for findings. */
  path: string;
}

/**
 * The candidate files of a dotted module, in Python's own lookup order: a
 * regular package (`a/b/c/__init__.py`) wins over a module (`a/b/c.py`).
 *
 * @example
 * ```ts
 * import { modulePathCandidates } from "./check_properties.ts";
 * if (modulePathCandidates("a.b").join() !== "a/b/__init__.py,a/b.py") throw new Error();
 * ```
 */
export function modulePathCandidates(module: string): [string, string] {
  const base = module.split(".").join("/");
  return [`${base}/__init__.py`, `${base}.py`];
}

/**
 * The file a dotted module resolves to in `tree`, or `undefined`. Only
 * regular files count: a symlinked module (or one under a symlinked
 * directory, which a git tree does not list) is not resolved.
 *
 * @example
 * ```ts
 * import { modulePath } from "./check_properties.ts";
 * const path = "tests/properties/test_parse.py";
 * const tree = new Map([[path, { path, kind: "file" as const, oid: "1", size: 9 }]]);
 * if (modulePath("tests.properties.test_parse", tree) !== path) throw new Error();
 * ```
 */
export function modulePath(module: string, tree: Tree): string | undefined {
  return modulePathCandidates(module).find((candidate) => {
    const kind = tree.get(candidate)?.kind;
    return kind === "file" || kind === "executable";
  });
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
      findings.push(finding(
        "property.test_missing",
        `Property ${name} test ${
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
    const examples = examplesOf(fn);
    const where = { path: resolved.path, line: fn.settings?.line ?? fn.line };
    if (examples.kind === "dynamic") {
      findings.push(finding(
        "property.examples_below_contract",
        `${testName} sets max_examples to ${
          JSON.stringify(fn.settings?.keywords["max_examples"] ?? "?")
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
    const baseFn = baseFunction(property, options);
    if (baseFn !== undefined) {
      findings.push(...weakenedSettings(testName, fn, baseFn, where));
    }
  }
  return findings;
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
  options: CheckPropertiesOptions,
): PythonFunction | undefined {
  if (options.baseModules === undefined) return undefined;
  const target =
    options.baseContract?.properties.find((p) => p.id === property.id) ??
      property;
  return resolveModule(target.module, options.baseModules)?.module.functions
    .get(target.name);
}

type Examples =
  | { kind: "known"; count: number; description: string }
  | { kind: "dynamic" };

function examplesOf(fn: PythonFunction): Examples {
  if (!fn.usesHypothesis) {
    return {
      kind: "known",
      count: 1,
      description:
        "is not a Hypothesis test (no @given), so it runs one example,",
    };
  }
  const settings = fn.settings;
  if (settings?.maxExamplesDynamic === true) return { kind: "dynamic" };
  if (settings?.maxExamples !== undefined) {
    return {
      kind: "known",
      count: settings.maxExamples,
      description: `runs at most ${settings.maxExamples} examples`,
    };
  }
  return {
    kind: "known",
    count: HYPOTHESIS_DEFAULT_MAX_EXAMPLES,
    description:
      `runs Hypothesis' default of ${HYPOTHESIS_DEFAULT_MAX_EXAMPLES} examples`,
  };
}

function weakenedSettings(
  testName: string,
  head: PythonFunction,
  base: PythonFunction,
  where: { path: string; line: number },
): Finding[] {
  const findings: Finding[] = [];
  const report = (detail: string) =>
    findings.push(finding(
      "property.examples_lowered",
      `${testName} ${detail}: restore the base settings`,
      where,
    ));
  const headExamples = examplesOf(head);
  const baseExamples = examplesOf(base);
  if (
    headExamples.kind === "known" && baseExamples.kind === "known" &&
    headExamples.count < baseExamples.count
  ) {
    report(
      `lowered its example count from ${baseExamples.count} to ${headExamples.count}`,
    );
  }
  const headKeywords = keywordsOf(head.settings);
  const baseKeywords = keywordsOf(base.settings);
  const names = new Set([
    ...Object.keys(headKeywords),
    ...Object.keys(baseKeywords),
  ]);
  for (const keyword of [...names].sort()) {
    if (keyword === "max_examples" || HARMLESS_KEYWORDS.has(keyword)) continue;
    const now = headKeywords[keyword];
    const before = baseKeywords[keyword];
    if (now === before) continue;
    const weakening = isWeakening(keyword, before, now);
    if (weakening) {
      report(
        `changed ${keyword} from ${shown(before)} to ${
          shown(now)
        }, which can hide failures`,
      );
    }
  }
  return findings;
}

function keywordsOf(
  settings: HypothesisSettings | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings?.keywords ?? {})) {
    out[key] = value.trim();
  }
  return out;
}

function shown(text: string | undefined): string {
  return text === undefined ? "the default" : JSON.stringify(text);
}

/** Whether changing `keyword` from `before` to `now` (undefined: absent) weakens the test. */
function isWeakening(
  keyword: string,
  before: string | undefined,
  now: string | undefined,
): boolean {
  switch (keyword) {
    case "phases": {
      const was = before === undefined
        ? new Set(FINDING_PHASES)
        : names(before, "Phase");
      const is = now === undefined
        ? new Set(FINDING_PHASES)
        : names(now, "Phase");
      if (was === undefined || is === undefined) return true;
      return FINDING_PHASES.some((phase) => was.has(phase) && !is.has(phase));
    }
    case "suppress_health_check": {
      const was = before === undefined
        ? new Set<string>()
        : names(before, "HealthCheck");
      const is = now === undefined
        ? new Set<string>()
        : names(now, "HealthCheck");
      if (was === undefined || is === undefined) return true;
      return [...is].some((check) => !was.has(check));
    }
    case "derandomize":
      // A derandomized test ignores the seed pawl injects.
      return now !== undefined && now !== "False";
    case "stateful_step_count": {
      const was = before === undefined
        ? DEFAULT_STATEFUL_STEP_COUNT
        : integer(before);
      const is = now === undefined ? DEFAULT_STATEFUL_STEP_COUNT : integer(now);
      if (was === undefined || is === undefined) return true;
      return is < was;
    }
    default:
      // Unknown keywords (parent=, backend=, ...) can change anything.
      return true;
  }
}

/**
 * The member names of `Enum.member` references in a list, tuple or set
 * literal; `undefined` when the text is anything else (a variable, a call),
 * which the caller treats as weakening if it changed.
 */
function names(text: string, enumName: string): Set<string> | undefined {
  const member = new RegExp(`\\b${enumName}\\.([A-Za-z_][A-Za-z0-9_]*)`, "g");
  const found = new Set<string>();
  for (const match of text.matchAll(member)) found.add(match[1] ?? "");
  const rest = text.replace(member, "").replace(/[\s,()[\]{}]/g, "");
  return rest === "" ? found : undefined;
}

function integer(text: string): number | undefined {
  const cleaned = text.replaceAll("_", "");
  return /^\d+$/.test(cleaned) ? Number(cleaned) : undefined;
}
