/**
 * What one failed test showed, as a collapsible block of the Markdown
 * report: the falsifying example, the exception, the traceback's tail and
 * the command that reproduces it. Everything but the command comes from
 * the repository's own output, so it is shown only inside code blocks no
 * line of it can close, and it cannot forge the comment marker.
 *
 * @module
 */
import type { FailureDetail } from "../core/finding.ts";
import { fencedBlock, withoutControls } from "./markdown_text.ts";

/** Options for {@linkcode markdownFailure}. */
export interface MarkdownFailureOptions {
  /** Whether the finding blocks (its mark in the summary line). */
  blocking: boolean;
}

/**
 * The `<details>` block of one failure, as lines.
 *
 * @example
 * ```ts
 * import { markdownFailure } from "./markdown_failure.ts";
 * const lines = markdownFailure({
 *   test: "tests/test_a.py::test_a",
 *   exception: "AssertionError: assert 1 == 2",
 *   reproduce: "python3 -m pytest 'tests/test_a.py::test_a'",
 * }, { blocking: true });
 * if (lines[0] !== "<details>" || lines.at(-1) !== "</details>") throw new Error();
 * ```
 */
export function markdownFailure(
  failure: FailureDetail,
  options: MarkdownFailureOptions,
): string[] {
  const lines = [
    "<details>",
    `<summary>${options.blocking ? "❌" : "ℹ️"} <code>${
      htmlText(failure.test)
    }</code>: what the test showed, and how to reproduce it</summary>`,
    "",
  ];
  if (failure.example !== undefined) {
    lines.push("Falsifying example:", "", ...fencedBlock(failure.example), "");
  }
  if (failure.exception !== undefined) {
    lines.push("Exception:", "", ...fencedBlock(failure.exception), "");
  }
  if (failure.traceback !== undefined && failure.traceback.length > 0) {
    lines.push(
      "Last lines of the traceback:",
      "",
      ...fencedBlock(failure.traceback.join("\n")),
      "",
    );
  }
  lines.push(
    "Reproduce it in a checkout of the head:",
    "",
    ...fencedBlock(failure.reproduce, "sh"),
    "",
    "</details>",
  );
  return lines;
}

/** Text inside an HTML element on one line: no tag, entity, newline or mention. */
function htmlText(value: string): string {
  return withoutControls(value).replace(/\r\n|\r|\n/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/@/g, "@&#8203;");
}
