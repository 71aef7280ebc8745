/**
 * The name of a judgement's temp dir.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { JudgeOptions } from "./judge_options.ts";

/**
 * `pawl-<hash>`, derived from the inputs so that paths quoted in test
 * output (which pytest may shorten past any scrubbing) are the same on
 * every run of the same inputs.
 *
 * @example
 * ```ts
 * import { jobDirName } from "./job_dir_name.ts";
 * const now = { text: "2026-11-30T12:00:00Z", epochMs: 1796040000000 };
 * const name = jobDirName({ repo: "r", base: "main", head: "pr", now });
 * if (!/^pawl-[0-9a-f]{16}$/.test(name)) throw new Error(name);
 * ```
 */
export function jobDirName(
  options: Pick<JudgeOptions, "repo" | "base" | "head" | "now">,
): string {
  const id = createHash("sha256")
    .update(
      JSON.stringify([
        options.repo,
        options.base,
        options.head,
        options.now.text,
      ]),
    )
    .digest("hex").slice(0, 16);
  return `pawl-${id}`;
}
