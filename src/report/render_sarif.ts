/**
 * SARIF 2.1.0 for code-scanning upload.
 *
 * The log holds one run: `tool.driver` lists every rule in the registry (so
 * a rule's `ruleIndex` is the same in every log pawl writes), each with its
 * own help from the registry and a `helpUri` into docs/rules.md, and every
 * finding is one result whose level comes from the finding's own blocking
 * flag. Code scanning shows a result only at a file and line, so a finding
 * without a usable repository-relative path is shown at the first base
 * contract file, line 1, and its message says so; with no contract file
 * either, the result has only a logical location (the repository), never a
 * file that does not exist. A finding with a path but no line is shown at
 * line 1 of its file. A finding about a failed test carries what the test
 * showed in its message and in `properties.failure`.
 *
 * @module
 */
import type { FailureDetail, Finding } from "../core/finding.ts";
import { type RuleId, RULES } from "../core/rules.ts";
import type { Verdict } from "../core/verdict.ts";
import { HOME_URL } from "../version.ts";
import { inline, ruleHelpUri } from "./render_rules_doc.ts";
import { failureLines } from "./failure_lines.ts";
import { markdownInline } from "./markdown_text.ts";
import {
  findingFingerprint,
  FINGERPRINT_KEY,
  repositoryPath,
} from "./_finding_key.ts";

/** The SARIF schema the log declares. */
export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** The `partialFingerprints` key; the suffix changes whenever the recipe does. */
export { FINGERPRINT_KEY };

/** Options for {@linkcode renderSarif}. */
export interface RenderSarifOptions {
  /**
   * `versionControlProvenance[0].repositoryUri`, e.g.
   * `https://github.com/owner/repo`. Derived from the verdict's `repo`
   * when left out (user names and passwords in a URL are dropped); a
   * relative local path has no URI, so the log then has no
   * `versionControlProvenance` (SARIF1002: `file:.` is not a valid URI).
   */
  repositoryUri?: string;
  /**
   * `tool.driver.informationUri`: where people read about pawl
   * ({@linkcode HOME_URL} unless given).
   */
  informationUri?: string;
}

/** SARIF levels pawl writes. */
export type SarifLevel = "error" | "note";

/** A `reportingDescriptor` as pawl writes it. */
export interface SarifRule {
  /** The stable rule id (`property.removed`). */
  id: string;
  /** The rule id in PascalCase (`PropertyRemoved`). */
  name: string;
  /** The registry's one-line summary. */
  shortDescription: { text: string };
  /** The summary with its layer and default. */
  fullDescription: { text: string };
  /** `error` for rules that block by default, `note` otherwise. */
  defaultConfiguration: { level: SarifLevel };
  /** What the rule checks and what to do (GitHub code scanning requires it: GH2012). */
  help: { text: string; markdown: string };
  /** The rule's section of docs/rules.md (left out for a rule the registry lacks). */
  helpUri?: string;
  /** Tags: `pawl`, the layer, and `blocking` or `advisory`. */
  properties: { tags: string[] };
}

/** A `result` as pawl writes it. */
export interface SarifResult {
  /** The finding's rule id. */
  ruleId: string;
  /** Index of the rule in `tool.driver.rules`. */
  ruleIndex: number;
  /** `error` for blocking findings, `note` otherwise. */
  level: SarifLevel;
  /**
   * The finding's message (plus a note when it is shown elsewhere), and
   * with a failure detail, what the test showed as text and Markdown.
   */
  message: { text: string; markdown?: string };
  /** Exactly one location: a physical one, or the repository as a logical one. */
  locations: SarifLocation[];
  /** {@linkcode FINGERPRINT_KEY} → stable hash. */
  partialFingerprints: Record<string, string>;
  /**
   * The finding's layer and blocking flag, whether its location is its own
   * (`own`), borrowed (`shown`) or only the repository (`repository`), and
   * what a failed test showed.
   */
  properties: {
    layer: string;
    blocking: boolean;
    location: "own" | "shown" | "repository";
    failure?: FailureDetail;
  };
}

/** The location of a result that names no file and has none to be shown at. */
export const REPOSITORY_LOCATION: SarifLocation = {
  logicalLocations: [{
    name: "repository",
    fullyQualifiedName: "repository",
    kind: "module",
  }],
};

