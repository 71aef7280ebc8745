/**
 * `pawl serve` as a subprocess, the way a deployment runs it, with its
 * JSON log lines collected; and a GitHub App identity for the fake GitHub.
 *
 * @module
 */
import { generateKeyPairSync } from "node:crypto";
import { ROOT } from "./_cli.ts";
import { activeMutantEnv } from "./_mutant_env.ts";

/** A GitHub App's key pair (the private key in GitHub's PKCS#1 PEM). */
export interface AppKeys {
  /** Private key, PEM. */
  privateKeyPem: string;
  /** Public key, PEM (for the fake's JWT check). */
  publicKeyPem: string;
}

/** Make a fresh App key pair. */
export function makeAppKeys(): AppKeys {
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKeyPem: keys.privateKey.export({ type: "pkcs1", format: "pem" })
      .toString(),
    publicKeyPem: keys.publicKey.export({ type: "spki", format: "pem" })
      .toString(),
  };
}

/** A running `pawl serve`. */
export interface ServeProcess extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Every log line so far, parsed. */
  logs: Record<string, unknown>[];
  /** Every byte written to stderr so far, as text. */
  stderr(): string;
  /** Wait for a log line that `match` accepts. */
  waitForLog(
    match: (line: Record<string, unknown>) => boolean,
    ms?: number,
  ): Promise<Record<string, unknown>>;
  /** The process started (the task runner, when started through one). */
  pid: number;
  /** Send a signal. */
  kill(signal: Deno.Signal): void;
  /** The exit status. */
  status: Promise<Deno.CommandStatus>;
}

/** Options for {@linkcode spawnServe}. */
export interface SpawnServeOptions {
  /**
   * The command that starts `pawl serve`, in place of `deno run -A
   * main.ts serve` (e.g. `["deno", "task", "serve"]`).
   */
  launch?: readonly string[];
}

/** Start `deno run -A main.ts serve --port 0 …` with `env` on top of a minimal environment. */
export async function spawnServe(
  env: Record<string, string>,
  args: readonly string[] = [],
  options: SpawnServeOptions = {},
): Promise<ServeProcess> {
  const [program, ...launch] = options.launch ??
    [Deno.execPath(), "run", "-A", `${ROOT}/main.ts`, "serve"];
  const child = new Deno.Command(program!, {
    args: [...launch, "--port", "0", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...activeMutantEnv(),
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      ...(Deno.env.get("DENO_DIR")
        ? { DENO_DIR: Deno.env.get("DENO_DIR")! }
        : {}),
      NO_COLOR: "1",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const logs: Record<string, unknown>[] = [];
  let stderr = "";
  const waiters = new Set<() => void>();
  const pump = async (
    stream: ReadableStream<Uint8Array>,
    onLine: (line: string) => void,
  ) => {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    }
  };
  const listening = Promise.withResolvers<string>();
  const pumps = Promise.all([
    pump(child.stdout, (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match !== null) listening.resolve(match[1]!);
    }),
    pump(child.stderr, (line) => {
      stderr += line + "\n";
      try {
        logs.push(JSON.parse(line));
      } catch {
        // not a log line (a crash message)
      }
      for (const wake of waiters) wake();
    }),
  ]);
  const status = child.status.then(async (s) => {
    // Children of a killed server (a test run) may hold its pipes open.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      pumps.catch(() => {}),
      new Promise((r) => timer = setTimeout(r, 1000)),
    ]);
    clearTimeout(timer);
    listening.reject(new Error(`pawl serve exited (${s.code}):\n${stderr}`));
    return s;
  });
  const timer = setTimeout(
    () => listening.reject(new Error(`pawl serve did not start:\n${stderr}`)),
    60_000,
  );
  let url: string;
  try {
    url = await listening.promise;
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await status;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const proc: ServeProcess = {
    url,
    logs,
    stderr: () => stderr,
    pid: child.pid,
    waitForLog(match, ms = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs.find(match);
          if (found !== undefined) {
            done();
            resolve(found);
          }
        };
        const timeout = setTimeout(() => {
          done();
          reject(new Error(`No such log line within ${ms} ms:\n${stderr}`));
        }, ms);
        const done = () => {
          clearTimeout(timeout);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    kill(signal) {
      try {
        child.kill(signal);
      } catch { /* gone */ }
    },
    status,
    async [Symbol.asyncDispose]() {
      proc.kill("SIGKILL");
      await status;
    },
  };
  return proc;
}

/** Poll `test` until it holds; throws after `ms`. */
export async function until(
  what: string,
  test: () => boolean | Promise<boolean>,
  ms = 120_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!await test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
