/**
 * What the sandbox's file system looks like from inside, in words for the
 * person whose interpreter or virtualenv "was not found": a path that
 * exists on the host may be missing in the sandbox (a private `/tmp`, a
 * hidden `/root`, a directory the sandbox uid may not enter).
 *
 * @module
 */
import type { IsolationReport } from "./sandbox.ts";

/** Options for {@linkcode describeSandboxView}. */
export interface DescribeSandboxViewOptions {
  /** The repository's export the command ran in. */
  workDir?: string | undefined;
}

/**
 * One sentence on what the sandbox at `isolation` can see.
 *
 * @example
 * ```ts
 * import { describeSandboxView } from "./describe_sandbox_view.ts";
 * const text = describeSandboxView(
 *   { tier: "bwrap", network: "isolated", uid: 64123, gid: 64123, notes: [] },
 *   { workDir: "/tmp/pawl-1/work-0" },
 * );
 * if (!text.includes("private, empty /tmp")) throw new Error();
 * ```
 */
export function describeSandboxView(
  isolation: IsolationReport,
  options: DescribeSandboxViewOptions = {},
): string {
  const repo = options.workDir === undefined
    ? "the repository is a fresh export of the head tree"
    : `the repository is a fresh export of the head tree at ${
      JSON.stringify(options.workDir)
    }`;
  const who = isolation.uid === undefined
    ? "the sandbox uid"
    : `uid ${isolation.uid}`;
  const uid =
    `the tests run as ${who} with no supplementary groups, so a file that uid may not read and execute (under /root, in a directory of mode 0700) is missing to them too`;
  switch (isolation.tier) {
    case "bwrap":
      return `the sandbox (bubblewrap) sees the host's file system read-only, with a private, empty /tmp and /dev/shm (nothing under the host's /tmp is visible there but what pawl binds in for the run: keep an interpreter or virtualenv elsewhere, such as /opt/venv), its own /proc and /dev, and /root and pawl's key files hidden; ${repo}, the working directory and with its report directory the only places it may write; ${uid}`;
    case "unshare":
      return `the sandbox (unshare) sees the host's file system as it is, /tmp included, with /root and pawl's key files hidden; ${repo}, the working directory; ${uid}`;
    case "uid":
      return `the sandbox (a dedicated uid, no namespaces) sees the host's file system as it is, /tmp included; ${repo}, the working directory; ${uid}`;
    case "none":
      return `the tests run without isolation (--isolation none) as pawl's own user and see the host's file system; ${repo}, the working directory`;
  }
}
