/**
 * Findings rewritten once the base has been asked: a failure the base
 * shares (the same test, failing the same way at the base commit) is not
 * the pull request's, so it becomes a non-blocking note naming the base.
 * Pure.
 *
 * @module
 */
import { type Finding, finding } from "../core/finding.ts";

/** What {@linkcode attributeFindings} needs besides the findings. */
export interface AttributionContext {
  /** The base commit id. */
  base: string;
  /** Node id → what the base said, for every failure the base shares. */
  shared: ReadonlyMap<string, string>;
  /** The property findings to rewrite, with the property each is about. */
  properties: readonly {
    finding: Finding;
    property: { id: string; nodeId?: string | undefined };
  }[];
}

/**
 * `findings` with each failure the base shares turned into a note:
 * `tests.failed` into `tests.failed_at_base`, `property.not_passed` into
 * `property.failed_at_base`.
 *
 * @example
 * ```ts
 * import { finding } from "../core/finding.ts";
 * import { attributeFindings } from "./attribute_findings.ts";
 * const failed = finding("tests.failed", 'Test "t.py::test_a" failed: boom');
 * const out = attributeFindings([failed], {
 *   base: "abc", shared: new Map([["t.py::test_a", "it fails there too"]]), properties: [],
 * });
 * if (out[0]?.rule !== "tests.failed_at_base" || out[0].blocking) throw new Error();
 * ```
 */
export function attributeFindings(
  findings: readonly Finding[],
  context: AttributionContext,
): Finding[] {
  const { base, shared } = context;
  const byFinding = new Map(
    context.properties.map((p) => [p.finding, p.property]),
  );
  return findings.map((f) => {
    const property = byFinding.get(f);
    if (property?.nodeId !== undefined && shared.has(property.nodeId)) {
      return finding(
        "property.failed_at_base",
        `Property "${property.id}" (${property.nodeId}) fails at the base commit ${base} as well, the same way (${
          shared.get(property.nodeId)
        }), so it is not held against the pull request; fix it on the base branch`,
        { path: f.path, line: f.line },
      );
    }
    if (f.rule !== "tests.failed") return f;
    const id = [...shared.keys()].find((nodeId) =>
      f.message.startsWith(`Test "${nodeId}" `)
    );
    if (id === undefined) return f;
    return finding(
      "tests.failed_at_base",
      `Test "${id}" fails at the base commit ${base} as well, so it is not held against the pull request; fix it on the base branch, or excuse it on this runner in the base's pawl.toml ([[excuses]])`,
      { path: f.path, line: f.line },
    );
  });
}
