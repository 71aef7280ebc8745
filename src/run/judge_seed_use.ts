/**
 * Whether a seeded run really used the seed and trial count pawl injected:
 * Hypothesis must have drawn from the forced `--hypothesis-seed` (not an
 * `@seed`, `derandomize` or its own random seed), and a contract test that
 * writes seed-ledger rows (seed 002's `record()`) must have written rows
 * carrying the injected seed and trial count.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import { type Finding, finding } from "../core/finding.ts";
import type { Observation } from "./observation.ts";
import type { ObservedProperty } from "./judge_examples.ts";

/** One row a contract test appended to its seed ledger during the run. */
export interface LedgerEvidence {
  /** The `seed` field, when it is an integer. */
  seed: number | null;
  /** The `trials` field, when it is an integer. */
  trials: number | null;
  /** The `ok` field. */
  ok: boolean | null;
  /** Set on the one row standing for a ledger pawl did not read: why. */
  unread?: string;
}

/** One seeded run to judge. */
export interface SeededRun {
  /** `fresh` or `replay`, for messages. */
  kind: "fresh" | "replay";
  /** The injected seed. */
  seed: number;
  /** The injected trial count, when one was injected. */
  trials: number | null;
  /** Whether `--hypothesis-seed` was passed. */
  hypothesisSeeded: boolean;
  /** What the observer saw. */
  observation: Observation;
  /** Rows appended to the seed ledger during the run. */
  ledger: readonly LedgerEvidence[];
  /** Whether the base's contract test writes ledger rows (so the head's must). */
  expectLedger: boolean;
  /**
   * The base's oracle run: a test is held to the injected Hypothesis seed
   * only when the base's test drew from the forced seed there (an `@seed`
   * the base already has is not the pull request's doing). Without it, no
   * test is held to it.
   */
  baseline?: Observation;
}

/**
 * `seed.not_used` findings for one seeded run of `tests`.
 *
 * @example
 * ```ts
 * import { parseObservation } from "./observation.ts";
 * import { judgeSeedUse } from "./judge_seed_use.ts";
 * const observation = parseObservation([['{"event":"hello","token":"t"}']], "t");
 * const f = judgeSeedUse([{ id: "c", nodeId: "t.py::test_c" }], {
 *   kind: "fresh", seed: 5, trials: 200, hypothesisSeeded: false, observation,
 *   ledger: [{ seed: 5, trials: 10, ok: true }], expectLedger: true,
 * });
 * if (f[0]?.rule !== "seed.not_used") throw new Error("unexpected");
 * ```
 */
export function judgeSeedUse(
  tests: readonly ObservedProperty[],
  run: SeededRun,
): Finding[] {
  const findings: Finding[] = [];
  const what = run.kind === "fresh"
    ? `this run's fresh seed ${run.seed}`
    : `frozen seed ${run.seed}`;
  const seedsOf = (o: Observation, t: ObservedProperty) =>
    [...o.seeds].filter(([id]) =>
      id === t.nodeId || id.startsWith(`${t.nodeId}[`)
    ).flatMap(([, s]) => s);
  if (run.hypothesisSeeded && run.baseline !== undefined) {
    for (const t of tests) {
      const before = seedsOf(run.baseline, t);
      if (before.length === 0 || before.some((s) => s.source !== "forced")) {
        continue;
      }
      const seeds = seedsOf(run.observation, t);
      const wrong = seeds.find((s) =>
        s.source !== "forced" || s.seed !== String(run.seed)
      );
      if (wrong === undefined) continue;
      const why = wrong.source === "explicit"
        ? `an explicit @seed(${wrong.seed})`
        : wrong.source === "derandomize"
        ? "derandomize=True"
        : wrong.source === "random"
        ? "a random seed of its own"
        : `seed ${wrong.seed}`;
      findings.push(finding(
        "seed.not_used",
        `Test "${t.nodeId}" (${t.id}) did not run on ${what}: Hypothesis drew its examples from ${why}`,
        { path: t.path, line: t.line },
      ));
    }
  }
  if (run.expectLedger && tests.length > 0) {
    const first = tests[0] as ObservedProperty;
    const rows = run.ledger;
    const unread = rows.find((r) => r.unread !== undefined)?.unread;
    const foreign = rows.find((r) => r.seed !== run.seed);
    const short = run.trials === null
      ? undefined
      : rows.find((r) =>
        r.trials === null || r.trials > run.trials! ||
        (r.ok === true && r.trials !== run.trials)
      );
    const names = tests.map((t) => `"${t.nodeId}"`).join(", ");
    const problem = unread !== undefined
      ? `${unread}, so pawl read none of its rows`
      : rows.length === 0
      ? "the contract test wrote no seed-ledger row"
      : foreign !== undefined
      ? `a seed-ledger row carries seed ${foreign.seed}`
      : short !== undefined
      ? `a seed-ledger row reports ${
        short.trials === null ? "no trial count" : plural(short.trials, "trial")
      } where ${run.trials} ${run.trials === 1 ? "was" : "were"} injected`
      : undefined;
    if (problem !== undefined) {
      findings.push(finding(
        "seed.not_used",
        `The seeded run of ${names} on ${what}${
          run.trials === null ? "" : ` with ${plural(run.trials, "trial")}`
        } shows no evidence the test used them: ${problem}`,
        { path: first.path, line: first.line },
      ));
    }
  }
  return findings;
}
