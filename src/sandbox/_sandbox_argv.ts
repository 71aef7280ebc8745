/**
 * The argv that wraps a command for one isolation tier. Pure: paths must
 * already be absolute and canonical (the adapter resolves them first).
 *
 * @module
 */
import type { IsolationTier, SandboxLimits } from "./sandbox.ts";
import {
  SandboxCommandError,
  SandboxUnavailableError,
} from "./sandbox_errors.ts";

/** Absolute paths of the system tools a tier needs. */
export interface SandboxTools {
  /** prlimit(1), run as root so it may set any limit. */
  prlimit: string;
  /** env(1), the last wrapper: it installs exactly the command's environment. */
  env: string;
  /** setpriv(1), for every tier but `none`. */
  setpriv?: string;
  /** bwrap(1), for tier `bwrap`. */
  bwrap?: string;
  /** unshare(1), for tier `unshare`. */
  unshare?: string;
  /** sh(1), for tier `unshare` (mounts over hidden paths). */
  sh?: string;
  /** mount(8), for tier `unshare`. */
  mount?: string;
  /** nice(1), for a command at background priority (without it, only its group is lowered). */
  nice?: string;
}

/** A path to hide from the command, and what it is on the host. */
export interface HiddenPath {
  /** Absolute canonical path. */
  path: string;
  /** Directories get an empty tmpfs, files an empty `/dev/null` bind. */
  kind: "dir" | "file";
}

/** Everything {@linkcode buildSandboxArgv} needs. */
export interface SandboxPlan {
  /** Isolation tier. */
  tier: IsolationTier;
  /** Sandbox uid (ignored for `none`). */
  uid: number;
  /** Sandbox gid (ignored for `none`). */
  gid: number;
  /** Absolute tool paths. */
  tools: SandboxTools;
  /** Absolute canonical working directory. */
  cwd: string;
  /** Absolute canonical writable directories (besides `cwd`). */
  writable: readonly string[];
  /** Absolute canonical directories bound read-only (bwrap tier; visible anyway at the others). */
  readOnly?: readonly string[];
  /** Paths to hide (bwrap and unshare tiers). */
  hidden: readonly HiddenPath[];
  /** The command's complete environment. */
  env: Readonly<Record<string, string>>;
  /** The command. */
  argv: readonly string[];
  /** Resolved limits. */
  limits: SandboxLimits;
  /**
   * Processes of the uid that run beside the command for its whole run
   * (its lease's mark), added to its process limit (default 0).
   */
  residentProcesses?: number;
  /** Run the command at background priority (see `SandboxCommand.priority`). */
  background?: boolean;
  /** Keep the host's network namespace (bwrap and unshare tiers cut it off otherwise). */
  shareNetwork?: boolean;
  /** Size in bytes of the private /tmp and /dev/shm (bwrap tier). */
  tmpBytes: number;
  /**
   * Also empty the capability bounding set. Needs CAP_SETPCAP, which a
   * container started with `cap_drop: [ALL]` lacks; without it the uid drop
   * and no_new_privs still leave the command no way to gain capabilities.
   */
  dropBoundingSet: boolean;
}

/**
 * Mounts over hidden paths inside unshare's private mount namespace, then
 * runs the command as a child rather than exec'ing it: the shell stays the
 * namespace's pid 1 (as root, out of the tests' reach) and turns a signal
 * death of the command into exit status 128+N, which unshare(1) passes on.
 */
export const UNSHARE_HIDE_SCRIPT = [
  "m=$1; n=$2; shift 2",
  'while [ "$n" -gt 0 ]; do "$m" -t tmpfs -o mode=0755,size=65536 pawl-hidden "$1" || exit 125; shift; n=$((n - 1)); done',
  "n=$1; shift",
  'while [ "$n" -gt 0 ]; do "$m" --bind /dev/null "$1" || exit 125; shift; n=$((n - 1)); done',
  '"$@"',
].join("\n");

