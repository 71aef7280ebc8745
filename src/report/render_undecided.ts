/**
 * The reports of a run that could not decide (exit 2). Every report file a
 * run was asked for is rewritten, so no stale "accept" from an earlier run
 * survives next to an undecided verdict.
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { MARKDOWN_MARKER } from "./render_markdown.ts";
import { FALLBACK_PATH, SARIF_SCHEMA } from "./render_sarif.ts";

/** The rule of the one result an undecided SARIF log holds. */
export const UNDECIDED_RULE = "pawl.undecided";

/** The three report formats for an undecided run. */
export interface UndecidedReports {
  /** SARIF 2.1.0: one run, one error-level result, an error notification. */
  sarif: string;
  /** JUnit XML: one errored testcase. */
  junit: string;
  /** Markdown: the marker line and the reason. */
  markdown: string;
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
export function renderUndecided(reason: string): UndecidedReports {
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
          rules: [{
            id: UNDECIDED_RULE,
            name: "Undecided",
            shortDescription: { text: "pawl could not decide" },
            fullDescription: {
              text:
                "pawl could not decide on the pull request (bad arguments, an unreadable base contract, a git failure, no test runner or no sandbox); nothing was accepted",
            },
            defaultConfiguration: { level: "error" },
            help: {
              text:
                "pawl could not decide, so the pull request is not accepted. The message names the cause; fix it and run pawl again.",
              markdown:
                "pawl **could not decide**, so the pull request is not accepted. The message names the cause; fix it and run pawl again.",
            },
            properties: { tags: ["pawl", "undecided", "blocking"] },
          }],
        },
      },
      results: [{
        ruleId: UNDECIDED_RULE,
        ruleIndex: 0,
        level: "error",
        message: { text: `pawl could not decide: ${reason}` },
        locations: [{
          physicalLocation: {
            artifactLocation: { uri: FALLBACK_PATH, uriBaseId: "%SRCROOT%" },
            region: { startLine: 1 },
          },
        }],
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
  return { sarif: JSON.stringify(sarif, null, 2) + "\n", junit, markdown };
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
