/**
 * The Markdown report: the sticky PR comment body and the job summary.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";

/** Options for {@linkcode renderMarkdown}. */
export interface RenderMarkdownOptions {
  /** The signing key's fingerprint, when the verdict was signed. */
  keyid?: string;
}

/** Render a verdict as Markdown. */
export function renderMarkdown(
  _verdict: Verdict,
  _options: RenderMarkdownOptions = {},
): string {
  throw new Error("renderMarkdown is not implemented");
}
