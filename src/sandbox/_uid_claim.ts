/**
 * A sandbox uid claimed on the whole kernel, not only among the pawl runs
 * that share a lock directory. Containers on one machine share one kernel
 * but not their /run (so not their lock files): a uid's process limit
 * counts its processes in every container, and a pawl whose pid namespace
 * holds another's (the host's, a pod with `hostPID`) would kill that one's
 * tests when it sweeps the uid. So a lease also claims its uid:
 *
 * - An anchor runs as the uid, with group {@linkcode ANCHOR_GID} (which no
 *   test can take: they run with no_new_privs as the uid's own group), for
 *   as long as the lease holds the uid. It counts against the uid's process
 *   limit wherever it is seen from, and a pawl that sees it leaves the uid
 *   alone. Every sweep of the uid is the anchor's own `kill -1`, which
 *   reaches every process of the uid this pid namespace holds but the
 *   anchor itself.
 * - Once the anchor runs and nothing else of the uid is left, pawl starts a
 *   process as the uid with a process limit of exactly the tasks /proc shows
 *   (the anchor's included): the kernel refuses its exec (`EAGAIN`) when the
 *   uid has any task this pawl cannot see, in another container or in a pid
 *   namespace above its own. Two pawls claiming one uid at once each count
 *   after their own anchor runs, so the later count sees the earlier anchor.
 *
 * A uid that another pawl's anchor holds, or that runs anything this pawl
 * cannot see, is not claimed. The tests can kill the anchor only where they
 * share its pid namespace (the `uid` tier); the next sweep then claims the
 * uid anew, and fails when another pawl took it meanwhile.
 *
 * @module
 */