/** The nice value of a command at background priority. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the priority of a command's session before anything of the
 * command's runs: the kernel shares the cores between sessions first (its
 * autogroups), so a process's own nice value counts only within its
 * session. Run as root, inside the sandbox's new session, then exec'd
 * away; a kernel without autogroups has no file to write.
 */
export const BACKGROUND_SCRIPT = [
  `echo ${BACKGROUND_NICE} >/proc/self/autogroup 2>/dev/null`,
  'exec "$@"',
].join("\n");

/** The full argv (program first) running `plan.argv` at `plan.tier`. */
export function buildSandboxArgv(plan: SandboxPlan): string[] {
  checkCommand(plan);
  const limits = plan.limits;
  const inner = [
    plan.tools.prlimit,
    `--nproc=${limits.maxProcesses + (plan.residentProcesses ?? 0)}`,
    `--fsize=${limits.maxFileBytes}`,
    // The soft limit kills with SIGXCPU; were the hard limit the same, the
    // kernel would send SIGKILL, which reads as a kill from outside.
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--nofile=${limits.maxOpenFiles}`,
    "--core=0",
    "--",
  ];
  if (plan.tier !== "none") {
    inner.push(
      need(plan.tools.setpriv, "setpriv"),
      `--reuid=${plan.uid}`,
      `--regid=${plan.gid}`,
      "--clear-groups",
      "--inh-caps=-all",
      ...(plan.dropBoundingSet ? ["--bounding-set=-all"] : []),
      "--no-new-privs",
      "--",
    );
  }
  // env(1) runs last, as the sandbox uid, so no root-run wrapper ever sees
  // the command's variables (LD_PRELOAD and friends).
  inner.push(plan.tools.env, "-i", "--");
  for (const key of Object.keys(plan.env).sort()) {
    inner.push(`${key}=${plan.env[key]}`);
  }
  inner.push(...plan.argv);
  // A lower priority only speeds the run it yields to: without sh(1) or
  // nice(1) the command runs as it would otherwise.
  if (plan.background === true) {
    const { sh, nice } = plan.tools;
    inner.unshift(
      ...(sh === undefined
        ? []
        : [sh, "-c", BACKGROUND_SCRIPT, "pawl-background"]),
      ...(nice === undefined ? [] : [nice, "-n", String(BACKGROUND_NICE)]),
    );
  }
  switch (plan.tier) {
    case "none":
    case "uid":
      return inner;
    case "bwrap":
      return [
        need(plan.tools.bwrap, "bwrap"),
        ...(plan.shareNetwork === true ? [] : ["--unshare-net"]),
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        ...bwrapMounts(plan),
        "--chdir",
        plan.cwd,
        "--",
        ...inner,
      ];
    case "unshare": {
      checkHiddenConflicts(plan);
      const dirs = plan.hidden.filter((h) => h.kind === "dir");
      const files = plan.hidden.filter((h) => h.kind === "file");
      return [
        need(plan.tools.unshare, "unshare"),
        ...(plan.shareNetwork === true ? [] : ["--net"]),
        "--pid",
        "--ipc",
        "--uts",
        "--fork",
        "--mount-proc",
        "--kill-child",
        "--",
        need(plan.tools.sh, "sh"),
        "-c",
        UNSHARE_HIDE_SCRIPT,
        "pawl-sandbox",
        need(plan.tools.mount, "mount"),
        String(dirs.length),
        ...dirs.map((h) => h.path),
        String(files.length),
        ...files.map((h) => h.path),
        ...inner,
      ];
    }
  }
}

type MountKind =
  | "base"
  | "tmpfs"
  | "bind"
  | "ro-bind"
  | "hidden-dir"
  | "hidden-file";

interface MountOp {
  path: string;
  kind: MountKind;
  args: string[];
}

function bwrapMounts(plan: SandboxPlan): string[] {
  checkHiddenConflicts(plan);
  const size = String(plan.tmpBytes);
  const base: MountOp[] = [
    {
      // Stryker disable next-line StringLiteral: "" covers every path at depth 0 as "/" does (isInside and depth read them alike)
      path: "/",
      // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
      kind: "base",
      args: ["--ro-bind", "/", "/"],
    },
    {
      path: "/proc",
      // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
      kind: "base",
      args: ["--proc", "/proc"],
    },
    {
      path: "/dev",
      // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
      kind: "base",
      args: ["--dev", "/dev"],
    },
    {
      path: "/dev/shm",
      kind: "tmpfs",
      args: ["--perms", "1777", "--size", size, "--tmpfs", "/dev/shm"],
    },
    {
      path: "/tmp",
      kind: "tmpfs",
      args: ["--perms", "1777", "--size", size, "--tmpfs", "/tmp"],
    },
  ];
  const writable = unique([plan.cwd, ...plan.writable]);
  const binds: MountOp[] = [
    ...unique(plan.readOnly ?? []).filter((p) => !writable.includes(p)).map((
      p,
    ): MountOp => ({
      path: p,
      // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
      kind: "ro-bind",
      args: ["--ro-bind", p, p],
    })),
    ...writable.map((p): MountOp => ({
      path: p,
      // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
      kind: "bind",
      args: ["--bind", p, p],
    })),
  ];
  const hidden: MountOp[] = [];
  for (const h of plan.hidden) {
    const others = [
      ...base,
      ...binds,
      ...plan.hidden
        .filter((o) => o.kind === "dir" && o.path !== h.path)
        .map((o): MountOp => ({
          path: o.path,
          kind: "hidden-dir",
          // Stryker disable next-line ArrayDeclaration: these stand-ins only answer innermost(); their options are never given to bwrap
          args: [],
        })),
    ];
    const cover = innermost(others, h.path);
    // Already invisible under a fresh tmpfs that no bind re-exposes.
    if (cover.kind === "tmpfs" || cover.kind === "hidden-dir") continue;
    hidden.push(
      h.kind === "dir"
        ? {
          path: h.path,
          // Stryker disable next-line StringLiteral: no mount lies inside a hidden directory (a bind there is refused, a hidden path there skipped), so this kind is never compared
          kind: "hidden-dir",
          args: ["--perms", "0755", "--size", "65536", "--tmpfs", h.path],
        }
        : {
          path: h.path,
          // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
          kind: "hidden-file",
          args: ["--ro-bind", "/dev/null", h.path],
        },
    );
  }
  const mounts = [...base, ...hidden, ...binds];
  // Mount points created inside a tmpfs must be traversable by the uid.
  const dirs: MountOp[] = [];
  const seen = new Set<string>();
  for (const op of [...hidden, ...binds]) {
    for (const ancestor of ancestorsOf(op.path)) {
      const cover = innermost(mounts, ancestor);
      if (cover.path === ancestor || seen.has(ancestor)) continue;
      if (
        cover.kind !== "tmpfs" &&
        // Stryker disable next-line ConditionalExpression,StringLiteral: no mount lies inside a hidden directory (a bind there is refused, a hidden path there skipped), so this kind is never compared
        cover.kind !== "hidden-dir"
      ) continue;
      seen.add(ancestor);
      dirs.push({
        path: ancestor,
        // Stryker disable next-line StringLiteral: a label: only a tmpfs's kind and a hidden directory's are compared
        kind: "base",
        args: ["--perms", "0755", "--dir", ancestor],
      });
    }
  }
  // Shallow mounts first, so a deeper one (a bind inside /tmp, a hidden
  // path inside a bind) is laid over it. The sort is stable.
  const ordered = [...base, ...dirs, ...hidden, ...binds]
    .map((op, index) => ({ op, index }))
    .sort((a, b) =>
      depth(a.op.path) - depth(b.op.path) ||
      // Stryker disable next-line ArithmeticOperator: the sort is stable, and a positive answer for a tie keeps the order given as well
      a.index - b.index
    );
  return ordered.flatMap(({ op }) => op.args);
}

function checkCommand(plan: SandboxPlan): void {
  const program = plan.argv[0];
  if (program === undefined || program === "") {
    throw new SandboxCommandError(
      "Cannot run an empty command in the sandbox: argv is empty",
    );
  }
  if (program.includes("=")) {
    throw new SandboxCommandError(
      `Cannot run "${program}" in the sandbox: the program name contains "="`,
    );
  }
  for (const arg of plan.argv) {
    if (arg.includes("\0")) {
      throw new SandboxCommandError(
        `Cannot run "${program}" in the sandbox: an argument contains a NUL byte`,
      );
    }
  }
  for (const [key, value] of Object.entries(plan.env)) {
    if (!/^[^=\0]+$/.test(key) || value.includes("\0")) {
      throw new SandboxCommandError(
        `Cannot run "${program}" in the sandbox: invalid environment variable "${key}"`,
      );
    }
  }
  for (
    const path of [
      plan.cwd,
      ...plan.writable,
      ...(plan.readOnly ?? []),
      ...plan.hidden.map((h) => h.path),
    ]
  ) {
    if (!isCanonical(path)) {
      throw new SandboxCommandError(
        `Cannot run "${program}" in the sandbox: path "${path}" is not absolute and canonical`,
      );
    }
  }
}

function checkHiddenConflicts(plan: SandboxPlan): void {
  for (
    const path of unique([
      plan.cwd,
      ...plan.writable,
      // Stryker disable next-line ArrayDeclaration: an invented path lies inside no hidden path but "/", which the working directory lies inside as well
      ...(plan.readOnly ?? []),
    ])
  ) {
    for (const h of plan.hidden) {
      if (path === h.path || isInside(path, h.path)) {
        throw new SandboxCommandError(
          `Cannot run "${
            plan.argv[0]
          }" in the sandbox: writable path "${path}" is inside hidden path "${h.path}"`,
        );
      }
    }
  }
}