/** A `location`: a repository-relative physical location, or the repository as a logical one. */
export interface SarifLocation {
  /** The repository, for a result with no file. */
  logicalLocations?: {
    name: string;
    fullyQualifiedName: string;
    kind: string;
  }[];
  /** Where in the repository. */
  physicalLocation?: {
    /** Percent-encoded path relative to `%SRCROOT%`. */
    artifactLocation: { uri: string; uriBaseId: "%SRCROOT%" };
    /** 1-based line. */
    region: { startLine: number };
  };
}

/**
 * Render a verdict as a SARIF 2.1.0 log (JSON text, two-space indent,
 * trailing newline). Pure: the same verdict gives the same bytes.
 *
 * @example
 * ```ts
 * import { renderSarif } from "./render_sarif.ts";
 * import { buildVerdict } from "../core/verdict.ts";
 * import { finding } from "../core/finding.ts";
 * const verdict = buildVerdict([finding("property.removed", 'Property "a" was removed')], {
 *   pawl: { version: "0.1.0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b".repeat(40), head: "h".repeat(40),
 *   contract: { layouts: ["000"], files: [{ path: "tests/agent_contract.yaml", layout: "000", sha256: "" }], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, tests: null,
 * });
 * const log = JSON.parse(renderSarif(verdict));
 * const result = log.runs[0].results[0];
 * if (result.level !== "error") throw new Error("unexpected");
 * if (result.locations[0].physicalLocation.artifactLocation.uri !== "tests/agent_contract.yaml") throw new Error("unexpected");
 * ```
 */
export function renderSarif(
  verdict: Verdict,
  options: RenderSarifOptions = {},
): string {
  const rules = ruleDescriptors(verdict.findings);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const first = verdict.contract.files[0]?.path;
  const shownAt = first !== undefined && repositoryPath(first) !== undefined
    ? first
    : undefined;
  const seen = new Map<string, number>();
  const results = verdict.findings.map((f) => {
    const result = sarifResult(f, index.get(f.rule) ?? -1, shownAt);
    // Identical findings in one run still get distinct fingerprints; the
    // findings are sorted, so the occurrence number is stable too.
    const hash = result.partialFingerprints[FINGERPRINT_KEY] ?? "";
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    result.partialFingerprints[FINGERPRINT_KEY] = `${hash}:${n}`;
    return result;
  });
  const blocking = verdict.findings.filter((f) => f.blocking).length;
  const repository = options.repositoryUri ?? repositoryUri(verdict.repo);
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "pawl",
          version: verdict.pawl.version,
          ...(SEMVER.test(verdict.pawl.version)
            ? { semanticVersion: verdict.pawl.version }
            : {}),
          informationUri: options.informationUri ?? HOME_URL,
          rules,
        },
      },
      automationDetails: { id: `pawl/${verdict.head}` },
      ...(repository === undefined ? {} : {
        versionControlProvenance: [{
          repositoryUri: repository,
          revisionId: verdict.head,
          mappedTo: { uriBaseId: "%SRCROOT%" },
          properties: { base: verdict.base },
        }],
      }),
      originalUriBaseIds: {
        "%SRCROOT%": {
          description: { text: "The repository root at the head commit" },
        },
      },
      invocations: [{
        executionSuccessful: true,
        properties: {
          decision: verdict.decision,
          blockingFindings: blocking,
          now: verdict.now,
          base: verdict.base,
          head: verdict.head,
          contractDigest: verdict.contract.digest,
          layouts: verdict.contract.layouts,
          isolation: verdict.isolation?.tier ?? null,
        },
      }],
      results,
    }],
  };
  return JSON.stringify(log, null, 2) + "\n";
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Every registry rule, in registry order, then any unknown rule ids the findings use. */
function ruleDescriptors(findings: readonly Finding[]): SarifRule[] {
  const out: SarifRule[] = [];
  for (const [id, spec] of Object.entries(RULES)) {
    out.push(descriptor(id, spec.layer, spec.blocking, spec));
  }
  const unknown = [
    ...new Set(
      findings.map((f) => f.rule as string).filter((id) => !(id in RULES)),
    ),
  ].sort();
  for (const id of unknown) {
    const layer = findings.find((f) => f.rule === id)?.layer ?? "config";
    out.push(descriptor(id, layer, true, undefined));
  }
  return out;
}

