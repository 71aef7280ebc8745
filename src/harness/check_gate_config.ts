/**
 * The gate's own settings and the CI that runs it are human-owned: a head
 * change to `pawl.toml`, or to a CI workflow that runs pawl, is a reject
 * unless pawl can show it only makes the gate stricter.
 *
 * @module
 */
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { ChangedPath } from "../git/git.ts";
import { readSettings } from "../settings/read_settings.ts";
import type { Settings } from "../settings/settings.ts";

/** File texts at base and head (the shape of `HarnessTexts`). */
interface Texts {
  base: ReadonlyMap<string, string>;
  head: ReadonlyMap<string, string>;
}

/** pawl's settings file. */
export const GATE_SETTINGS_PATH = "pawl.toml";

/** CI definitions other than GitHub workflows. */
const CI_FILES = new Set([
  ".gitlab-ci.yml",
  ".circleci/config.yml",
  "azure-pipelines.yml",
  "Jenkinsfile",
  ".buildkite/pipeline.yml",
  "bitbucket-pipelines.yml",
  ".travis.yml",
  ".drone.yml",
  ".woodpecker.yml",
]);

/** Whether a path is pawl's settings or a CI definition. */
export function isGateConfigPath(path: string): boolean {
  return path === GATE_SETTINGS_PATH || CI_FILES.has(path) ||
    /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path) ||
    /^\.gitlab\/ci\/.+\.ya?ml$/.test(path);
}

/**
 * Judge head changes to `pawl.toml` and to CI files that mention pawl.
 * `pawl.toml` may only lower `timeout_seconds`, `max_output_mib` and
 * `max_processes`, raise `replay_trials`, make `[coverage] changed_lines`
 * blocking, drop `[harness] test_support`
 * entries or drop whole `[[excuses]]` tables; anything else (and a head copy that does not parse) is
 * `config.settings_changed`, naming the keys. A CI file whose base or head
 * text mentions pawl may change only in comment lines
 * (`config.ci_changed`).
 *
 * @example
 * ```ts
 * import { checkGateConfig } from "./check_gate_config.ts";
 * const texts = {
 *   base: new Map([["pawl.toml", "[tests]\ntimeout_seconds = 60\n"]]),
 *   head: new Map([["pawl.toml", "[tests]\ntimeout_seconds = 6000\n"]]),
 * };
 * const found = checkGateConfig([{ status: "M", path: "pawl.toml" }], texts);
 * if (found[0]?.rule !== "config.settings_changed") throw new Error();
 * ```
 */
export function checkGateConfig(
  changes: readonly ChangedPath[],
  texts: Texts,
): Finding[] {
  const out: Finding[] = [];
  for (const change of changes) {
    if (change.path === GATE_SETTINGS_PATH) {
      out.push(...settingsChange(texts));
    } else if (isGateConfigPath(change.path)) {
      const base = texts.base.get(change.path) ?? "";
      const head = texts.head.get(change.path) ?? "";
      if (!/pawl/i.test(base) && !/pawl/i.test(head)) continue;
      if (withoutComments(base) === withoutComments(head)) continue;
      out.push(finding(
        "config.ci_changed",
        `The pull request ${
          change.status === "D" ? "deleted" : "changed"
        } "${change.path}", a CI definition that runs pawl: how the gate runs is human-owned`,
        { path: change.path },
      ));
    }
  }
  return out;
}

function withoutComments(text: string): string {
  return text.split(/\r?\n/).map((line) => line.trimEnd())
    // Stryker disable next-line MethodExpression: each line is already trimmed at its end, so a blank line is already ""
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"))
    .join("\n");
}

function parse(text: string | undefined): Settings | string {
  try {
    // Stryker disable next-line ObjectLiteral: readSettings names "pawl.toml" by default, the same path
    return readSettings(text ?? "", { path: GATE_SETTINGS_PATH });
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: readSettings reports every problem of a text as a ContractSyntaxError; nothing else reaches here for any text
    if (error instanceof ContractSyntaxError) return error.message;
    throw error;
  }
}

function settingsChange(texts: Texts): Finding[] {
  const base = parse(texts.base.get(GATE_SETTINGS_PATH));
  const head = parse(texts.head.get(GATE_SETTINGS_PATH));
  const where = { path: GATE_SETTINGS_PATH };
  if (typeof head === "string") {
    return [finding(
      "config.settings_changed",
      `The pull request's "${GATE_SETTINGS_PATH}" does not parse (${head}); the gate's settings are human-owned`,
      where,
    )];
  }
  // A base that does not parse is exit 2 elsewhere; nothing to compare.
  if (typeof base === "string") return [];
  const weaker: string[] = [];
  const flatBase = flatten(base);
  const flatHead = flatten(head);
  for (const key of new Set([...flatBase.keys(), ...flatHead.keys()])) {
    const was = flatBase.get(key);
    const is = flatHead.get(key);
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    if (!stricter(key, was, is)) weaker.push(key);
  }
  if (weaker.length === 0) return [];
  return [finding(
    "config.settings_changed",
    `The pull request changes ${
      weaker.sort().map((k) => `"${k}"`).join(", ")
    } in "${GATE_SETTINGS_PATH}" in a way pawl cannot show only makes the gate stricter; the gate's settings are human-owned`,
    where,
  )];
}

function flatten(settings: Settings): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [table, values] of Object.entries(settings)) {
    // An array of tables (`[[excuses]]`) is compared as one value.
    if (Array.isArray(values)) {
      out.set(table, values);
      continue;
    }
    for (
      const [key, value] of Object.entries(values as Record<string, unknown>)
    ) {
      out.set(`${table}.${key}`, value);
    }
  }
  return out;
}

const LOWER_IS_STRICTER = new Set([
  "tests.timeout_seconds",
  "tests.max_output_mib",
  "tests.max_processes",
]);

function stricter(key: string, was: unknown, is: unknown): boolean {
  if (LOWER_IS_STRICTER.has(key)) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: the schema makes both values numbers; the comparison below decides
    return typeof was === "number" && typeof is === "number" &&
      // Stryker disable next-line EqualityOperator: equal values never reach here (they are skipped as unchanged)
      is <= was;
  }
  if (key === "coverage.changed_lines") return is === "blocking";
  if (key === "seeds.replay_trials") {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: the schema makes both values numbers; the comparison below decides
    return typeof was === "number" && typeof is === "number" &&
      // Stryker disable next-line EqualityOperator: equal values never reach here (they are skipped as unchanged)
      is >= was;
  }
  if (key === "excuses") {
    // Dropping an excuse runs more tests; adding or extending one is not stricter.
    // Stryker disable next-line ArrayDeclaration: an excuse is a table, never the string a filled default would hold
    const before = (Array.isArray(was) ? was : []).map((e) =>
      JSON.stringify(e)
    );
    return Array.isArray(is) &&
      is.every((entry) => before.includes(JSON.stringify(entry)));
  }
  if (key === "harness.test_support") {
    // Stryker disable next-line ArrayDeclaration: the schema defaults test_support to a list, so was is always one
    const before = Array.isArray(was) ? was : [];
    return Array.isArray(is) && is.every((entry) => before.includes(entry));
  }
  return false;
}
