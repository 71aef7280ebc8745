/**
 * Seed 003's property layer: every registered property keeps its id, its
 * target and its source hash; the registry keeps its policy and its
 * minimum; a new property records the hash of its real source.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type {
  PythonModule,
  VacuityReason,
} from "../../python/python_module.ts";
import { weakenedSettings } from "../../contract/weakened_settings.ts";
import type { ContractSides } from "./invariants_contract.ts";
import {
  INVARIANTS_TOML,
  type PropertyRegistry,
  type RegisteredProperty,
} from "./read_property_registry.ts";
import { registeredFunction } from "./registered_function.ts";
import { sourceSha256 } from "./source_sha256.ts";

/** Options for {@linkcode checkPropertyRegistry}. */
export interface CheckPropertyRegistryOptions {
  /** The head commit's tree. */
  headTree: Tree;
  /** Head analyses of the registered modules, keyed by path. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** The base commit's tree. */
  baseTree: Tree;
  /** Base analyses of the base registry's modules, keyed by path. */
  baseModules: ReadonlyMap<string, PythonModule>;
  /** Repository-relative path of the registry, for findings (default `invariants.toml`). */
  path?: string;
}

/**
 * Judge the property registry of a pull request. The base copy is the
 * authority: each base property is checked at its base target against its
 * base `source_sha256`, whatever the head copy says.
 *
 * | Observation | Rule |
 * |---|---|
 * | a base id is missing from the head registry | `property.removed` |
 * | a base id points at another module or function | `property.retargeted` |
 * | a base id's recorded `source_sha256` was rewritten | `property.source_changed` (registry line) |
 * | the function's source no longer hashes to the base record | `property.source_changed` (test file) |
 * | fewer rows than `min_properties` (the larger of base and head) | `property.below_minimum` |
 * | `min_properties` lowered, or `allow_agent_additions` turned on | `property.policy_loosened` |
 * | a new id while the base forbids agent additions | `property.addition_forbidden` |
 * | a new id whose record does not match its function's source | `property.source_mismatch` |
 * | no `a/b/c.py` regular file / no module-level plain `def` | `property.module_missing` / `property.test_missing` |
 * | the name is defined more than once in its module | `property.shadowed` |
 * | the function cannot fail and is new or changed | `property.vacuous` |
 * | `@settings` / `@given` weakened base → head | `property.examples_lowered` |
 *
 * A redefined function is hashed on its last definition, the one pytest
 * runs (the seed's checker hashes the first, which never runs); the
 * `property.shadowed` finding rejects the pull request either way. Without
 * a base registry there is no policy to loosen and every head row is an
 * allowed addition; its hash must still match.
 *
 * @example
 * ```ts
 * import { checkPropertyRegistry } from "./check_property_registry.ts";
 * const registry = {
 *   policy: { minProperties: 1, allowAgentAdditions: false },
 *   properties: [{ id: "p", module: "tests.test_p", function: "test_p", sourceSha256: "0".repeat(64), index: 0 }],
 *   lineOf: () => undefined,
 * };
 * const findings = checkPropertyRegistry({ base: registry, head: { ...registry, properties: [] } }, {
 *   headTree: new Map(), headModules: new Map(), baseTree: new Map(), baseModules: new Map(),
 * });
 * if (!findings.some((f) => f.rule === "property.removed")) throw new Error();
 * ```
 */
