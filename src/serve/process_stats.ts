/**
 * The server process's own figures for `/metrics` (the `process_*`
 * metrics of Prometheus's client libraries), read from Linux's `/proc`.
 * Elsewhere there is no `/proc` and none are reported.
 *
 * @module
 */

/** What `/proc` says about this process. */
export interface ProcessStats {
  /** User and system CPU time, seconds. */
  cpuSeconds: number;
  /** Resident memory, bytes. */
  residentBytes: number;
  /** Start time, seconds since the epoch. */
  startTimeSeconds: number;
  /** Open file descriptors. */
  openFds: number;
  /** The open file descriptor limit (absent when unlimited). */
  maxFds?: number;
}

/** The `/proc` texts {@linkcode parseProcessStats} reads. */
export interface ProcTexts {
  /** `/proc/self/stat`. */
  stat: string;
  /** `/proc/self/status`. */
  status: string;
  /** `/proc/self/limits`. */
  limits: string;
  /** `/proc/stat` (for the boot time). */
  systemStat: string;
  /** Entries of `/proc/self/fd`. */
  openFds: number;
}

/** Clock ticks per second in `/proc/self/stat` (`getconf CLK_TCK`: 100 on Linux). */
const TICKS = 100;

/**
 * The figures in `texts`, or undefined when they are not what Linux writes.
 *
 * @example
 * ```ts
 * import { parseProcessStats } from "./process_stats.ts";
 * const stats = parseProcessStats({
 *   stat: "7 (deno x) S 1 7 7 0 -1 0 0 0 0 0 250 50 0 0 20 0 9 0 1000 0 0",
 *   status: "VmRSS:\t    2048 kB\n",
 *   limits: "Max open files            1024                 1024                 files\n",
 *   systemStat: "btime 1796429250\n",
 *   openFds: 12,
 * });
 * if (stats?.cpuSeconds !== 3 || stats.startTimeSeconds !== 1796429260) {
 *   throw new Error(JSON.stringify(stats));
 * }
 * ```
 */
export function parseProcessStats(texts: ProcTexts): ProcessStats | undefined {
  // The command name in parentheses may itself hold spaces and ")".
  const fields = texts.stat.slice(texts.stat.lastIndexOf(")") + 2).split(" ");
  // Fields from the state on: utime is the 12th, stime 13th, starttime 20th.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const start = Number(fields[19]);
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(texts.status)?.[1];
  const boot = /^btime (\d+)$/m.exec(texts.systemStat)?.[1];
  const limit = /^Max open files\s+(\S+)/m.exec(texts.limits)?.[1];
  if (
    ![utime, stime, start].every(Number.isFinite) || rss === undefined ||
    boot === undefined
  ) {
    return undefined;
  }
  return {
    cpuSeconds: (utime + stime) / TICKS,
    residentBytes: Number(rss) * 1024,
    startTimeSeconds: Number(boot) + start / TICKS,
    openFds: texts.openFds,
    ...(limit === undefined || limit === "unlimited"
      ? {}
      : { maxFds: Number(limit) }),
  };
}

/** Read this process's figures, or undefined without Linux's `/proc`. */
export async function readProcessStats(): Promise<ProcessStats | undefined> {
  // Stryker disable BlockStatement: a catch without its return ends the function, which gives undefined all the same
  try {
    const [stat, status, limits, systemStat] = await Promise.all(
      [
        "/proc/self/stat",
        "/proc/self/status",
        "/proc/self/limits",
        "/proc/stat",
      ]
        .map((path) => Deno.readTextFile(path)),
    );
    let openFds = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) openFds++;
    return parseProcessStats({
      stat: stat!,
      status: status!,
      limits: limits!,
      systemStat: systemStat!,
      // The directory read itself held one.
      openFds: Math.max(openFds - 1, 0),
    });
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
}
