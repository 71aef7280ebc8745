/**
 * Findings are the gate's data: every reason a pull request is rejected (or
 * merely worth a reviewer's attention) is one `Finding`.
 *
 * @module
 */
import { type Layer, type RuleId, RULES } from "./rules.ts";

/** One reason for the decision, with a location where one is known. */
export interface Finding {
  /** Layer of the contract the rule protects (derived from the rule id). */
  layer: Layer;
  /** Stable rule id, e.g. `property.removed`. */
  rule: RuleId;
  /** A sentence a person can act on. */
  message: string;
  /** Repository-relative file the finding is about, when known. */
  path?: string;
  /** 1-based line in `path`, when known. */
  line?: number;
  /** Whether this finding alone makes the decision `reject`. */
  blocking: boolean;
}

/** Where a finding points. */
export interface FindingLocation {
  /** Repository-relative path. */
  path?: string | undefined;
  /** 1-based line. */
  line?: number | undefined;
}

/** Options for {@linkcode finding}. */
export interface FindingOptions extends FindingLocation {
  /** Override the rule's default blocking flag. */
  blocking?: boolean;
}

/**
 * Build a finding for a registered rule; the layer and default blocking flag
 * come from the rule registry so they cannot drift between call sites.
 *
 * @example
 * ```ts
 * import { finding } from "./finding.ts";
 * const f = finding("property.removed", 'Property "a" was removed', { path: "tests/agent_contract.yaml", line: 3 });
 * if (f.layer !== "property" || !f.blocking) throw new Error("unexpected");
 * ```
 */
export function finding(
  rule: RuleId,
  message: string,
  options: FindingOptions = {},
): Finding {
  const spec = RULES[rule];
  const out: Finding = {
    layer: spec.layer,
    rule,
    message,
    blocking: options.blocking ?? spec.blocking,
  };
  if (options.path !== undefined) out.path = options.path;
  if (options.line !== undefined) out.line = options.line;
  return out;
}