export function checkPropertyRegistry(
  sides: ContractSides<PropertyRegistry>,
  options: CheckPropertyRegistryOptions,
): Finding[] {
  const { base, head } = sides;
  const current = head ?? base;
  if (current === undefined) return [];
  const path = options.path ?? INVARIANTS_TOML;
  const findings: Finding[] = [];
  const baseById = new Map(base?.properties.map((p) => [p.id, p]));
  const headById = new Map(head?.properties.map((p) => [p.id, p]));
  // Lines describe the file a person reads: the head copy when there is
  // one (an id it dropped has no line there), else the base copy.
  const currentById = head === null ? baseById : headById;
  const lineOf = (id: string, key?: string): number | undefined => {
    const p = currentById.get(id);
    if (p === undefined) return undefined;
    // Stryker disable next-line ConditionalExpression: looking up key `undefined` finds no line (a read row has no such key, unknown keys are refused), so it falls back to the row's line as the original does
    return (key === undefined
      ? undefined
      : current.lineOf(["property", p.index, key])) ??
      current.lineOf(["property", p.index]);
  };
  const judge = new TargetJudge(findings, options, path, lineOf);

  if (base !== undefined && head !== null) {
    findings.push(...loosenedPolicy(base, head, path));
  }
  const minimum = Math.max(
    base?.policy.minProperties ?? 0,
    head?.policy.minProperties ?? 0,
  );
  if (current.properties.length < minimum) {
    findings.push(finding(
      "property.below_minimum",
      `The registry holds ${current.properties.length} ${
        current.properties.length === 1 ? "property" : "properties"
      }, fewer than min_properties ${minimum}: restore the removed properties`,
      {
        path,
        line: current.lineOf(["policy", "min_properties"]),
      },
    ));
  }

  for (const property of base?.properties ?? []) {
    const name = JSON.stringify(property.id);
    const now = head === null ? property : headById.get(property.id);
    if (now === undefined) {
      findings.push(finding(
        "property.removed",
        `Property ${name} was removed from the registry: a registered property may only be removed in a human commit`,
        { path },
      ));
    } else {
      if (
        now.module !== property.module || now.function !== property.function
      ) {
        findings.push(finding(
          "property.retargeted",
          `Property ${name} now points at ${target(now)} instead of ${
            target(property)
          }: the base target is still checked`,
          { path, line: lineOf(property.id, "function") },
        ));
        judge.target(now, { isNew: true });
      }
      if (now.sourceSha256 !== property.sourceSha256) {
        findings.push(finding(
          "property.source_changed",
          `Property ${name} source_sha256 was rewritten from ${
            short(property.sourceSha256)
          } to ${
            short(now.sourceSha256)
          }: a recorded hash changes only in a human commit`,
          { path, line: lineOf(property.id, "source_sha256") },
        ));
      }
    }
    // Stryker disable next-line ObjectLiteral: an absent isNew reads as false
    judge.target(property, { isNew: false });
  }

  for (const property of head?.properties ?? []) {
    if (baseById.has(property.id)) continue;
    if (base !== undefined && !base.policy.allowAgentAdditions) {
      findings.push(finding(
        "property.addition_forbidden",
        `Property ${
          JSON.stringify(property.id)
        } is added while the base policy sets allow_agent_additions = false: a human adds properties`,
        { path, line: lineOf(property.id) },
      ));
    }
    judge.target(property, { isNew: true });
  }
  return dedupe(findings);
}

const VACUITY: Record<VacuityReason, string> = {
  "no_assertion": "it has no assertion",
  constant: "it only asserts a constant (such as assert True)",
  tautology: "it only compares an expression with itself",
};

/** Judges one registered target at head: presence, hash, vacuity, settings. */
class TargetJudge {
  #findings: Finding[];
  #options: CheckPropertyRegistryOptions;
  #path: string;
  #lineOf: (id: string, key?: string) => number | undefined;

  constructor(
    findings: Finding[],
    options: CheckPropertyRegistryOptions,
    path: string,
    lineOf: (id: string, key?: string) => number | undefined,
  ) {
    this.#findings = findings;
    this.#options = options;
    this.#path = path;
    this.#lineOf = lineOf;
  }

