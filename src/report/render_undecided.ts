/**
 * The reports of a run that could not decide (exit 2). Every report file a
 * run was asked for is rewritten, so no stale "accept" from an earlier run
 * survives next to an undecided verdict.
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { MARKDOWN_MARKER } from "./render_markdown.ts";
import { SARIF_SCHEMA } from "./render_sarif.ts";

/** The three report formats for an undecided run. */
export interface UndecidedReports {
  /** SARIF 2.1.0: one run, no results, an error notification. */
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
  const sarif = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{
      tool: { driver: { name: "pawl", version: VERSION, rules: [] } },
      results: [],
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
