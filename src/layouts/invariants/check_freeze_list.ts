/**
 * Seed 003's freeze layer: a freeze is a budgeted, dated, human-owned
 * exclusion of one flaky test, pinned to the test's body. It is not a skip
 * and not a licence to edit the test.
 *
 * @module
 */
import { plural } from "../../core/plural.ts";
import { isAgentName } from "../../contract/identity_key.ts";
import { type Finding, finding } from "../../core/finding.ts";
import type { Tree } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { effectiveFreezes } from "./effective_freezes.ts";
import { expiresOnEnd } from "./expires_on.ts";
import type { ContractSides } from "./invariants_contract.ts";
import { type BodyHashMatch, matchBodyHash } from "./match_body_hash.ts";
import {
  FREEZE_KEYS,
  FREEZE_YML,
  type FreezeList,
} from "./read_freeze_list.ts";

/** Options for {@linkcode checkFreezeList} and {@linkcode freezeBodyHashes}. */
export interface CheckFreezeListOptions {
  /** The orchestrator's clock, epoch milliseconds. */
  now: number;
  /** The head commit's tree. */
  headTree: Tree;
  /** Head analyses of the frozen tests' files, keyed by path. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** SHA-256 hex of the head bytes of the frozen tests' files, keyed by path. */
  digests: ReadonlyMap<string, string>;
  /** Repository-relative path of the freeze list, for findings (default `freeze.yml`). */
  path?: string;
}

/** Which body a freeze's hash matched, for the verdict. */
export interface FreezeBodyHash {
  /** The freeze's id (or `#n` for an entry without one). */
  freeze: string;
  /** The frozen test's pytest node id. */
  test: string;
  /** `function`: the sliced test function; `file`: the whole file's bytes; `none`: neither. */
  bodyHash: BodyHashMatch["kind"];
}

/**
 * Judge the freeze list of a pull request:
 *
 * | Observation | Rule |
 * |---|---|
 * | more freezes than `max_frozen` (the smaller of base and head; 0 without a base `freeze.yml`) | `freeze.over_cap` |
 * | `max_frozen` raised | `freeze.cap_raised` |
 * | `fail_on_expired` turned off | `freeze.policy_loosened` |
 * | an entry lacks `id`, `path`, `body_sha256`, `expires_on`, `owner` or `reason` | `freeze.incomplete` |
 * | `owner: agent` (compared by `identityKey`: any case, width, spacing or look-alike letters) | `freeze.agent_owner` |
 * | `expires_on` moved later than the base record | `freeze.expiry_extended` |
 * | `path` moved to another test than the base record | `freeze.retargeted` |
 * | `body_sha256` rewritten, or the test's body no longer matches it | `freeze.body_changed` |
 * | expired at `now` | `freeze.expired` (blocking when `fail_on_expired`, base or head, is true) |
 *
 * A date `expires_on` lasts through that UTC day (the seed fails a freeze
 * when `expires_on < today`); a date-time expires at its instant. The base
 * record's test, body hash and the earlier expiry are enforced (see
 * {@linkcode effectiveFreezes}). Body hashes are matched by
 * {@linkcode matchBodyHash}: the sliced function or the whole file.
 *
 * @example
 * ```ts
 * import { checkFreezeList } from "./check_freeze_list.ts";
 * import type { FreezeList } from "./read_freeze_list.ts";
 * const head: FreezeList = {
 *   policy: { maxFrozen: 0, failOnExpired: true },
 *   freezes: [{ index: 0, id: "f", test: undefined, bodySha256: undefined, expiresOn: undefined,
 *     owner: "agent", reason: "flaky", missing: ["path", "body_sha256", "expires_on"] }],
 *   lineOf: () => undefined,
 * };
 * const rules = checkFreezeList({ base: undefined, head }, {
 *   now: 0, headTree: new Map(), headModules: new Map(), digests: new Map(),
 * }).map((f) => f.rule);
 * if (rules.join() !== "freeze.over_cap,freeze.incomplete,freeze.agent_owner") throw new Error(rules.join());
 * ```
 */
