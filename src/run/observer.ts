/**
 * pawl's observer plugin on disk and the channel it reports on. The plugin
 * (`pytest_plugin/pawl_observer.py`) is copied into a root-owned, read-only
 * directory outside every tree the tests can write, under a module name
 * drawn afresh per job, so the repository can neither edit it nor shadow it
 * by name. That directory is also the user site of a root-owned, read-only
 * user base (`PYTHONUSERBASE`), so the interpreter finds the plugin even
 * when the test command sets `PYTHONPATH` itself (`env PYTHONPATH=src
 * python3 -m pytest`). Each run gets its own unix socket, in a root-owned
 * directory the sandbox can reach but not write, and pawl reads it while
 * the run goes.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { callRecorderSource } from "./calls/call_sources.ts";
import { LineTap } from "./_line_tap.ts";
import { type Observation, parseObservation } from "./observation.ts";

const PLUGIN_SOURCE = new URL(
  "./pytest_plugin/pawl_observer.py",
  import.meta.url,
);

/** Bytes read from one connection before the rest is dropped. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** Where the plugin was put, and how runs reach it. */
export interface ObserverPlugin {
  /** Root-owned directory holding `dir` and `channels`; the sandbox sees it read-only. */
  root: string;
  /** Root-owned directory holding only pawl's plugins (mode 0555); goes first on PYTHONPATH. */
  dir: string;
  /**
   * Root-owned, read-only user base whose user site, for every Python 3
   * version, is `dir`: the run's `PYTHONUSERBASE`. Unset, only PYTHONPATH
   * leads to the plugin.
   */
  userBase?: string;
  /** The module name to load with `-p`. */
  module: string;
  /** Root-owned directory (mode 0711) where each run's socket is made. */
  channels: string;
  /** SHA-256 of the plugin's source: what watched a run, for caches. */
  sha256?: string;
  /**
   * Root-owned file under `root` naming the changed lines the suite's run
   * traces ({@linkcode writeChangedLines}); a run reads it only when its
   * `PAWL_OBSERVER_LINES` names it.
   */
  lines?: string;
  /**
   * The module name of pawl's call recorder (`calls/call_recorder.py`),
   * installed beside the plugin: loaded with `-p` only in the run that
   * records the calls the tests make into the code under test.
   */
  recorder?: string;
}

/**
 * The user site directories `site` looks for under a user base, one per
 * Python 3 version that may run the tests: `lib/pythonX.Y/site-packages`
 * (`lib/pythonX.Yt/` for a free-threaded build, `lib/pypyX.Y/` for PyPy).
 */
export const USER_SITE_VERSIONS: readonly string[] = Array.from(
  { length: 40 },
  (_, minor) => [`python3.${minor}`, `python3.${minor}t`, `pypy3.${minor}`],
).flat();

/**
 * Copy the plugin under `root` (pawl's private job directory), readable by
 * every uid and writable by none, and make the user base that leads to it.
 */
export async function installObserver(root: string): Promise<ObserverPlugin> {
  const suffix = randomHex(8);
  const module = `_pawl_observer_${suffix}`;
  const top = `${root}/observer-${suffix}`;
  const dir = `${top}/lib`;
  const channels = `${top}/run`;
  // Stryker disable ObjectLiteral,BooleanLiteral: every path made here is set to its mode by the chmod after it, which the tests check, and is new in a directory made just before; the options only close the moment between
  await Deno.mkdir(top, { mode: 0o755 });
  await Deno.chmod(top, 0o755);
  await Deno.mkdir(dir, { mode: 0o755 });
  await Deno.mkdir(channels, { mode: 0o711 });
  await Deno.chmod(channels, 0o711);
  const userBase = await makeUserBase(top);
  const file = `${dir}/${module}.py`;
  const source = await Deno.readFile(PLUGIN_SOURCE);
  const sha256 = createHash("sha256").update(source).digest("hex");
  await Deno.writeFile(file, source, {
    mode: 0o444,
    createNew: true,
  });
  await Deno.chmod(file, 0o444);
  const recorder = `_pawl_calls_${suffix}`;
  await Deno.writeTextFile(
    `${dir}/${recorder}.py`,
    await callRecorderSource(),
    {
      mode: 0o444,
      createNew: true,
    },
  );
  await Deno.chmod(`${dir}/${recorder}.py`, 0o444);
  await Deno.chmod(dir, 0o555);
  // Stryker restore ObjectLiteral,BooleanLiteral
  return {
    root: top,
    dir,
    userBase,
    module,
    channels,
    sha256,
    lines: `${top}/changed-lines.json`,
    recorder,
  };
}

/**
 * Write the changed lines the suite's run is to trace into the plugin's
 * `lines` file, readable by every uid and writable by none: `files` maps
 * each repository-relative path to its changed line numbers, `root` is the
 * tree the run imports them from. A job writes it before its suite runs.
 */
export async function writeChangedLines(
  plugin: ObserverPlugin,
  changed: {
    root: string;
    files: ReadonlyMap<string, readonly number[]>;
  },
): Promise<void> {
  if (plugin.lines === undefined) return;
  const text = JSON.stringify({
    root: changed.root,
    files: Object.fromEntries(changed.files),
  });
  await Deno.remove(plugin.lines).catch(() => undefined);
  // Stryker disable ObjectLiteral,BooleanLiteral: every path made here is set to its mode by the chmod after it, which the tests check, and is new in a directory made just before; the options only close the moment between
  await Deno.writeTextFile(plugin.lines, text, {
    mode: 0o444,
    createNew: true,
  });
  // Stryker restore ObjectLiteral,BooleanLiteral
  await Deno.chmod(plugin.lines, 0o444);
}

