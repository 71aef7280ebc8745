/**
 * The name of a judgement's temp dir.
 *
 * @module
 */
import type { JudgeOptions } from "./judge_options.ts";

/**
 * `pawl-<hash>`, derived from the inputs so that paths quoted in test
 * output (which pytest may shorten past any scrubbing) are the same on
 * every run of the same inputs. Web Crypto, not `node:crypto`: a command
 * names its workspace before the rest of its code loads, and loading
 * Node's crypto module would delay the clone.
 *
 * @example
 * ```ts
 * import { jobDirName } from "./job_dir_name.ts";
 * const now = { text: "2026-11-30T12:00:00Z", epochMs: 1796040000000 };
 * const name = await jobDirName({ repo: "r", base: "main", head: "pr", now });
 * if (!/^pawl-[0-9a-f]{16}$/.test(name)) throw new Error(name);
 * ```
 */
export async function jobDirName(
  options: Pick<JudgeOptions, "repo" | "base" | "head" | "now">,
): Promise<string> {
  const text = JSON.stringify([
    options.repo,
    options.base,
    options.head,
    options.now.text,
  ]);
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  const hex = Array.from(
    new Uint8Array(digest, 0, 8),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
  return `pawl-${hex}`;
}
