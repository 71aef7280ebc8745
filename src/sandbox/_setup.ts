/**
 * What the probe and the adapter both need to know about the machine: the
 * system tools' absolute paths, the hidden paths as they really are, the
 * sandbox identity and the uid pawl runs as.
 *
 * @module
 */
import { FALLBACK_UID } from "./_defaults.ts";
import { findPasswdUser, passwdNamesOf } from "./_passwd.ts";
import { findExecutable, runCaptured } from "./_exec.ts";
import type { HiddenPath, SandboxTools } from "./_sandbox_argv.ts";
import {
  SandboxCommandError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/** Every tool any tier may use, resolved to absolute paths where present. */
export interface FoundTools extends Partial<SandboxTools> {
  /** kill(1), for the uid sweep. */
  kill?: string;
  /** id(1), to learn the uid pawl runs as. */
  id?: string;
  /** chown(1), for `prepareDir`. */
  chown?: string;
}

const TOOL_NAMES = [
  "prlimit",
  "env",
  "setpriv",
  "bwrap",
  "unshare",
  "sh",
  "mount",
  "kill",
  "id",
  "chown",
  "nice",
] as const;

/** Look every tool up in `dirs`. */
export async function findTools(dirs: readonly string[]): Promise<FoundTools> {
  const tools: FoundTools = {};
  const found = await Promise.all(
    TOOL_NAMES.map((name) => findExecutable(name, dirs)),
  );
  for (const [i, name] of TOOL_NAMES.entries()) {
    const path = found[i];
    if (path !== undefined) tools[name] = path;
  }
  return tools;
}

/** The sandbox uid and gid, and a warning when the uid belongs to someone. */
export interface SandboxIdentity {
  /** uid the tests run as. */
  uid: number;
  /** gid the tests run as. */
  gid: number;
  /** Warnings for the isolation report. */
  notes: string[];
}

/**
 * The sandbox identity: explicit `uid`/`gid`, else user `pawl` from
 * `passwdPath`, else 64123/64123.
 */
export async function sandboxIdentity(options: {
  uid?: number | undefined;
  gid?: number | undefined;
  passwdPath?: string | undefined;
}): Promise<SandboxIdentity> {
  // Stryker disable next-line StringLiteral: a text without a passwd line names no user, as an empty one
  let passwd = "";
  try {
    passwd = await Deno.readTextFile(options.passwdPath ?? "/etc/passwd");
  } catch {
    // no passwd file: use the fallback ids
  }
  const pawl = findPasswdUser(passwd, "pawl");
  const uid = options.uid ?? pawl?.uid ?? FALLBACK_UID;
  const gid = options.gid ??
    (options.uid === undefined ? pawl?.gid : undefined) ?? uid;
  for (const [name, id] of [["uid", uid], ["gid", gid]] as const) {
    if (!Number.isInteger(id) || id <= 0 || id >= 0xffffffff) {
      throw new SandboxCommandError(
        `Cannot run the tests as ${name} ${id}: it must be a positive integer other than root's`,
      );
    }
  }
  const notes: string[] = [];
  const owners = passwdNamesOf(passwd, uid).filter((name) => name !== "pawl");
  if (owners.length > 0) {
    notes.push(
      `uid ${uid} belongs to "${
        owners.join('", "')
      }": every process of that uid is killed after each run`,
    );
  }
  return { uid, gid, notes };
}

/**
 * What id(1) answered, by its path: pawl never changes its own uid, so one
 * answer holds for the whole process (every lease and probe asks).
 */
const uidAnswers = new Map<string, Promise<number>>();

/**
 * The uid pawl itself runs as, from id(1) (no --allow-sys needed), asked
 * once per process and id(1) path; a failure is not kept.
 */
export function currentUid(tools: FoundTools): Promise<number> {
  const id = tools.id;
  // Stryker disable next-line ConditionalExpression: without id(1) askCurrentUid() rejects, and a rejected answer is dropped from the map
  if (id === undefined) return askCurrentUid(tools);
  let answer = uidAnswers.get(id);
  if (answer === undefined) {
    answer = askCurrentUid(tools);
    uidAnswers.set(id, answer);
    answer.catch(() => uidAnswers.delete(id));
  }
  return answer;
}

async function askCurrentUid(tools: FoundTools): Promise<number> {
  if (tools.id === undefined) {
    throw new SandboxUnavailableError(
      'Cannot tell which uid pawl runs as: "id" was not found',
    );
  }
  // Stryker disable next-line ObjectLiteral: id(1) answers at once; the deadline guards a broken system no test makes
  const out = await runCaptured(tools.id, ["-u"], { timeoutMs: 10_000 });
  const answer = out.stdout.trim();
  const uid = Number(answer);
  if (out.code !== 0 || answer === "" || !Number.isInteger(uid)) {
    throw new SandboxUnavailableError(
      `Cannot tell which uid pawl runs as: id exited with code ${out.code}: ${out.stderr}`,
    );
  }
  return uid;
}

/**
 * Canonical absolute paths of the hidden paths that exist, with their kind.
 * Missing paths are dropped: there is nothing to hide.
 */
export async function resolveHidden(
  paths: readonly string[],
): Promise<HiddenPath[]> {
  const out: HiddenPath[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (!path.startsWith("/")) {
      throw new SandboxCommandError(
        `Cannot hide "${path}" from the sandbox: the path is not absolute`,
      );
    }
    let real: string;
    let info: Deno.FileInfo;
    try {
      real = await Deno.realPath(path);
      info = await Deno.stat(real);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ path: real, kind: info.isDirectory ? "dir" : "file" });
  }
  return out;
}

/** CAP_SETPCAP's bit in /proc/<pid>/status capability masks. */
const CAP_SETPCAP = 8n;

/** pawl's own capabilities do not change while it runs: read once. */
let boundingSetAnswer: Promise<boolean> | undefined;

/**
 * Whether pawl holds CAP_SETPCAP, so setpriv may empty the bounding set.
 * A container started with `cap_drop: [ALL]` does not. Read once per
 * process.
 */
export function canDropBoundingSet(): Promise<boolean> {
  return boundingSetAnswer ??= readCanDropBoundingSet();
}

async function readCanDropBoundingSet(): Promise<boolean> {
  // Stryker disable next-line ArrowFunction,StringLiteral: /proc/self/status is readable wherever pawl runs, and no test can take it from its own process
  const status = await Deno.readTextFile("/proc/self/status").catch(() => "");
  // Stryker disable next-line OptionalChaining,Regex: Linux writes "CapEff:" at a line's start with one tab before the mask
  const hex = /^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1];
  // Stryker disable next-line ConditionalExpression: Linux writes a CapEff line in every process's status
  return hex !== undefined &&
    ((BigInt(`0x${hex}`) >> CAP_SETPCAP) & 1n) === 1n;
}