/**
 * `top/user`, whose `lib/<version>/site-packages` is `top/lib` for every
 * name in {@linkcode USER_SITE_VERSIONS}: each version's directory is a
 * relative symlink to `user/site`, whose `site-packages` links to the
 * plugin's directory, so no path loops and every link resolves inside
 * `top` wherever the sandbox mounts it.
 */
async function makeUserBase(top: string): Promise<string> {
  const user = `${top}/user`;
  await Deno.mkdir(`${user}/lib`, { recursive: true, mode: 0o755 });
  // Stryker disable next-line ObjectLiteral: the chmod below sets the mode, and the tests check it
  await Deno.mkdir(`${user}/site`, { mode: 0o755 });
  await Deno.symlink("../../lib", `${user}/site/site-packages`);
  await Promise.all(
    USER_SITE_VERSIONS.map((v) => Deno.symlink("../site", `${user}/lib/${v}`)),
  );
  for (const path of [`${user}/site`, `${user}/lib`, user]) {
    await Deno.chmod(path, 0o555);
  }
  return user;
}

/** One run's stream: a listening unix socket and what arrived on it. */
export class ObserverChannel {
  /** Socket path the plugin connects to. */
  readonly path: string;
  /** The token the plugin's first line must carry. */
  readonly token: string;
  #listener: Deno.Listener;
  #connections: Promise<string[]>[] = [];
  #accepting: Promise<void>;
  #tap = new LineTap();

  private constructor(path: string, token: string, listener: Deno.Listener) {
    this.path = path;
    this.token = token;
    this.#listener = listener;
    this.#accepting = this.#accept();
  }

  /** Listen on a fresh socket under `plugin.channels`. */
  static async open(plugin: ObserverPlugin): Promise<ObserverChannel> {
    const token = randomHex(16);
    const path = `${plugin.channels}/${token.slice(0, 12)}.sock`;
    if (new TextEncoder().encode(path).length > 100) {
      throw new RangeError(
        `Cannot open the observer channel: socket path "${path}" is longer than a unix socket allows; use a shorter TMPDIR`,
      );
    }
    const listener = Deno.listen({ transport: "unix", path });
    // The sandbox uid must be able to connect; the directory stays root's.
    await Deno.chmod(path, 0o777);
    return new ObserverChannel(path, token, listener);
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        // Only the first connection can be the run's own (see parseObservation).
        const tap = this.#connections.length === 0 ? this.#tap : undefined;
        this.#connections.push(readLines(conn, tap));
      }
    } catch {
      // the listener was closed
    }
  }

  /**
   * Tell `listener` each line of the first connection as it arrives, the
   * lines before this call included: for progress, while the run goes.
   * The lines are untrusted (the run's own token check is the listener's).
   */
  watch(listener: (line: string) => void): void {
    this.#tap.listen(listener);
  }

  /**
   * Stop listening and return what the run streamed, parsed. Call after the
   * sandboxed run ended (its processes are gone, so every connection has
   * reached its end); a connection still open after `graceMs` is cut.
   */
  async finish(graceMs = 2000): Promise<Observation> {
    return parseObservation(await this.finishLines(graceMs), this.token);
  }

  /**
   * Stop listening and return the lines each of the run's connections sent, as
   * {@linkcode finish} does, unparsed: for a stream of another shape than
   * the observer's (the call recorder's, the replayer's).
   */
  async finishLines(graceMs = 2000): Promise<string[][]> {
    this.#listener.close();
    await this.#accepting;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<"grace">((resolve) => {
      timer = setTimeout(() => resolve("grace"), graceMs);
    });
    try {
      const all = Promise.all(this.#connections);
      const first = await Promise.race([all, grace]);
      // Stryker disable next-line ConditionalExpression: when every connection has ended, racing each against the cut-off still gives its own lines, as it settled first
      const lines = first === "grace"
        ? await Promise.all(
          this.#connections.map((c) =>
            Promise.race([c, Promise.resolve(["<cut off>"])])
          ),
        )
        : first;
      return lines;
    } finally {
      clearTimeout(timer);
      this.#tap.close();
      await Deno.remove(this.path).catch(() => {});
    }
  }
}

/** Bytes asked of the socket per read. */
const READ_BYTES = 64 * 1024;

/**
 * Every line one connection sent, up to {@linkcode MAX_STREAM_BYTES}. The
 * plugin writes about once per test, so this reads once per test: into one
 * buffer reused for every read, each read's bytes copied out (a readable
 * stream would allocate a fresh 64 KiB buffer per read and keep it).
 */
async function readLines(
  conn: Deno.Conn,
  tap: LineTap | undefined,
): Promise<string[]> {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(READ_BYTES);
  let total = 0;
  try {
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      const kept = Math.min(n, MAX_STREAM_BYTES - total);
      const chunk = buffer.slice(0, kept);
      chunks.push(chunk);
      tap?.feed(chunk);
      total += kept;
      // Stryker disable next-line ConditionalExpression: past the cap every read keeps no byte, so the lines are the same; the break only stops reading a writer that goes on
      if (total === MAX_STREAM_BYTES) break;
    }
  } catch {
    // a reset connection ends the stream
  } finally {
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const text = new TextDecoder().decode(bytes);
  return text.split("\n").filter((line) => line !== "");
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}
