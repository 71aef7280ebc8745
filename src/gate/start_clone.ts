/**
 * A judgement's clone started before the gate's code is loaded: a command's
 * entry starts it (see `clone_in_worker.ts`), then imports the gate, which
 * takes the started clone over (or abandons it).
 *
 * @module
 */
import type { Instant } from "../core/parse_now.ts";
import type { Git } from "../git/git.ts";
import type { Workspace } from "./gate_ports.ts";
import type { JudgeTarget } from "./judge_options.ts";

/** What a started clone clones: the target of a judgement and its clock. */
export type StartedTarget = Pick<JudgeTarget, "repo" | "base" | "head"> & {
  now: Instant;
};

/** A clone under way, for `judgePullRequest` to take over. */
export interface StartedClone {
  /** What is being cloned. */
  readonly target: StartedTarget;
  /** The judgement's workspace (the clone is made inside it). */
  readonly workspace: Promise<Workspace>;
  /** The clone, once made. */
  readonly git: Promise<Git>;
  /** Whether `git` has settled (the clone is made, or failed). */
  readonly settled: boolean;
  /**
   * Give up on it (the command stopped before judging): waits for the clone
   * to end, closes it and removes the workspace. Never throws.
   */
  abandon(): Promise<void>;
}

/** Whether `started` clones exactly `target` (else it must be abandoned). */
export function clonesTarget(
  started: StartedClone,
  target: StartedTarget & Pick<JudgeTarget, "shallow" | "refs" | "gitEnv">,
): boolean {
  return started.target.repo === target.repo &&
    started.target.base === target.base &&
    started.target.head === target.head &&
    started.target.now.text === target.now.text &&
    target.shallow === undefined && target.refs === undefined &&
    target.gitEnv === undefined;
}
