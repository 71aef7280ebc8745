/**
 * The reports of a run that could not decide (exit 2). Every report file a
 * run was asked for is rewritten, so no stale "accept" from an earlier run
 * survives next to an undecided verdict.
 *
 * @module
 */
import { HOME_URL, VERSION } from "../version.ts";
import { MARKDOWN_MARKER } from "./render_markdown.ts";
import { undecidedCodeQualityIssue } from "./render_codequality.ts";
import {
  inline,
  ruleHelpUri,
  UNDECIDED_HELP,
  UNDECIDED_RULE,
} from "./render_rules_doc.ts";
import {
  REPOSITORY_LOCATION,
  SARIF_SCHEMA,
  sarifFileLocation,
  type SarifLocation,
} from "./render_sarif.ts";

export { UNDECIDED_RULE };

/** Where the cause of an undecided run lies, when it is one file. */
export interface UndecidedLocation {
  /** Repository-relative path of the file the reason names. */
  path?: string | undefined;
  /** 1-based line in it, when known. */
  line?: number | undefined;
}

/**
 * The file an error that stopped a run names, when it carries one: a
 * contract that does not parse has its `path` and `line`, a base that
 * breaks its own contract the place of its first problem. Anything else
 * names no file.
 *
 * @example
 * ```ts
 * import { undecidedLocation } from "./render_undecided.ts";
 * const e = Object.assign(new SyntaxError("x"), { path: "invariants.toml", line: 3 });
 * if (undecidedLocation(e).path !== "invariants.toml") throw new Error();
 * if (undecidedLocation(new Error("no clock")).path !== undefined) throw new Error();
 * ```
 */
export function undecidedLocation(error: unknown): UndecidedLocation {
  if (typeof error !== "object" || error === null) return {};
  const e = error as { path?: unknown; line?: unknown; findings?: unknown };
  const first = Array.isArray(e.findings) ? e.findings[0] : undefined;
  const source = typeof e.path === "string" ? e : first ?? {};
  const path = (source as { path?: unknown }).path;
  const line = (source as { line?: unknown }).line;
  if (typeof path !== "string") return {};
  return typeof line === "number" ? { path, line } : { path };
}

/** The report formats for an undecided run. */
export interface UndecidedReports {
  /** SARIF 2.1.0: one run, one error-level result, an error notification. */
  sarif: string;
  /** JUnit XML: one errored testcase. */
  junit: string;
  /** Markdown: the marker line and the reason. */
  markdown: string;
  /** GitLab Code Quality: one blocker issue. */
  codequality: string;
}

/**
 * Render the reports for a run that could not decide because of `reason`.
 *
 * @example
 * ```ts
 * import { renderUndecided } from "./render_undecided.ts";
 * const r = renderUndecided("Cannot decide without a clock");
 * if (!r.markdown.includes("could not decide")) throw new Error();
 * ```
 */
export function renderUndecided(
  reason: string,
  at: UndecidedLocation = {},
): UndecidedReports {
  // A result, not just a notification: code scanning shows results and
  // blocks on error-level ones, so an undecided run must never look clean.
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "pawl",
          version: VERSION,
          informationUri: HOME_URL,
          rules: [{
            id: UNDECIDED_RULE,
            name: "Undecided",
            shortDescription: { text: UNDECIDED_HELP.summary },
            fullDescription: {
              text:
                "pawl could not decide on the pull request (bad arguments, an unreadable base contract, a git failure, no test runner or no sandbox); nothing was accepted",
            },
            defaultConfiguration: { level: "error" },
            help: {
              text:
                `${UNDECIDED_HELP.summary}. How to fix: ${UNDECIDED_HELP.fix}`,
              markdown: `**${
                inline(UNDECIDED_HELP.summary)
              }.**\n\n**How to fix:** ${inline(UNDECIDED_HELP.fix)}`,
            },
            helpUri: ruleHelpUri(UNDECIDED_RULE),
            properties: { tags: ["pawl", "undecided", "blocking"] },
          }],
        },
      },
      results: [{
        ruleId: UNDECIDED_RULE,
        ruleIndex: 0,
        level: "error",
        message: { text: `pawl could not decide: ${reason}` },
        locations: [undecidedSarifLocation(at)],
        properties: { decision: "undecided" },
      }],
      invocations: [{
        executionSuccessful: false,
        toolExecutionNotifications: [{
          level: "error",
          message: { text: `pawl could not decide: ${reason}` },
        }],
        properties: { decision: "undecided" },
      }],
    }],
  };
  const junit = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="pawl" tests="1" failures="0" errors="1">
  <testsuite name="pawl" tests="1" failures="0" errors="1" skipped="0">
    <testcase classname="pawl" name="decision">
      <error message="${xmlEscape(`pawl could not decide: ${reason}`)}"/>
    </testcase>
  </testsuite>
</testsuites>
`;
  const markdown = `${MARKDOWN_MARKER}
## ⚠️ pawl could not decide

${markdownEscape(reason)}

Nothing was accepted: fix the cause and run pawl again.
`;
  const codequality = JSON.stringify(
    [
      undecidedCodeQualityIssue(
        UNDECIDED_RULE,
        `pawl could not decide: ${reason}`,
        at,
      ),
    ],
    null,
    2,
  ) + "\n";
  return {
    sarif: JSON.stringify(sarif, null, 2) + "\n",
    junit,
    markdown,
    codequality,
  };
}

/** The file the reason names, or the repository when it names none. */
function undecidedSarifLocation(at: UndecidedLocation): SarifLocation {
  return sarifFileLocation(at.path, at.line) ?? REPOSITORY_LOCATION;
}

function xmlEscape(text: string): string {
  return text
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;");
}

function markdownEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@/g, "@&#8203;")
    .replace(/\n/g, "  \n");
}
