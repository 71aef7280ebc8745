/**
 * What a failed test showed ({@linkcode FailureDetail}), laid out for the
 * reports that carry it: plain text lines (JUnit's failure body, SARIF's
 * text message) and Markdown (SARIF's Markdown message).
 *
 * @module
 */
import type { FailureDetail } from "../core/finding.ts";
import {
  fencedBlock,
  markdownInline,
  withoutControls,
} from "./markdown_text.ts";

/** A failure detail as plain text and as Markdown. */
export interface FailureLines {
  /** Plain text lines, labelled (`Falsifying example: f(x=0)`). */
  text: string[];
  /** Markdown blocks: labels in bold, the test's own output in code blocks. */
  markdown: string[];
}

/**
 * Lay out what a failed test showed: the test, the falsifying example, the
 * exception, the traceback's last lines and the command that reproduces
 * it, each only when known. The test's own output is untrusted: in Markdown
 * it sits in fenced blocks whose fence no backtick run in it can close.
 *
 * @example
 * ```ts
 * import { failureLines } from "./failure_lines.ts";
 * const { text } = failureLines({ test: "tests/test_a.py::test_b", reproduce: "pytest tests/test_a.py::test_b" });
 * if (text[0] !== "Test: tests/test_a.py::test_b") throw new Error();
 * ```
 */
export function failureLines(detail: FailureDetail): FailureLines {
  const text = [`Test: ${withoutControls(detail.test)}`];
  const markdown = [`**Test:** ${markdownInline(detail.test)}`];
  const block = (label: string, content: string | undefined, info = "") => {
    if (content === undefined || content.trim() === "") return;
    const clean = withoutControls(content.replace(/\r\n?/g, "\n"));
    text.push(
      clean.includes("\n")
        ? `${label}:\n${indent(clean)}`
        : `${label}: ${clean}`,
    );
    markdown.push(
      `**${label}:**`,
      fencedBlock(clean, info || "text").join("\n"),
    );
  };
  block("Falsifying example", detail.example, "python");
  block("Exception", detail.exception);
  block("Traceback (last lines)", detail.traceback?.join("\n"));
  block("Reproduce", detail.reproduce, "sh");
  return { text, markdown };
}

function indent(text: string): string {
  return text.split("\n").map((line) => `  ${line}`).join("\n");
}

/** Two findings about the same failure show it once. */
export function failureKey(failure: FailureDetail): string {
  return JSON.stringify([
    failure.test,
    failure.reproduce,
    failure.exception ?? "",
    failure.example ?? "",
  ]);
}
