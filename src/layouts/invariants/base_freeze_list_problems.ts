/**
 * What a base `freeze.yml` breaks on its own, without its tree or a clock.
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";
import { BEFORE_ANY_EXPIRY } from "../refuse_base_findings.ts";
import { checkFreezeList } from "./check_freeze_list.ts";
import { FREEZE_YML, type FreezeList } from "./read_freeze_list.ts";

const SHA256 = /^[0-9a-f]{64}$/;

/** Rules of {@linkcode checkFreezeList} that read only the freeze list itself. */
const OWN_CONTENT_RULES: ReadonlySet<string> = new Set([
  "freeze.incomplete",
  "freeze.agent_owner",
  "freeze.over_cap",
]);

/**
 * The findings the base's freeze list earns against itself: a
 * `body_sha256` that is not 64 lowercase hex digits (it can never match,
 * so every pull request would be blamed for it), an incomplete freeze, an
 * agent owner, more freezes than its own `max_frozen`.
 *
 * @example
 * ```ts
 * import { baseFreezeListProblems } from "./base_freeze_list_problems.ts";
 * const found = baseFreezeListProblems({
 *   policy: { maxFrozen: 1, failOnExpired: true },
 *   freezes: [{ index: 0, id: "f", test: undefined, bodySha256: "AB", expiresOn: "2026-09-26",
 *     owner: "human", reason: "flaky", missing: ["path"] }],
 *   lineOf: () => undefined,
 * });
 * if (found.map((f) => f.rule).join() !== "freeze.body_changed,freeze.incomplete") throw new Error();
 * ```
 */
export function baseFreezeListProblems(
  list: FreezeList,
  path: string = FREEZE_YML,
): Finding[] {
  const findings: Finding[] = [];
  for (const entry of list.freezes) {
    const hash = entry.bodySha256;
    if (hash === undefined || SHA256.test(hash)) continue;
    const name = JSON.stringify(entry.id ?? `#${entry.index + 1}`);
    findings.push(finding(
      "freeze.body_changed",
      `Freeze ${name} body_sha256 ${
        JSON.stringify(hash)
      } is not a 64-character lowercase sha256, so it can never match its test`,
      {
        path,
        line: list.lineOf(["freezes", entry.index, "body_sha256"]) ??
          list.lineOf(["freezes", entry.index]),
      },
    ));
  }
  const own = checkFreezeList({ base: list, head: list }, {
    now: BEFORE_ANY_EXPIRY,
    headTree: new Map(),
    headModules: new Map(),
    digests: new Map(),
    path,
  }).filter((f) => OWN_CONTENT_RULES.has(f.rule));
  return [...findings, ...own];
}