function need(path: string | undefined, name: string): string {
  if (path === undefined) {
    throw new SandboxUnavailableError(
      `Cannot build the sandbox command: "${name}" was not found`,
    );
  }
  return path;
}

function innermost(ops: readonly MountOp[], path: string): MountOp {
  let best: MountOp | undefined;
  for (const op of ops) {
    if (op.path !== path && !isInside(path, op.path)) continue;
    if (best === undefined || depth(op.path) >= depth(best.path)) best = op;
  }
  // "/" covers every path and is always in the list.
  return best!;
}

/** Proper ancestors of `path`, shallowest first, without "/". */
function ancestorsOf(path: string): string[] {
  const parts = path.split("/").slice(1, -1);
  return parts.map((_, i) => "/" + parts.slice(0, i + 1).join("/"));
}

function isInside(path: string, parent: string): boolean {
  if (parent === "/") {
    // Stryker disable next-line ConditionalExpression,StringLiteral: no caller asks whether "/" lies inside "/": each compares equal paths first
    return path !== "/";
  }
  return path.startsWith(`${parent}/`);
}

function depth(path: string): number {
  if (path === "/") return 0;
  // Stryker disable next-line ArithmeticOperator: every depth but that of "/" (the least either way) moves by 2, so no order changes
  return path.split("/").length - 1;
}

function isCanonical(path: string): boolean {
  if (path === "/") return true;
  // Stryker disable next-line ConditionalExpression: a path other than "/" that ends in "/" has an empty last part, which the check below refuses as well
  if (!path.startsWith("/") || path.endsWith("/")) return false;
  return path.split("/").slice(1).every((part) =>
    part !== "" && part !== "." && part !== ".."
  );
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
