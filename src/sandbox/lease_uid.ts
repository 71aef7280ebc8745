/**
 * Leasing a sandbox uid for one judgement. Every run kills all processes of
 * its uid, so two judgements on one machine must never share one: each
 * takes an exclusive flock(2) on a per-uid lock file in a root-owned
 * directory and holds it until the judgement ends. The kernel drops the
 * lock when the holder dies, however it dies, so a crashed run's uid is
 * free again at once (its leftover processes are swept before reuse).
 * Pawl runs that do not share the lock directory (in other containers on
 * the same kernel) are kept off the uid by its claim (`_uid_claim.ts`): a
 * process of the uid that runs while the lease holds it, and a count of the
 * uid's processes that fails when any runs out of this pawl's sight.
 *
 * @module
 */
import { delay, SYSTEM_DIRS } from "./_exec.ts";
import { findPasswdUser } from "./_passwd.ts";
import { currentUid, findTools } from "./_setup.ts";
import { claimUid, type UidClaim } from "./_uid_claim.ts";
import {
  SandboxUidRangeError,
  SandboxUidsBusyError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/** An inclusive range of uids. */
export interface UidRange {
  /** First uid. */
  first: number;
  /** Last uid (at least `first`). */
  last: number;
}

/**
 * The range leased from when none is given: 64 uids from 64123, the image's
 * `pawl` user.
 */
export const DEFAULT_SANDBOX_UIDS: Readonly<UidRange> = Object.freeze({
  first: 64123,
  last: 64186,
});

/** Where the per-uid lock files live when no directory is given. */
export const DEFAULT_UID_LOCK_DIR = "/run/pawl/uids";

/**
 * Where they live when no directory is given and /run is read-only (a
 * container started with `--read-only` and a tmpfs /tmp): every pawl there
 * meets the same read-only /run, so all of them agree on this one.
 */
export const READ_ONLY_RUN_LOCK_DIR = "/tmp/pawl-uids";

/** How long to wait for a free uid when no wait is given: 60 s. */
export const DEFAULT_UID_WAIT_MS = 60_000;

const MAX_UID = 0xfffffffe;

/**
 * Read `FIRST-LAST` (or one `UID`) as a range of uids other than root's.
 * `source` names where the text came from, for the error message. Throws
 * {@linkcode SandboxUidRangeError} when it does not read.
 *
 * @example
 * ```ts
 * import { parseUidRange } from "./lease_uid.ts";
 * const range = parseUidRange("64200-64263", "--sandbox-uids");
 * console.assert(range.first === 64200 && range.last === 64263);
 * ```
 */
export function parseUidRange(text: string, source: string): UidRange {
  const match = /^([0-9]{1,10})(?:-([0-9]{1,10}))?$/.exec(text.trim());
  const first = Number(match?.[1]);
  const last = match?.[2] === undefined ? first : Number(match[2]);
  if (
    match === null || first < 1 || last > MAX_UID || first > last
  ) {
    throw new SandboxUidRangeError(
      `Cannot read ${source} "${text}": expected "FIRST-LAST", uids from 1 to ${MAX_UID} with FIRST no greater than LAST (e.g. "${DEFAULT_SANDBOX_UIDS.first}-${DEFAULT_SANDBOX_UIDS.last}")`,
    );
  }
  return { first, last };
}

/** Where and from what a command leases, as its flag and environment say. */
export interface SandboxLeaseSettings {
  /** The uids to choose from. */
  range: UidRange;
  /** Directory of the lock files, when not the default. */
  lockDir?: string;
  /** How long to wait for a free uid, when not the default. */
  waitMs?: number;
}

/**
 * The lease settings of a command: the range from its flag when given, else
 * `PAWL_SANDBOX_UIDS` from `env`, else {@linkcode DEFAULT_SANDBOX_UIDS};
 * the lock directory from `PAWL_SANDBOX_LOCK_DIR` and the wait from
 * `PAWL_SANDBOX_UID_WAIT` (seconds) when set. Throws
 * {@linkcode SandboxUidRangeError} for a value that does not read.
 */
export function sandboxLeaseFrom(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  flagName = "--sandbox-uids",
): SandboxLeaseSettings {
  const fromEnv = env["PAWL_SANDBOX_UIDS"];
  const range = flag !== undefined
    ? parseUidRange(flag, flagName)
    : fromEnv !== undefined && fromEnv !== ""
    ? parseUidRange(fromEnv, "PAWL_SANDBOX_UIDS")
    : { ...DEFAULT_SANDBOX_UIDS };
  const settings: SandboxLeaseSettings = { range };
  const lockDir = env["PAWL_SANDBOX_LOCK_DIR"];
  if (lockDir !== undefined && lockDir !== "") {
    if (!lockDir.startsWith("/")) {
      throw new SandboxUidRangeError(
        `Cannot read PAWL_SANDBOX_LOCK_DIR "${lockDir}": expected an absolute path`,
      );
    }
    settings.lockDir = lockDir;
  }
  const wait = env["PAWL_SANDBOX_UID_WAIT"];
  if (wait !== undefined && wait !== "") {
    if (!/^[0-9]{1,6}$/.test(wait)) {
      throw new SandboxUidRangeError(
        `Cannot read PAWL_SANDBOX_UID_WAIT "${wait}": expected whole seconds (e.g. "60")`,
      );
    }
    settings.waitMs = Number(wait) * 1000;
  }
  return settings;
}

/** Options for {@linkcode leaseSandboxUid}. */
export interface LeaseSandboxUidOptions {
  /** The uids to choose from (default {@linkcode DEFAULT_SANDBOX_UIDS}). */
  range?: UidRange | undefined;
  /**
   * Directory of the lock files, created 0755 when missing (default
   * {@linkcode DEFAULT_UID_LOCK_DIR}, or {@linkcode READ_ONLY_RUN_LOCK_DIR}
   * where that cannot be created because /run is read-only).
   */
  lockDir?: string | undefined;
  /** How long to wait for a free uid, in milliseconds (default 60 s). */
  waitMs?: number | undefined;
  /** Called once when every uid is busy and the lease starts waiting. */
  onWait?: ((message: string) => void) | undefined;
  /** Where user `pawl` is looked up (default /etc/passwd). */
  passwdPath?: string | undefined;
  /** Directories searched for setpriv, kill and id (default: the system's). */
  toolDirs?: readonly string[] | undefined;
  /** The uid pawl runs as (default: asked of id(1)). */
  currentUid?: number | undefined;
  /**
   * Stop waiting when this aborts (the judgement ended before it needed
   * the uid): the lease then rejects with the signal's reason.
   */
  signal?: AbortSignal | undefined;
  /**
   * Take a uid only when at least this many other uids of the range are
   * free as well (default 0). A spare sandbox leases with the number of
   * other judgements of the same process that may still need their first
   * sandbox, so spares never make those wait.
   */
  leaveFree?: number | undefined;
}

/** One leased uid, held until {@linkcode UidLease.release}. */
export interface UidLease extends AsyncDisposable {
  /** The uid the judgement's tests run as. */
  readonly uid: number;
  /** Its gid: user `pawl`'s group when the uid is `pawl`'s, else the uid. */
  readonly gid: number;
  /** The lock file held. */
  readonly lockPath: string;
  /**
   * Whether the process marking the uid as this lease's still runs (false
   * from its death until the next {@linkcode UidLease.sweep}).
   */
  readonly marked: boolean;
  /** pids of the uid's live processes, but the lease's own mark. */
  othersRunning(): Promise<number[]>;
  /**
   * SIGKILL every process of the uid but the lease's own mark, until /proc
   * shows none (a dead mark is replaced first). Throws
   * `SandboxCleanupError` when some survive, `SandboxUidLostError` when
   * another pawl on the kernel took the uid while it was unmarked.
   */
  sweep(): Promise<void>;
  /** Give the uid back (idempotent). */
  release(): Promise<void>;
}

/**
 * Lease a sandbox uid: the first uid of the range whose lock file no live
 * process holds and that no pawl elsewhere on the kernel holds (see the
 * module), after killing whatever a crashed holder left running as it.
 * When every uid is held, poll with backoff up to `waitMs`, then throw
 * {@linkcode SandboxUidsBusyError} (could not decide) saying how to widen
 * the range. Throws {@linkcode SandboxUnavailableError} when pawl is not
 * root or the lock directory is not safe (not root's, or writable by
 * others).
 *
 * @example
 * ```ts ignore
 * await using lease = await leaseSandboxUid({ range: { first: 64200, last: 64263 } });
 * const sandbox = await ProcessSandbox.create({ uid: lease.uid, gid: lease.gid });
 * ```
 */
export async function leaseSandboxUid(
  options: LeaseSandboxUidOptions = {},
): Promise<UidLease> {
  const range = options.range ?? DEFAULT_SANDBOX_UIDS;
  const lockDir = options.lockDir ?? DEFAULT_UID_LOCK_DIR;
  const waitMs = options.waitMs ?? DEFAULT_UID_WAIT_MS;
  const tools = await findTools(options.toolDirs ?? SYSTEM_DIRS);
  const self = options.currentUid ?? await currentUid(tools);
  if (self !== 0) {
    throw new SandboxUnavailableError(
      `Cannot run the tests as a sandbox uid of ${range.first}-${range.last}: pawl runs as uid ${self} and only root can switch to the sandbox uid; run pawl as root (for example in its container) or pass --isolation none`,
    );
  }
  const { setpriv, prlimit, sh, env } = tools;
  if (
    setpriv === undefined || prlimit === undefined || sh === undefined ||
    env === undefined
  ) {
    throw new SandboxUnavailableError(
      'Cannot lease a sandbox uid: "setpriv", "prlimit", "sh" and "env" are needed to claim and clear it',
    );
  }
  const claimTools = { setpriv, prlimit, sh, env };
  const dir = await safeLockDir(lockDir, options.lockDir === undefined);
  const pawl = findPasswdUser(await readPasswd(options.passwdPath), "pawl");

  const started = performance.now();
  let pause = 25;
  let waiting = false;
  for (;;) {
    options.signal?.throwIfAborted();
    let elsewhere = 0;
    for (let uid = range.first; uid <= range.last; uid++) {
      const held = await tryLockUid(dir, uid);
      if (held === undefined) continue;
      if (!(await othersFree(dir, uid, range, options.leaveFree ?? 0))) {
        held.close();
        break; // as busy as a full range: wait, or give up
      }
      const gid = pawl !== undefined && pawl.uid === uid ? pawl.gid : uid;
      let claim: UidClaim | undefined;
      try {
        // Kills what a crashed holder left running as the uid.
        claim = await claimUid(uid, { gid, tools: claimTools });
      } catch (error) {
        held.close();
        throw error;
      }
      if (claim === undefined) {
        held.close();
        elsewhere += 1;
        continue;
      }
      return lease(gid, held.path, held.file, claim);
    }
    const waited = performance.now() - started;
    if (waited >= waitMs) {
      throw new SandboxUidsBusyError(range, dir, waited, elsewhere);
    }
    if (!waiting) {
      waiting = true;
      options.onWait?.(
        `every sandbox uid of ${range.first}-${range.last} is in use by other pawl runs; waiting up to ${
          Math.round(waitMs / 1000)
        } s for one`,
      );
    }
    await delay(Math.min(pause, Math.max(1, waitMs - waited)), options.signal);
    pause = Math.min(pause * 2, 1000);
  }
}

function lease(
  gid: number,
  lockPath: string,
  file: Deno.FsFile,
  claim: UidClaim,
): UidLease {
  let releasing: Promise<void> | undefined;
  const release = (): Promise<void> =>
    releasing ??= claim.release().finally(() => {
      file.close(); // closing the descriptor drops the flock
    });
  return {
    uid: claim.uid,
    gid,
    lockPath,
    get marked() {
      return claim.anchored;
    },
    othersRunning: () => claim.others(),
    sweep: () => claim.sweep(),
    release,
    [Symbol.asyncDispose]: release,
  };
}

/**
 * Whether at least `count` uids of `range` after `uid` (those before it
 * were just found held) are free: each is tried and let go at once.
 */
async function othersFree(
  dir: string,
  uid: number,
  range: UidRange,
  count: number,
): Promise<boolean> {
  let free = 0;
  for (let other = uid + 1; other <= range.last && free < count; other++) {
    const held = await tryLockUid(dir, other);
    if (held === undefined) continue;
    held.close();
    free += 1;
  }
  return free >= count;
}

/** The lock on `uid`'s file, or undefined when another process holds it. */
async function tryLockUid(
  dir: string,
  uid: number,
): Promise<{ file: Deno.FsFile; path: string; close(): void } | undefined> {
  const path = `${dir}/${uid}.lock`;
  await checkLockFile(path);
  const file = await Deno.open(path, {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
  // Readable by root only: flock(2) needs no write access, so a test
  // running as some uid could otherwise hold other runs' locks.
  if (((await file.stat()).mode ?? 0) & 0o077) await Deno.chmod(path, 0o600);
  let locked = false;
  try {
    locked = await file.tryLock(true);
  } finally {
    if (!locked) file.close();
  }
  return locked ? { file, path, close: () => file.close() } : undefined;
}

/**
 * An existing lock file must be a regular file of root's that nobody else
 * may write (it is made root-only readable once open). Only root can create one in the checked directory, so nothing
 * can appear between this check and the open.
 */
async function checkLockFile(path: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (!info.isFile || info.uid !== 0 || ((info.mode ?? 0) & 0o022) !== 0) {
    throw new SandboxUnavailableError(
      `Cannot lease a sandbox uid: the lock file "${path}" is not a regular file owned by root and writable only by root`,
    );
  }
}

/**
 * Create `dir` (0755) when missing, then check that it and every directory
 * above it (as resolved) belong to root and that no one else can replace
 * what is inside: a world-writable ancestor must be sticky, the directory
 * itself may not be writable by group or others. Returns its real path.
 */
async function safeLockDir(
  dir: string,
  isDefault: boolean,
): Promise<string> {
  if (!dir.startsWith("/")) {
    throw new SandboxUnavailableError(
      `Cannot lease a sandbox uid: the lock directory "${dir}" is not absolute`,
    );
  }
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o755 });
  } catch (error) {
    if (isDefault && (error as { code?: unknown }).code === "EROFS") {
      return await safeLockDir(READ_ONLY_RUN_LOCK_DIR, false);
    }
    throw new SandboxUnavailableError(
      `Cannot lease a sandbox uid: cannot create the lock directory "${dir}": ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  }
  const real = await Deno.realPath(dir);
  const parts = real.split("/").filter((p) => p !== "");
  const chain = [
    "/",
    ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`),
  ];
  for (const path of chain) {
    const info = await Deno.lstat(path);
    const mode = info.mode ?? 0;
    const self = path === real;
    // Stryker disable next-line ConditionalExpression: every path of a real path's chain is a directory (mkdir -p refuses a file, realPath a file's child) unless it was replaced since, which a root-owned, non-writable or sticky parent forbids: the check is the last line of that defence
    const unsafe = !info.isDirectory || info.uid !== 0 ||
      (self
        ? (mode & 0o022) !== 0
        : (mode & 0o002) !== 0 && (mode & 0o1000) === 0);
    if (unsafe) {
      throw new SandboxUnavailableError(
        `Cannot lease a sandbox uid: the lock directory "${real}" is not safe: "${path}" must be a directory owned by root that ${
          self ? "only root can write" : "others cannot write (or sticky)"
        }; remove it or pick another with PAWL_SANDBOX_LOCK_DIR`,
      );
    }
  }
  return real;
}

async function readPasswd(path: string | undefined): Promise<string> {
  try {
    return await Deno.readTextFile(path ?? "/etc/passwd");
  } catch {
    return "";
  }
}
