/**
 * A GitLab Code Quality report (`artifacts:reports:codequality`): the
 * Code Climate issue subset GitLab reads, one issue per finding, so a merge
 * request's widget and diff show each finding at its file and line.
 *
 * GitLab needs a file for every issue: a finding without a usable
 * repository-relative path is placed at the first base contract file (its
 * description says so), or at the repository root `.` when there is none.
 * A blocking finding is a `blocker`, an advisory one `info`. The
 * fingerprint is the one SARIF's `partialFingerprints` uses, numbered
 * among identical findings of the run, so the same problem keeps it from
 * one pipeline to the next and GitLab can tell new issues from fixed ones.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Finding } from "../core/finding.ts";
import type { Verdict } from "../core/verdict.ts";
import { findingFingerprint, repositoryPath } from "./_finding_key.ts";

/** GitLab's severities; pawl uses `blocker` and `info`. */
export type CodeQualitySeverity =
  | "info"
  | "minor"
  | "major"
  | "critical"
  | "blocker";

/** One issue of the report. */
export interface CodeQualityIssue {
  /** What is wrong, as the finding says it. */
  description: string;
  /** The rule id (`property.removed`). */
  "check_name": string;
  /** Stable across runs while the problem stays; unique within the report. */
  fingerprint: string;
  /** `blocker` for a blocking finding, `info` for an advisory one. */
  severity: CodeQualitySeverity;
  /** Where GitLab shows it. */
  location: { path: string; lines: { begin: number } };
}

/**
 * Render a verdict's findings as a Code Quality report (a JSON array, two
 * spaces, trailing newline). Pure: the same verdict gives the same bytes;
 * an accepted verdict without findings is `[]`.
 *
 * @example
 * ```ts
 * import { renderCodeQuality } from "./render_codequality.ts";
 * import { buildVerdict } from "../core/verdict.ts";
 * import { finding } from "../core/finding.ts";
 * const verdict = buildVerdict([
 *   finding("property.removed", 'Property "a" was removed', { path: "tests/agent_contract.yaml", line: 3 }),
 * ], {
 *   pawl: { version: "0.1.0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b".repeat(40), head: "h".repeat(40),
 *   contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, tests: null,
 * });
 * const [issue] = JSON.parse(renderCodeQuality(verdict));
 * if (issue.severity !== "blocker" || issue.location.lines.begin !== 3) throw new Error("unexpected");
 * ```
 */
export function renderCodeQuality(verdict: Verdict): string {
  const first = verdict.contract.files[0]?.path;
  const shownAt = first === undefined ? undefined : repositoryPath(first);
  const seen = new Map<string, number>();
  const issues = verdict.findings.map((f) => {
    const base = findingFingerprint(f);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return codeQualityIssue(f, numbered(base, n), shownAt);
  });
  return JSON.stringify(issues, null, 2) + "\n";
}

/**
 * The one issue of a run that could not decide: a blocker named
 * `pawl.undecided` at the file the reason names, else the repository root.
 */
export function undecidedCodeQualityIssue(
  rule: string,
  message: string,
  at: { path?: string | undefined; line?: number | undefined },
): CodeQualityIssue {
  const path = at.path === undefined ? undefined : repositoryPath(at.path);
  return {
    description: message,
    check_name: rule,
    fingerprint: createHash("sha256").update(`${rule}\0${path ?? ""}`)
      .digest("hex"),
    severity: "blocker",
    location: {
      path: path ?? ".",
      lines: { begin: path === undefined ? 1 : usableLine(at.line) },
    },
  };
}

function codeQualityIssue(
  f: Finding,
  fingerprint: string,
  shownAt: string | undefined,
): CodeQualityIssue {
  const own = f.path === undefined ? undefined : repositoryPath(f.path);
  const message = f.message.trim() === "" ? f.rule : f.message;
  const note = own !== undefined
    ? ""
    : f.path === undefined
    ? " (the finding has no file location)"
    : ` (the finding's path ${
      JSON.stringify(f.path)
    } is not repository-relative)`;
  return {
    description: message + note,
    check_name: f.rule,
    fingerprint,
    severity: f.blocking ? "blocker" : "info",
    location: {
      path: own ?? shownAt ?? ".",
      lines: { begin: own === undefined ? 1 : usableLine(f.line) },
    },
  };
}

/** The first occurrence keeps the fingerprint; later identical ones hash in their number. */
function numbered(fingerprint: string, n: number): string {
  return n === 1
    ? fingerprint
    : createHash("sha256").update(`${fingerprint}:${n}`).digest("hex");
}

function usableLine(line: number | undefined): number {
  return line !== undefined && Number.isInteger(line) && line >= 1 ? line : 1;
}
