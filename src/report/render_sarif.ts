/**
 * SARIF 2.1.0 for code-scanning upload.
 *
 * @module
 */
import type { Verdict } from "../core/verdict.ts";

/** Render a verdict as a SARIF 2.1.0 log (JSON text). */
export function renderSarif(_verdict: Verdict): string {
  throw new Error("renderSarif is not implemented");
}
