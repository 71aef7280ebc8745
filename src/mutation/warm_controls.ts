/**
 * A warm session's controls: runs of the unmutated code under an id no
 * mutant has (a decoy), one for each set of tests the session's mutants
 * ran, each with those tests at a point drawn afresh, so no test can tell
 * a control from a mutant's run. A test that fails in a forked run (it
 * kept state from an earlier run, or tells the process apart) fails its
 * control, and the session's runs count for nothing.
 *
 * @module
 */
import type { SideOutcomes } from "./judge_kill_sets.ts";
import type { Mutant } from "./mutant.ts";
import type { WarmOutcome } from "./warm_child.ts";

/** What the controls decide of a session (see `WarmSessionResult.control`). */
export interface ControlState {
  /** `passed` once a control passed and none failed; `failed` once one failed. */
  control: "passed" | "failed" | "none";
}

/**
 * The controls of one session: one per set of properties a job ran,
 * due at a point drawn when that set first ran, between then and the
 * session's expected end.
 */
export class Controls<J> {
  readonly #share: number;
  readonly #run: (job: J) => Promise<WarmOutcome | "lost">;
  readonly #pending = new Map<string, { job: J; at: number }>();
  readonly #done = new Set<string>();

  /** Whether a control is still to run. */
  get open(): boolean {
    return this.#pending.size > 0;
  }

  /** Controls for a session of about `share` jobs, each run by `run`. */
  constructor(
    share: number,
    run: (job: J) => Promise<WarmOutcome | "lost">,
  ) {
    this.#share = share;
    this.#run = run;
  }

  /** A job ran these properties, as the `sent`th run of the session. */
  saw(outcomes: SideOutcomes, job: J, sent: number): void {
    const set = Object.keys(outcomes).sort().join("\n");
    if (set === "" || this.#done.has(set) || this.#pending.has(set)) return;
    const at = sent + randomBelow(Math.max(0, this.#share - sent) + 1);
    this.#pending.set(set, { job, at });
  }

  /**
   * Run the controls due by the `sent`th run; false when the driver went
   * away. A control that fails marks the session failed; once every
   * control ran and passed, passed.
   */
  async due(sent: number, out: ControlState): Promise<boolean> {
    for (const [set, { job, at }] of [...this.#pending]) {
      if (at > sent) continue;
      const outcome = await this.#run(job);
      if (outcome === "lost") return false;
      this.#pending.delete(set);
      this.#done.add(set);
      // Stryker disable next-line ArrayDeclaration: a control that did not run fails whether it has no outcome or one that is not "survived"
      const all = outcome.kind === "ran" ? Object.values(outcome.outcomes) : [];
      const passed = all.length > 0 && all.every((o) => o === "survived");
      if (!passed) out.control = "failed";
      else if (out.control === "none") out.control = "passed";
    }
    return true;
  }
}

/** A mutant no schemata has: its child runs the original code. */
export function decoy(): Mutant {
  const id = `m${randomHex(6)}`;
  return {
    id,
    file: "",
    function: "",
    line: 0,
    column: 0,
    endLine: 0,
    endColumn: 0,
    start: 0,
    end: 0,
    original: "",
    replacement: "",
    operator: "statement",
  };
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A uniformly drawn integer from 0 to `n - 1` (0 when `n` is below 1). */
function randomBelow(n: number): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the caller passes at least 1, and at 1 both ways give 0
  if (n < 1) return 0;
  return crypto.getRandomValues(new Uint32Array(1))[0]! % n;
}
