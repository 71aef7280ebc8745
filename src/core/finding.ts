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
  /** What a failed test showed, for findings about one test that failed or hung. */
  failure?: FailureDetail;
}

/**
 * What one failed (or hung) test showed, so that a person can reproduce it
 * from pawl's output alone.
 */
export interface FailureDetail {
  /** The pytest node id of the test. */
  test: string;
  /** Hypothesis' falsifying example as it printed it (`Falsifying example: f(x=0)`), when there was one. */
  example?: string;
  /** The exception's type and message (`AssertionError: assert 1 == 2`), when one ended the test. */
  exception?: string;
  /** The last lines of the traceback, as pytest printed them. */
  traceback?: string[];
  /** One shell command that reproduces the failure in a checkout of the head. */
  reproduce: string;
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
  /** What the failed test showed. */
  failure?: FailureDetail | undefined;
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
  if (options.failure !== undefined) out.failure = options.failure;
  return out;
}