function descriptor(
  id: string,
  layer: string,
  blocking: boolean,
  help: { summary: string; fix: string } | undefined,
): SarifRule {
  const summary = help?.summary ?? `Rule "${id}"`;
  const fix = help?.fix ??
    "The message says what changed and where; this pawl does not know the rule.";
  const effect = blocking
    ? "blocks the merge"
    : "is advisory and does not block";
  return {
    id,
    name: pascalCase(id),
    shortDescription: { text: summary },
    fullDescription: {
      text: `${summary} (layer ${layer}; ${
        blocking ? "blocks a merge" : "advisory"
      } by default)`,
    },
    defaultConfiguration: { level: blocking ? "error" : "note" },
    help: {
      text:
        `${summary}. Layer "${layer}"; by default it ${effect}. How to fix: ${fix}`,
      markdown: `**${inline(summary)}.** Layer \`${layer}\`; by default it ${
        blocking ? "**blocks the merge**" : effect
      }.\n\n**How to fix:** ${inline(fix)}`,
    },
    ...(help === undefined ? {} : { helpUri: ruleHelpUri(id) }),
    properties: { tags: ["pawl", layer, blocking ? "blocking" : "advisory"] },
  };
}

function sarifResult(
  f: Finding,
  ruleIndex: number,
  shownAt: string | undefined,
): SarifResult {
  const path = f.path === undefined ? undefined : repositoryPath(f.path);
  const message = f.message.trim() === ""
    ? (RULES[f.rule as RuleId]?.summary ?? f.rule)
    : f.message;
  const at = shownAt === undefined
    ? "shown at the repository"
    : `shown at ${JSON.stringify(shownAt)}`;
  const note = path !== undefined
    ? ""
    : f.path === undefined
    ? ` (${at}: the finding has no file location)`
    : ` (${at}: the finding's path ${
      JSON.stringify(f.path)
    } is not repository-relative)`;
  const detail = f.failure === undefined ? undefined : failureLines(f.failure);
  const location = path !== undefined
    ? sarifFileLocation(path, f.line)
    : sarifFileLocation(shownAt);
  return {
    ruleId: f.rule,
    ruleIndex,
    level: f.blocking ? "error" : "note",
    message: detail === undefined ? { text: message + note } : {
      text: [message + note, ...detail.text].join("\n"),
      markdown: [
        markdownInline(message + note, { newline: "  \n" }),
        ...detail.markdown,
      ].join("\n\n"),
    },
    locations: [location ?? REPOSITORY_LOCATION],
    partialFingerprints: { [FINGERPRINT_KEY]: findingFingerprint(f) },
    properties: {
      layer: f.layer,
      blocking: f.blocking,
      location: path !== undefined
        ? "own"
        : location === undefined
        ? "repository"
        : "shown",
      ...(f.failure === undefined ? {} : { failure: f.failure }),
    },
  };
}

/**
 * A physical location at `path` (line 1 unless a usable `line` is given),
 * or undefined when `path` is not a usable repository-relative path.
 */
export function sarifFileLocation(
  path: string | undefined,
  line?: number,
): SarifLocation | undefined {
  const clean = path === undefined ? undefined : repositoryPath(path);
  if (clean === undefined) return undefined;
  return {
    physicalLocation: {
      artifactLocation: { uri: encodePath(clean), uriBaseId: "%SRCROOT%" },
      region: {
        startLine: line !== undefined && Number.isInteger(line) && line >= 1
          ? line
          : 1,
      },
    },
  };
}

/** Percent-encode each path segment, keeping the characters a URI path allows as they are. */
function encodePath(path: string): string {
  return path.split("/").map((segment) =>
    encodeURIComponent(segment).replace(
      /%(24|26|2B|2C|3B|3D|40)/g,
      (escape) => decodeURIComponent(escape),
    )
  ).join("/");
}

/**
 * A URI for the repository as given on the command line: URLs without
 * their credentials, scp-style remotes as `ssh://`, absolute paths as
 * `file:///`; a relative path has none.
 */
function repositoryUri(repo: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(repo)) {
    try {
      const url = new URL(repo);
      url.username = "";
      url.password = "";
      return url.href;
    } catch {
      // Not a URL after all: treat it as a path below.
    }
  }
  const scp = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/.exec(repo);
  if (scp !== null && !repo.startsWith("/") && !repo.startsWith(".")) {
    return `ssh://${scp[1]}/${encodePath(scp[2]!.replace(/^\/+/, ""))}`;
  }
  if (repo.startsWith("/")) return `file://${encodePath(repo)}`;
  return undefined;
}

function pascalCase(id: string): string {
  return id.split(/[._-]/).filter((part) => part !== "").map((part) =>
    part[0]!.toUpperCase() + part.slice(1)
  ).join("");
}
