/**
 * pawl's own bytecode for a judgement's working copies: one process of the
 * interpreter the runs start (`python/compile_bytecode.py`, root's, outside
 * the sandbox, `-I`, under resource limits) compiles each copy's modules as
 * the run would (test modules as pytest's assertion rewriter does) and
 * writes them where the run looks, before the copy is handed to the
 * sandbox. The runs then read bytecode pawl compiled from the source it
 * exported instead of compiling it again; what was compiled is kept in a
 * root-only cache keyed by the source's sha256, so the next judgement of
 * an unchanged module reads it too. A copy it could not finish is only
 * compiled by its run, as before.
 *
 * @module
 */
import { findExecutable, SYSTEM_DIRS } from "../sandbox/find_executable.ts";
import { cacheDirFrom, privateCacheDir } from "./private_cache_dir.ts";

/** What one copy got. */
export interface CompiledCopy {
  /** Bytecode files written into the copy. */
  written: number;
  /** Of them, compiled now (not found in the cache). */
  compiled: number;
  /** Modules left to the run (compiling warned, or pytest's kind could not be made). */
  left: number;
}

/** The compiler of one judgement. */
export interface BytecodeCompiler {
  /**
   * Write the bytecode of the copy at `dir` (absolute, still pawl's: no
   * run has it yet); undefined when the compiler could not (the run then
   * compiles, as without it). Never rejects; one copy at a time.
   */
  compile(dir: string): Promise<CompiledCopy | undefined>;
  /** End the process; never throws. */
  close(): Promise<void>;
}

/** Options for {@linkcode startBytecodeCompiler}. */
export interface BytecodeCompilerOptions {
  /** The interpreter the runs start (absolute). */
  python: string;
  /** The cache directory (root's, mode 0700). */
  cacheDir: string;
  /** Longest wait for one copy, in ms (default {@linkcode COPY_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** The longest one copy's compiling may take before the runs compile instead. */
export const COPY_TIMEOUT_MS = 120_000;

const SCRIPT = new URL("./python/compile_bytecode.py", import.meta.url)
  .pathname;

/** Address space and CPU seconds the compiler may use. */
const LIMITS = ["--as=4294967296", "--cpu=600", "--core=0"];

/**
 * Start the compiler. It is spawned at once (its start-up overlaps what
 * comes before the first copy); a spawn that fails leaves every copy to
 * its run.
 */
export async function startBytecodeCompiler(
  options: BytecodeCompilerOptions,
): Promise<BytecodeCompiler> {
  let child: Deno.ChildProcess | undefined;
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let lines: AsyncIterator<string> | undefined;
  let broken = false;
  const prlimit = await findExecutable("prlimit", SYSTEM_DIRS);
  // Stryker disable BlockStatement: a spawn that fails leaves writer undefined, which compile() checks as well as broken
  try {
    const argv = [options.python, "-I", SCRIPT, options.cacheDir];
    const [program, ...args] = prlimit === undefined
      ? argv
      : [prlimit, ...LIMITS, "--", ...argv];
    child = new Deno.Command(program as string, {
      args,
      cwd: "/",
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    writer = child.stdin.getWriter();
    lines = readLines(child.stdout)[Symbol.asyncIterator]();
  } catch {
    // Stryker disable next-line BooleanLiteral: a spawn that fails leaves writer undefined, which compile() checks as well as broken
    broken = true;
  }
  // Stryker restore BlockStatement
  const kill = () => {
    broken = true;
    try {
      // Stryker disable next-line OptionalChaining: kill() is only reached once there is a writer, so a child; and the catch would take the TypeError all the same
      child?.kill("SIGKILL");
    } catch {
      // already gone
    }
  };
  const timeoutMs = options.timeoutMs ?? COPY_TIMEOUT_MS;
  let queue: Promise<unknown> = Promise.resolve();
  const one = async (dir: string): Promise<CompiledCopy | undefined> => {
    // Stryker disable next-line ConditionalExpression: writer and lines are undefined only when the spawn failed, which sets broken
    if (broken || writer === undefined || lines === undefined) return undefined;
    if (dir.includes("\n") || !dir.startsWith("/")) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await writer.write(new TextEncoder().encode(`${dir}\n`));
      const reply = await Promise.race([
        lines.next(),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), timeoutMs);
        }),
      ]);
      // Stryker disable next-line ConditionalExpression: an undefined reply (the wait timed out) throws on .done, and the catch below kills and gives up the same way
      if (reply === undefined || reply.done === true) {
        kill();
        return undefined;
      }
      const m = /^done (\d+) (\d+) (\d+)$/.exec(reply.value);
      if (m === null) return undefined;
      return {
        written: Number(m[1]),
        compiled: Number(m[2]),
        left: Number(m[3]),
      };
    } catch {
      kill();
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    compile: (dir) => {
      const done = queue.then(() => one(dir));
      queue = done;
      return done;
    },
    close: async () => {
      await queue.catch(() => undefined);
      // Stryker disable BlockStatement: closing the writer fails only once a write has failed, and that write's catch already killed the process
      try {
        // Stryker disable next-line OptionalChaining: writer is undefined only when the spawn failed, so there is no child to kill and the TypeError is caught
        await writer?.close();
      } catch {
        kill();
      }
      // Stryker restore BlockStatement
      if (child === undefined) return;
      await child.status.catch(() => undefined);
    },
  };
}

async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: replies are ASCII; a character split between chunks, decoded as replacement characters, only changes a line that is no reply and never adds a newline
    rest += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = rest.indexOf("\n")) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
}

/** The system-wide cache of pawl's compiled bytecode (when pawl is root). */
export const SYSTEM_BYTECODE_CACHE = "/var/cache/pawl/bytecode";

/**
 * The cache directory for this judgement: `setting` (pawl's
 * `PAWL_BYTECODE_CACHE`; `off` is the caller's to honour), else
 * {@linkcode SYSTEM_BYTECODE_CACHE} for root, made (mode 0700) when
 * missing; `scratch` (the judgement's own) when that is not pawl's, is
 * open to others or cannot be made (with a note saying so when `setting`
 * named it): the runs of this judgement still share what was compiled.
 */
export async function bytecodeCacheDir(
  setting: string | undefined,
  scratch: string,
): Promise<{ dir: string; note?: string }> {
  const given = setting ?? "";
  // Only a cache asked for by name is worth a note when it cannot be
  // used: the default one is missing wherever the file system is
  // read-only, and the judgement's own serves then.
  const fallback = async (note?: string) => {
    // Stryker disable next-line ObjectLiteral: the chmod below sets mode 0700 whatever mkdir made
    await Deno.mkdir(scratch, { mode: 0o700 });
    await Deno.chmod(scratch, 0o700);
    // Stryker disable next-line ConditionalExpression: note is undefined only when no cache was named, and given is "" then, so given decides alone
    return note === undefined || given === ""
      ? { dir: scratch }
      : { dir: scratch, note };
  };
  const dir = cacheDirFrom(setting, SYSTEM_BYTECODE_CACHE);
  if (dir === undefined) return await fallback();
  const checked = await privateCacheDir(dir, "bytecode cache");
  if ("dir" in checked) return checked;
  return await fallback(
    `${checked.note}; nothing compiled is kept past this judgement`,
  );
}
