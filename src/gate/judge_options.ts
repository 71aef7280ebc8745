/**
 * What to judge and how: the options of {@linkcode judgePullRequest}, and
 * what it returns.
 *
 * @module
 */
import type { Instant } from "../core/parse_now.ts";
import type { ClockRecord, Verdict } from "../core/verdict.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import type { LedgerRow } from "../seeds/ledger_row.ts";
import type { MutationRun } from "../mutation/render_mutation_report.ts";

/** Where the pull request's commits come from. */
export interface JudgeTarget {
  /** Local path or git URL, as given by the user. */
  repo: string;
  /** Base revision (the authority). */
  base: string;
  /** Head revision (the patch). */
  head: string;
  /**
   * Fetch only `base` and `head` (full commit ids) and `refs`, one commit
   * deep, instead of copying the whole repository (a pull request).
   */
  shallow?: boolean;
  /** Refs to fetch by name besides the usual ones (e.g. `refs/pull/7/head`). */
  refs?: readonly string[];
  /**
   * Environment for git's transports only (e.g. `GIT_CONFIG_COUNT`/`KEY`/
   * `VALUE` carrying an `http.extraHeader`); never reaches the sandbox.
   */
  gitEnv?: Readonly<Record<string, string>>;
}

/** Options for {@linkcode judgePullRequest}. */
export interface JudgeOptions extends JudgeTarget {
  /** The orchestrator's clock. */
  now: Instant;
  /** Where `now` came from, when not `--now` (recorded in the verdict). */
  clock?: ClockRecord;
  /** A human started this run and allows fixture rotation. */
  allowFixtureRotate: boolean;
  /** Sandbox strength. */
  isolation: IsolationRequest;
  /** Run the suite (false for `pawl diff`: static rules only). */
  runTests: boolean;
  /** Paths the sandbox must hide (the signing key's directory). */
  hiddenPaths?: readonly string[];
  /** PATH inside the sandbox (default: the system PATH). */
  sandboxPath?: string;
  /** The runner's cache of setup-step results (default `/var/cache/pawl/setup`). */
  setupCache?: string;
}

/** A verdict plus the seed-ledger rows of its property runs. */
export interface Judgement {
  /** The verdict. */
  verdict: Verdict;
  /** One row per property run (empty when the suite was not run). */
  ledger: LedgerRow[];
  /** Every mutant's outcome, when `[mutation]` ran (for `--mutation-report`). */
  mutation?: MutationRun;
}