export function checkFreezeList(
  sides: ContractSides<FreezeList>,
  options: CheckFreezeListOptions,
): Finding[] {
  const { base, head } = sides;
  const current = head ?? base;
  if (current === undefined) return [];
  const path = options.path ?? FREEZE_YML;
  const findings: Finding[] = [];
  const lineOf = (index: number, key?: string): number | undefined =>
    // Stryker disable next-line ConditionalExpression: looking up key `undefined` finds no line (a read entry has no such key, unknown keys are refused), so it falls back to the entry's line as the original does
    (key === undefined ? undefined : current.lineOf(["freezes", index, key])) ??
      current.lineOf(["freezes", index]);

  if (base !== undefined && head !== null) {
    if (head.policy.maxFrozen > base.policy.maxFrozen) {
      findings.push(finding(
        "freeze.cap_raised",
        `The pull request raises max_frozen from ${base.policy.maxFrozen} to ${head.policy.maxFrozen}: the freeze budget moves only in a human commit`,
        { path, line: head.lineOf(["policy", "max_frozen"]) },
      ));
    }
    if (base.policy.failOnExpired && !head.policy.failOnExpired) {
      findings.push(finding(
        "freeze.policy_loosened",
        "The pull request turns fail_on_expired off: an expired freeze must fail the job",
        {
          path,
          line: head.lineOf(["policy", "fail_on_expired"]) ??
            head.lineOf(["policy"]),
        },
      ));
    }
  }
  const cap = Math.min(
    base?.policy.maxFrozen ?? 0,
    head?.policy.maxFrozen ?? Infinity,
  );
  if (current.freezes.length > cap) {
    findings.push(finding(
      "freeze.over_cap",
      base === undefined
        ? `The pull request adds ${
          plural(current.freezes.length, "freeze")
        } but the base commit has no ${path}, so there is no freeze budget: flakes are a human budget`
        : `Freeze count ${current.freezes.length} exceeds max_frozen ${cap}: drop freezes, the budget is human-owned`,
      { path, line: current.lineOf(["freezes"]) },
    ));
  }
  const failOnExpired = (base?.policy.failOnExpired ?? true) ||
    (head?.policy.failOnExpired ?? false);

  for (const freeze of effectiveFreezes(sides)) {
    const { entry } = freeze;
    const name = JSON.stringify(freeze.name);
    if (entry.missing.length > 0) {
      findings.push(finding(
        "freeze.incomplete",
        `Freeze ${name} lacks ${
          entry.missing.map((key) => JSON.stringify(key)).join(", ")
        }: every freeze needs ${FREEZE_KEYS.join(", ")}`,
        { path, line: lineOf(entry.index) },
      ));
    }
    if (isAgentName(entry.owner)) {
      findings.push(finding(
        "freeze.agent_owner",
        `Freeze ${name} names the agent as its owner: flakes are a human budget, drop the freeze`,
        { path, line: lineOf(entry.index, "owner") },
      ));
    }
    const record = freeze.base;
    // Stryker disable next-line ConditionalExpression: when the record is the entry itself (no usable head list) every comparison below is of a value with itself and finds nothing
    if (record !== undefined && record !== entry) {
      const was = record.expiresOn;
      const is = entry.expiresOn;
      if (
        was !== undefined && is !== undefined &&
        (expiresOnEnd(is) ?? 0) > (expiresOnEnd(was) ?? 0)
      ) {
        findings.push(finding(
          "freeze.expiry_extended",
          `Freeze ${name} expires_on was moved from ${was} to ${is}: only a human extends a freeze`,
          { path, line: lineOf(entry.index, "expires_on") },
        ));
      }
      if (
        record.test !== undefined && entry.test !== undefined &&
        record.test.nodeId !== entry.test.nodeId
      ) {
        findings.push(finding(
          "freeze.retargeted",
          `Freeze ${name} now covers ${
            JSON.stringify(entry.test.nodeId)
          } instead of ${
            JSON.stringify(record.test.nodeId)
          }: freezing another test is a new freeze for a human to add`,
          { path, line: lineOf(entry.index, "path") },
        ));
      }
      if (
        record.bodySha256 !== undefined && entry.bodySha256 !== undefined &&
        record.bodySha256 !== entry.bodySha256
      ) {
        findings.push(finding(
          "freeze.body_changed",
          `Freeze ${name} body_sha256 was rewritten: freezes are not a licence to edit the test, the base record is enforced`,
          { path, line: lineOf(entry.index, "body_sha256") },
        ));
      }
    }
    // Stryker disable next-line ConditionalExpression: `now >= undefined` is false, so the guard only spells out what the comparison already does
    if (freeze.expiresAt !== undefined && options.now >= freeze.expiresAt) {
      findings.push(finding(
        "freeze.expired",
        failOnExpired
          ? `Freeze ${name} expired (expires_on ${freeze.expiresOn}): the job fails closed and the test returns to the gate; a human removes or renews the freeze`
          : `Freeze ${name} expired (expires_on ${freeze.expiresOn}): fail_on_expired is off, so the test returns to the gate`,
        {
          path,
          line: lineOf(entry.index, "expires_on"),
          blocking: failOnExpired,
        },
      ));
    }
    if (freeze.test === undefined || freeze.bodySha256 === undefined) continue;
    const match = matchBodyHash(freeze.test, freeze.bodySha256, options);
    if (match.kind !== "none") continue;
    const test = JSON.stringify(freeze.test.nodeId);
    if (match.reason === "file_unusable") {
      findings.push(finding(
        "freeze.body_changed",
        `Freeze ${name} test file ${
          JSON.stringify(freeze.test.file)
        } ${match.detail}: a frozen test stays in the tree, its body cannot be verified`,
        { path, line: lineOf(entry.index, "path") },
      ));
    } else if (match.reason === "not_sha256") {
      findings.push(finding(
        "freeze.body_changed",
        `Freeze ${name} body_sha256 ${
          JSON.stringify(freeze.bodySha256)
        } is not a 64-character lowercase sha256 (the seed's 32-digit examples are placeholders), so it can never match ${test}: a human records the sha256 of the test function${
          match.functionSha256 === undefined ? "" : ` (${match.functionSha256})`
        } or of its file (${match.fileSha256})`,
        { path, line: lineOf(entry.index, "body_sha256") },
      ));
    } else {
      findings.push(finding(
        "freeze.body_changed",
        `Freeze ${name} frozen test ${test} changed: body_sha256 ${
          freeze.bodySha256.slice(0, 12)
        } matches neither the test function (${
          match.functionSha256 === undefined
            ? "not found"
            : match.functionSha256.slice(0, 12)
        }) nor the file (${
          // Stryker disable next-line OptionalChaining: a "mismatch" match always carries the file's hash (the file was hashed before comparing)
          match.fileSha256?.slice(
            0,
            12,
          )}); freezes are not a licence to edit the test`,
        // Stryker disable next-line ConditionalExpression: finding() leaves out a line that is undefined, so both objects make the same finding
        match.line === undefined
          ? { path: freeze.test.file }
          : { path: freeze.test.file, line: match.line },
      ));
    }
  }
  return findings;
}