import { delay, runCaptured, scanUid, type UidScan } from "./_exec.ts";
import {
  SandboxCleanupError,
  SandboxUidLostError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/** The group of every anchor (nogroup): a test's processes never have it. */
export const ANCHOR_GID = 65534;

/**
 * The anchor: says it runs, then SIGKILLs the rest of its uid (`kill -1`
 * spares the caller) for each line read, answering each, until its stdin
 * closes. Builtins only: it never forks.
 */
const ANCHOR_SCRIPT = [
  "echo ready",
  "exec 2>/dev/null",
  "while read -r line; do kill -9 -1; echo swept; done",
].join("\n");

/** Absolute paths of the tools a claim needs. */
export interface ClaimTools {
  /** setpriv(1), to start the anchor and the count as the uid. */
  setpriv: string;
  /** prlimit(1), for the count's process limit. */
  prlimit: string;
  /** sh(1), the anchor. */
  sh: string;
  /** env(1), what the count execs. */
  env: string;
}

/** A uid this process holds on the kernel, until {@linkcode UidClaim.release}. */
export interface UidClaim {
  /** The uid. */
  readonly uid: number;
  /** Whether its anchor runs (false from its death until the next sweep). */
  readonly anchored: boolean;
  /** pids of the uid's live processes but the anchor. */
  others(): Promise<number[]>;
  /**
   * SIGKILL every process of the uid but the anchor, until /proc shows none.
   * A dead anchor is replaced and the uid claimed anew first. Throws
   * {@linkcode SandboxCleanupError} when some survive, and
   * {@linkcode SandboxUidLostError} when another pawl took the uid.
   */
  sweep(): Promise<void>;
  /** End the anchor (idempotent). */
  release(): Promise<void>;
}

/**
 * Claim `uid` (tests' group `gid`): start its anchor, kill whatever else of
 * the uid this process can see (a crashed holder's leftovers) and check
 * that nothing it cannot see runs as the uid. Resolves undefined when
 * another pawl holds the uid (its anchor is seen, or the uid has tasks this
 * process cannot see). Throws {@linkcode SandboxUnavailableError} when no
 * process can be started as the uid.
 */
export async function claimUid(
  uid: number,
  options: { gid: number; tools: ClaimTools },
): Promise<UidClaim | undefined> {
  if (options.gid === ANCHOR_GID) {
    throw new SandboxUnavailableError(
      `Cannot lease sandbox uid ${uid}: its group ${ANCHOR_GID} is the one pawl marks leased uids with; take a range without uid ${ANCHOR_GID}, or give user "pawl" a group of its own`,
    );
  }
  const tools = options.tools;
  let anchor = await Anchor.start(uid, tools);
  let state: "mine" | "taken" | "lost";
  try {
    state = await settle(uid, anchor, tools);
  } catch (error) {
    // An anchor left running would mark the uid as another pawl's.
    await anchor.stop();
    throw error;
  }
  if (state !== "mine") {
    await anchor.stop();
    return undefined;
  }
  let released = false;
  const renew = async (): Promise<"mine" | "taken" | "lost"> => {
    await anchor.stop();
    anchor = await Anchor.start(uid, tools);
    return await settle(uid, anchor, tools);
  };
  return {
    uid,
    get anchored() {
      return !released && anchor.alive;
    },
    others: async () =>
      (await scanUid(uid)).live.filter((p) => p.pid !== anchor.pid).map((p) =>
        p.pid
      ),
    sweep: async () => {
      for (let renewals = 0;; renewals++) {
        if (renewals > 5) {
          throw new SandboxCleanupError(uid, (await scanUid(uid)).live.length);
        }
        let state: "mine" | "clear" | "taken" | "lost" = "lost";
        if (!anchor.alive) state = await renew();
        else if (await anchor.kill()) state = await clearOthers(uid, anchor);
        if (state === "mine" || state === "clear") return;
        if (state === "taken") {
          await anchor.stop();
          throw new SandboxUidLostError(uid);
        }
      }
    },
    release: async () => {
      released = true;
      await anchor.stop();
    },
  };
}

/**
 * Clear the uid for `anchor`: kill what else of it runs here, wait briefly
 * for the killed to be reaped, then count its tasks. "mine" when nothing
 * else runs as the uid anywhere on the kernel, "taken" when another pawl's
 * anchor is seen or tasks are hidden, "lost" when the anchor died.
 */
async function settle(
  uid: number,
  anchor: Anchor,
  tools: ClaimTools,
): Promise<"mine" | "taken" | "lost"> {
  for (let waits = 0;; waits++) {
    const scan = await scanUid(uid);
    const state = clearOthersOnce(scan, anchor);
    if (state === "foreign") return "taken";
    if (state === "dead") return "lost";
    if (state === "others") {
      const cleared = await clearOthers(uid, anchor);
      if (cleared !== "clear") return cleared;
      continue;
    }
    // Zombies still count against the limit until reaped: a count made
    // while one is reaped would allow a hidden task in its place, so it is
    // made again.
    if (
      // Stryker disable next-line EqualityOperator: only how many 10 ms waits zombies get to be reaped; the recount below repeats a count one was reaped during
      waits < 20 &&
      // Stryker disable next-line ConditionalExpression,EqualityOperator: only whether the claim waits for zombies to be reaped; the recount below repeats a count one was reaped during
      scan.tasks > 1
    ) {
      await delay(10);
      continue;
    }
    if (await hiddenTasks(uid, scan.tasks, tools)) return "taken";
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only a task reaped between the count and this scan makes them differ, a moment no test can time; the count is then made again
    if (scan.tasks > 1 && (await scanUid(uid)).tasks < scan.tasks) continue;
    return "mine";
  }
}

/**
 * Kill what else of the uid runs here (with `anchor`'s `kill -1`) until
 * /proc shows none; "taken" when another pawl's anchor is among them,
 * "lost" when `anchor` died. Throws {@linkcode SandboxCleanupError} when
 * some survive repeated attempts.
 */
async function clearOthers(
  uid: number,
  anchor: Anchor,
): Promise<"clear" | "taken" | "lost"> {
  for (let attempt = 1;; attempt++) {
    const scan = await scanUid(uid);
    const state = clearOthersOnce(scan, anchor);
    if (state === "foreign") return "taken";
    if (state === "dead") return "lost";
    if (state === "none") return "clear";
    if (attempt >= 20) {
      throw new SandboxCleanupError(uid, scan.live.length - 1);
    }
    if (!(await anchor.kill())) return "lost";
    await delay(5 * attempt);
  }
}

function clearOthersOnce(
  scan: UidScan,
  anchor: Anchor,
): "foreign" | "dead" | "others" | "none" {
  if (!scan.live.some((p) => p.pid === anchor.pid)) return "dead";
  const others = scan.live.filter((p) => p.pid !== anchor.pid);
  if (others.some((p) => p.gid === ANCHOR_GID)) return "foreign";
  return others.length > 0 ? "others" : "none";
}

/**
 * Whether `uid` has more tasks than the `visible` ones /proc shows: a
 * process switched to the uid under a process limit of `visible` may not
 * exec when the uid already has more (the kernel's check at exec after a
 * change of uid). Its group is the anchors', so another pawl that sees it
 * leaves the uid alone as well.
 */
async function hiddenTasks(
  uid: number,
  visible: number,
  tools: ClaimTools,
): Promise<boolean> {
  const out = await runCaptured(tools.prlimit, [
    `--nproc=${visible}`,
    "--",
    tools.setpriv,
    `--reuid=${uid}`,
    `--regid=${ANCHOR_GID}`,
    "--clear-groups",
    "--inh-caps=-all",
    "--no-new-privs",
    "--",
    tools.env,
    "-i",
  ]);
  if (out.code === 0) return false;
  // Killed: another pawl is sweeping the uid.
  if (
    out.signal !== null || /Resource temporarily unavailable/.test(out.stderr)
  ) {
    return true;
  }
  throw new SandboxUnavailableError(
    `Cannot lease sandbox uid ${uid}: cannot count its processes: prlimit exited with code ${out.code}: ${
      out.stderr.slice(0, 500)
    }`,
  );
}

/** The anchor process of a claim. */
class Anchor {
  readonly pid: number;
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffered = "";
  #gone = false;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.pid = child.pid;
    this.#writer = child.stdin.getWriter();
    this.#reader = child.stdout.getReader();
    child.status.then(() => this.#gone = true, () => this.#gone = true);
  }

  /** Start it; throws {@linkcode SandboxUnavailableError} when it does not run. */
  static async start(uid: number, tools: ClaimTools): Promise<Anchor> {
    const child = new Deno.Command(tools.setpriv, {
      args: [
        `--reuid=${uid}`,
        `--regid=${ANCHOR_GID}`,
        "--clear-groups",
        "--inh-caps=-all",
        "--no-new-privs",
        "--",
        tools.sh,
        "-c",
        ANCHOR_SCRIPT,
        "pawl-uid-anchor",
      ],
      cwd: "/",
      clearEnv: true,
      env: {},
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    const anchor = new Anchor(child);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const line = await Promise.race([
      anchor.#readLine(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), 10_000);
      }),
    ]).finally(() => clearTimeout(timer));
    if (line === "ready") {
      await child.stderr.cancel().catch(() => {});
      // It ends when pawl does (its stdin closes): between requests it
      // never keeps pawl alive.
      child.unref();
      return anchor;
    }
    await anchor.stop(true);
    const stderr = await new Response(child.stderr).text().catch(() => "");
    throw new SandboxUnavailableError(
      `Cannot lease sandbox uid ${uid}: cannot start a process as the uid: ${
        stderr.trim().slice(0, 500) || "it did not start within 10 s"
      }`,
    );
  }

  /** Whether it still runs (as far as pawl has learnt). */
  get alive(): boolean {
    return !this.#gone;
  }

  /** Have it SIGKILL the rest of its uid; false when it is gone. */
  kill(): Promise<boolean> {
    const next = this.#queue.then(async () => {
      if (this.#gone) return false;
      this.#child.ref(); // the answer is waited for
      let answered = false;
      try {
        await this.#writer.write(new TextEncoder().encode("k\n"));
        answered = (await this.#readLine()) === "swept";
      } catch {
        // its stdin is closed: it died
      } finally {
        this.#child.unref();
      }
      // No answer: it died (pawl may not have reaped it yet).
      if (!answered) this.#gone = true;
      return answered;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** SIGKILL it and wait for it (idempotent). */
  async stop(keepStderr = false): Promise<void> {
    this.#child.ref();
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await this.#child.status;
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    if (!keepStderr) await this.#child.stderr.cancel().catch(() => {});
  }

  async #readLine(): Promise<string | undefined> {
    for (;;) {
      const end = this.#buffered.indexOf("\n");
      if (end >= 0) {
        const line = this.#buffered.slice(0, end);
        this.#buffered = this.#buffered.slice(end + 1);
        return line;
      }
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await this.#reader.read();
      } catch {
        return undefined;
      }
      if (chunk.done) return undefined;
      this.#buffered += new TextDecoder().decode(chunk.value);
    }
  }
}
