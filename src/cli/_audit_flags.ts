/**
 * The flags of `pawl audit` that need more than a type: the repository,
 * the clock plan and bounded integers.
 *
 * @module
 */
import type { ClockPlan } from "../audit/choose_clock.ts";
import { parseNowOption } from "./read_option_value.ts";
import { UsageError } from "../core/usage_error.ts";
import type { RepoRef } from "../github/github_client.ts";
import { parsePullRequestRef } from "../github/parse_pull_request_ref.ts";

/** `OWNER/REPO`, checked as `--pr` checks it. */
export function readRepo(slug: string): RepoRef {
  if (!/^[^/#\s]+\/[^/#\s]+$/.test(slug)) {
    throw new UsageError(
      `Cannot read --repo "${slug}": expected "OWNER/REPO" of a GitHub repository`,
    );
  }
  try {
    const { owner, repo } = parsePullRequestRef(`${slug}#1`);
    return { owner, repo };
  } catch (error) {
    throw new UsageError(
      `Cannot read --repo "${slug}": ${
        error instanceof Error
          ? error.message.replace(/^Cannot read pull request "[^"]*": /, "")
          : String(error)
      }`,
    );
  }
}

/** The clock plan from `--now` / `--now-from`: exactly one of them. */
export function readClockPlan(
  now: string | undefined,
  nowFrom: string | undefined,
  usage: string,
): ClockPlan {
  if (nowFrom === undefined) {
    if (now === undefined) {
      throw new UsageError(
        `Cannot decide without a clock: pass "--now <RFC3339>" or "--now-from merged-at" (or "created-at")\n\n${usage}`,
      );
    }
    return { source: "flag", now: parseNowOption(now) };
  }
  if (nowFrom !== "merged-at" && nowFrom !== "created-at") {
    throw new UsageError(
      `Unknown clock source "${nowFrom}": expected "merged-at" or "created-at"`,
    );
  }
  if (now !== undefined) {
    throw new UsageError(
      `"--now" and "--now-from ${nowFrom}" exclude each other: the clock is one or the other`,
    );
  }
  return { source: nowFrom };
}

/** A whole number flag within `min`..`max`. */
export function readInteger(
  text: string,
  name: string,
  min: number,
  max: number,
): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < min || value > max) {
    throw new UsageError(
      `Cannot read ${name} "${text}": expected a whole number from ${min} to ${max}`,
    );
  }
  return value;
}