/**
 * Which body each enforced freeze's hash matched at head: `function` (the
 * sliced test function, the seed's recommendation), `file` (the whole
 * file's bytes, the seed's runnable checker) or `none` (also reported as
 * `freeze.body_changed`). Freezes without a test or a body hash are left
 * out (they are `freeze.incomplete`).
 *
 * @example
 * ```ts
 * import { freezeBodyHashes } from "./check_freeze_list.ts";
 * const file = "tests/test_a.py";
 * const list = {
 *   policy: { maxFrozen: 1, failOnExpired: true },
 *   freezes: [{ index: 0, id: "f", test: { nodeId: `${file}::test_a`, file, qualname: "test_a" },
 *     bodySha256: "1".repeat(64), expiresOn: "2026-09-26", owner: "human", reason: "r", missing: [] }],
 *   lineOf: () => undefined,
 * };
 * const [hash] = freezeBodyHashes({ base: list, head: list }, {
 *   now: 0, headModules: new Map(), digests: new Map([[file, "1".repeat(64)]]),
 *   headTree: new Map([[file, { path: file, kind: "file" as const, oid: "1", size: 9 }]]),
 * });
 * if (hash?.bodyHash !== "file") throw new Error();
 * ```
 */
export function freezeBodyHashes(
  sides: ContractSides<FreezeList>,
  options: CheckFreezeListOptions,
): FreezeBodyHash[] {
  const out: FreezeBodyHash[] = [];
  for (const freeze of effectiveFreezes(sides)) {
    if (freeze.test === undefined || freeze.bodySha256 === undefined) continue;
    out.push({
      freeze: freeze.name,
      test: freeze.test.nodeId,
      bodyHash: matchBodyHash(freeze.test, freeze.bodySha256, options).kind,
    });
  }
  return out;
}
