/**
 * Problems the base commit already has are not the pull request's fault:
 * judging the base against itself tells them apart from what the patch did.
 *
 * @module
 */
import type { Finding } from "../core/finding.ts";
import type { RuleId } from "../core/rules.ts";
import type { LoadedDialect, StaticInput } from "./dialect.ts";
import { plural } from "../core/plural.ts";

/** Rules that, when the base breaks them on its own, mean the base is unusable. */
export const BASE_PROBLEM_RULES: ReadonlySet<RuleId> = new Set<RuleId>([
  "property.module_missing",
  "property.test_missing",
  "property.source_changed",
  // The base's own test runs fewer examples than the base's contract asks.
  "property.examples_below_contract",
  "fixture.missing",
  "fixture.digest_mismatch",
  "fixture.path_unsafe",
  "fixture.symlink",
]);

/** The base commit breaks its own contract: exit 2, never a reject. */
export class BaseProblemError extends Error {
  /** The base commit. */
  readonly base: string;
  /** What the base breaks. */
  readonly findings: readonly Finding[];

  /** Build the error from the base's own findings. */
  constructor(base: string, findings: readonly Finding[]) {
    const first = findings[0];
    const where = first?.path === undefined
      ? ""
      : `${first.path}${first.line === undefined ? "" : `:${first.line}`}: `;
    super(
      `Cannot decide: the base commit ${
        base.slice(0, 12)
      } already breaks its own contract (${
        plural(findings.length, "problem")
      }; first: ${where}${first?.message ?? "?"} [${
        first?.rule ?? "?"
      }]); this is not the pull request's fault: fix the base branch`,
    );
    this.name = "BaseProblemError";
    this.base = base;
    this.findings = findings;
  }
}

/**
 * Judge each layout's base contract against the base itself (`selves` are
 * the dialects loaded with the base's files on both sides; `input` has the
 * base tree and analyses on both sides and no changes). Returns the
 * blocking findings of {@linkcode BASE_PROBLEM_RULES}.
 *
 * @example
 * ```ts
 * import { baseProblems } from "./base_problems.ts";
 * if (baseProblems([], {} as never).length !== 0) throw new Error();
 * ```
 */
export function baseProblems(
  selves: readonly LoadedDialect[],
  input: StaticInput,
): Finding[] {
  return selves.flatMap((self) =>
    self.check(input).filter((f) =>
      f.blocking && BASE_PROBLEM_RULES.has(f.rule)
    )
  );
}