  target(property: RegisteredProperty, how: { isNew: boolean }): void {
    const name = JSON.stringify(property.id);
    const fnName = JSON.stringify(property.function);
    const found = registeredFunction(property, {
      tree: this.#options.headTree,
      modules: this.#options.headModules,
    });
    const push = (f: Finding) => this.#findings.push(f);
    switch (found.status) {
      case "module_missing":
        push(finding(
          "property.module_missing",
          `Property ${name} module ${
            JSON.stringify(property.module)
          } has no regular file ${
            JSON.stringify(found.path)
          } at head: restore the module, do not delete the property`,
          {
            path: this.#path,
            line: this.#lineOf(property.id, "module"),
          },
        ));
        return;
      case "test_missing": {
        const syntax = found.module.syntaxError;
        push(finding(
          "property.test_missing",
          `Property ${name} function ${fnName} is not defined at module level in ${
            JSON.stringify(found.path)
          }${
            syntax === undefined
              ? ""
              : ` (the file has a syntax error at line ${syntax.line})`
          }: restore the function, do not delete the property`,
          {
            path: this.#path,
            line: this.#lineOf(property.id, "function"),
          },
        ));
        return;
      }
      case "async":
        push(finding(
          "property.test_missing",
          `Property ${name} function ${fnName} in ${
            JSON.stringify(found.path)
          } is an async def, which the seed's checker never finds (it hashes a plain def): register a plain def`,
          { path: found.path, line: found.fn.line },
        ));
        return;
      // Stryker disable next-line ConditionalExpression,StringLiteral: the switch has no default, so an "ok" that matches no case falls out of it just the same
      case "ok":
        break;
    }
    const fn = found.fn;
    const where = { path: found.path, line: fn.line };
    if (fn.shadowedLines !== undefined && fn.shadowedLines.length > 0) {
      const lines = [...fn.shadowedLines, fn.line].join(", ");
      push(finding(
        "property.shadowed",
        `Property ${name} function ${fnName} is defined more than once in ${
          JSON.stringify(found.path)
        } (lines ${lines}): pytest runs only the last definition, so an earlier body can hide behind it; keep exactly one definition`,
        where,
      ));
    }
    const got = sourceSha256(fn.source);
    const changed = got !== property.sourceSha256;
    if (changed) {
      push(
        how.isNew
          ? finding(
            "property.source_mismatch",
            `Property ${name} records source_sha256 ${
              short(property.sourceSha256)
            } but ${fnName} hashes to ${
              short(got)
            }: record the hash of the function as it is (${got})`,
            where,
          )
          : finding(
            "property.source_changed",
            `Property ${name} source of ${fnName} changed: expected ${
              short(property.sourceSha256)
            } got ${
              short(got)
            }; a property's body changes only in a human commit that records its new hash`,
            where,
          ),
      );
    }
    if (fn.vacuity !== undefined && (how.isNew || changed)) {
      push(finding(
        "property.vacuous",
        `Property ${name} function ${fnName} cannot fail: ${
          VACUITY[fn.vacuity.reason]
        }; restore the invariant`,
        { path: found.path, line: fn.vacuity.line },
      ));
    }
    if (how.isNew) return;
    const baseFound = registeredFunction(property, {
      tree: this.#options.baseTree,
      modules: this.#options.baseModules,
    });
    if (baseFound.status !== "ok" && baseFound.status !== "async") return;
    for (const detail of weakenedSettings(fn, baseFound.fn)) {
      push(finding(
        "property.examples_lowered",
        `Property ${name} function ${fnName} ${detail}: decorators sit outside the source hash, restore the base settings`,
        { path: found.path, line: fn.settings?.line ?? fn.line },
      ));
    }
  }
}

function loosenedPolicy(
  base: PropertyRegistry,
  head: PropertyRegistry,
  path: string,
): Finding[] {
  const findings: Finding[] = [];
  if (head.policy.minProperties < base.policy.minProperties) {
    findings.push(finding(
      "property.policy_loosened",
      `The pull request lowers min_properties from ${base.policy.minProperties} to ${head.policy.minProperties}: the property policy changes only in a human commit`,
      { path, line: head.lineOf(["policy", "min_properties"]) },
    ));
  }
  if (!base.policy.allowAgentAdditions && head.policy.allowAgentAdditions) {
    findings.push(finding(
      "property.policy_loosened",
      "The pull request turns allow_agent_additions on: the property policy changes only in a human commit",
      { path, line: head.lineOf(["policy", "allow_agent_additions"]) },
    ));
  }
  return findings;
}

function target(p: RegisteredProperty): string {
  return JSON.stringify(`${p.module}:${p.function}`);
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.rule, f.message, f.path, f.line]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
