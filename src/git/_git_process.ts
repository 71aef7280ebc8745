/**
 * Running git (and tar) with a hardened environment. The repository being
 * judged is hostile: its config may name hooks, an fsmonitor or filters, so
 * every invocation starts from an empty environment, ignores system and
 * global config and overrides the dangerous repository settings on the
 * command line, where they take precedence.
 *
 * @module
 */
import { GitError } from "./git_error.ts";

/** Where and how to run one git process. */
export interface GitProcessOptions {
  /** `--git-dir` for the command; omitted for `git clone`. */
  gitDir?: string;
  /** Working directory of the child. */
  cwd: string;
  /** `HOME` of the child: an empty directory or the private git dir. */
  home: string;
  /** `PATH` of the child. */
  path: string;
  /** Extra variables (e.g. `SSH_AUTH_SOCK`); the hardening keys win. */
  env?: Readonly<Record<string, string>>;
}

/** `-c` options put before every git subcommand. */
export const HARDENING_CONFIG: readonly string[] = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "protocol.file.allow=always",
  "-c",
  "protocol.ext.allow=never",
  "-c",
  "safe.directory=*",
  "-c",
  "gc.auto=0",
  "-c",
  "maintenance.auto=false",
  "-c",
  "fetch.writeCommitGraph=false",
  "-c",
  "credential.helper=",
];

/** The complete environment of a hardened child process. */
export function hardenedEnv(
  options: Pick<GitProcessOptions, "home" | "path" | "env">,
): Record<string, string> {
  return {
    ...options.env,
    PATH: options.path,
    HOME: options.home,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
  };
}

/** Full argv (after `git`) for `args` under `options`. */
export function gitArgv(
  args: readonly string[],
  options: Pick<GitProcessOptions, "gitDir">,
): string[] {
  const prefix = options.gitDir === undefined
    ? []
    : [`--git-dir=${options.gitDir}`];
  return [...prefix, ...HARDENING_CONFIG, ...args];
}

/** The default `PATH` for children: the caller's, or a conventional one. */
export function defaultPath(): string {
  return Deno.env.get("PATH") ?? "/usr/local/bin:/usr/bin:/bin";
}

/** Stdio wiring for {@linkcode spawnGit}. */
export interface SpawnStdio {
  /** Default `"null"`. */
  stdin?: "piped" | "null";
  /** Default `"piped"`. */
  stdout?: "piped" | "null";
}

/** Spawn a hardened git process; stderr is always piped. */
export function spawnGit(
  args: readonly string[],
  options: GitProcessOptions,
  stdio: SpawnStdio = {},
): Deno.ChildProcess {
  return spawnHardened("git", gitArgv(args, options), options, stdio);
}

/** Spawn any program (git or tar) with the hardened environment. */
export function spawnHardened(
  program: string,
  argv: readonly string[],
  options: Pick<GitProcessOptions, "cwd" | "home" | "path" | "env">,
  stdio: SpawnStdio = {},
): Deno.ChildProcess {
  try {
    return new Deno.Command(program, {
      args: [...argv],
      cwd: options.cwd,
      clearEnv: true,
      env: hardenedEnv(options),
      stdin: stdio.stdin ?? "null",
      stdout: stdio.stdout ?? "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new GitError(
      `Cannot run "${program}" in ${quote(options.cwd)}: ${describe(error)}`,
      {
        args: argv,
        cause: error,
      },
    );
  }
}

/** Bound on the stderr text kept for error messages. */
const STDERR_LIMIT = 64 * 1024;

/**
 * Read a child's stderr to the end, keeping at most 64 KiB, optionally
 * calling `onLine` for each line (git progress uses `\r` as well as `\n`).
 */
export async function collectStderr(
  stream: ReadableStream<Uint8Array>,
  onLine?: (line: string) => void,
): Promise<string> {
  const decoder = new TextDecoder();
  let kept = "";
  let partial = "";
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    if (kept.length < STDERR_LIMIT) {
      kept += text.slice(0, STDERR_LIMIT - kept.length);
    }
    if (onLine !== undefined) {
      const parts = (partial + text).split(/[\r\n]/);
      partial = parts.pop() ?? "";
      for (const part of parts) if (part.trim() !== "") onLine(part);
    }
  }
  if (onLine !== undefined && partial.trim() !== "") onLine(partial);
  return kept.trim();
}

/** Result of {@linkcode runGit}. */
export interface GitOutput {
  /** Exit code. */
  code: number;
  /** Everything written to stdout. */
  stdout: Uint8Array;
  /** stderr, trimmed and bounded. */
  stderr: string;
  /** The full argv after `git`, for error reports. */
  argv: string[];
}

/** Options for {@linkcode runGit} beyond where to run. */
export interface RunGitOptions extends GitProcessOptions {
  /** Called with each stderr line as it arrives (progress). */
  onStderrLine?: (line: string) => void;
}

/** Run git to completion, collecting its output; never throws on exit code. */
export async function runGit(
  args: readonly string[],
  options: RunGitOptions,
): Promise<GitOutput> {
  const argv = gitArgv(args, options);
  const child = spawnHardened("git", argv, options);
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).bytes(),
    collectStderr(child.stderr, options.onStderrLine),
    child.status,
  ]);
  return { code: status.code, stdout, stderr, argv };
}

/** Build a {@linkcode GitError} from a failed {@linkcode runGit}. */
export function gitFailure(message: string, output: GitOutput): GitError {
  return new GitError(`${message}: ${stderrDetail(output.stderr)}`, {
    args: output.argv,
    stderr: output.stderr,
    exitCode: output.code,
  });
}

/**
 * The most useful line of git's stderr, without its `fatal: ` prefix, for
 * the detail part of a message.
 */
export function stderrDetail(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) =>
    line !== "" && !line.startsWith("hint:")
  );
  const fatal = lines.find((line) => line.startsWith("fatal:"));
  const line = fatal ?? lines.at(-1);
  if (line === undefined) return "git failed without a message";
  return line.replace(/^(fatal|error): /, "");
}

/** A readable description of an unknown thrown value. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Quote a value for an error message (JSON-style, so odd bytes stay visible). */
export function quote(value: string): string {
  return JSON.stringify(value);
}
