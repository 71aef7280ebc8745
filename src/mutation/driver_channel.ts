/**
 * pawl's end of the warm driver's line protocol: a unix socket in the
 * observer's root-owned channel directory (the sandbox can reach it, not
 * write beside it), listening for one connection. The first connection
 * is the driver's; any other is closed unread and remembered, since only
 * the code under test could have made it.
 *
 * @module
 */
import type { ObserverPlugin } from "../run/observer.ts";

/**
 * Longest line read from the driver, in characters (the driver writes
 * ASCII JSON, so bytes); a longer one ends the stream.
 */
export const MAX_DRIVER_LINE_BYTES = 1024 * 1024;

/** The socket, its token, and the lines of its one connection. */
export class DriverChannel {
  /** Socket path the driver connects to. */
  readonly path: string;
  /** The token the driver's hello must carry. */
  readonly token: string;
  /** Set when a second process connected. */
  intruded = false;
  #listener: Deno.Listener;
  #conn: Deno.Conn | undefined;
  #lines: unknown[] = [];
  #waiting: ((line: unknown) => void) | undefined;
  #ended = false;
  #closed = false;

  private constructor(path: string, token: string, listener: Deno.Listener) {
    this.path = path;
    this.token = token;
    this.#listener = listener;
    this.#accept();
  }

  /** Listen on a fresh socket under `plugin.channels`. */
  static async open(plugin: ObserverPlugin): Promise<DriverChannel> {
    const token = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    const path = `${plugin.channels}/d${token.slice(0, 11)}.sock`;
    const listener = Deno.listen({ transport: "unix", path });
    await Deno.chmod(path, 0o777);
    return new DriverChannel(path, token, listener);
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        if (this.#conn !== undefined) {
          this.intruded = true;
          conn.close();
          continue;
        }
        // Accepted before `close()` stopped the listener: nobody reads it.
        if (this.#closed) {
          conn.close();
          continue;
        }
        this.#conn = conn;
        this.#read(conn);
      }
    } catch {
      // the listener was closed
    }
  }

  async #read(conn: Deno.Conn): Promise<void> {
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(64 * 1024);
    let partial = "";
    try {
      for (;;) {
        const n = await conn.read(buffer);
        if (n === null) break;
        partial += decoder.decode(buffer.subarray(0, n), { stream: true });
        for (let nl = partial.indexOf("\n"); nl >= 0;) {
          // A line that ended within this read is held to the cap too.
          if (nl > MAX_DRIVER_LINE_BYTES) return this.#end();
          this.#push(parseLine(partial.slice(0, nl)));
          partial = partial.slice(nl + 1);
          nl = partial.indexOf("\n");
        }
        if (partial.length > MAX_DRIVER_LINE_BYTES) break;
      }
    } catch {
      // a reset connection ends the stream
    }
    this.#end();
  }

  #push(line: unknown): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting !== undefined) waiting(line);
    else this.#lines.push(line);
  }

  #end(): void {
    this.#ended = true;
    this.#push(null);
  }

  /**
   * The next message (a parsed JSON value; undefined for a line that is
   * not JSON), or null once the connection ended. Call one at a time.
   */
  next(): Promise<unknown> {
    if (this.#lines.length > 0) return Promise.resolve(this.#lines.shift());
    if (this.#ended) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiting = resolve);
  }

  /** Send one message; false when the connection is gone. */
  async send(message: unknown): Promise<boolean> {
    // Stryker disable next-line ConditionalExpression: without a connection the write below throws, and its catch gives false as well
    if (this.#conn === undefined) return false;
    const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
    try {
      for (let at = 0; at < bytes.length;) {
        at += await this.#conn.write(bytes.subarray(at));
      }
      return true;
    } catch {
      return false;
    }
  }

  /** Stop listening, drop the connection and remove the socket; never throws. */
  async close(): Promise<void> {
    this.#closed = true;
    try {
      this.#listener.close();
    } catch {
      // already closed
    }
    try {
      // Stryker disable next-line OptionalChaining: without a connection the call throws inside this try, whose catch ignores it as it ignores a connection already closed
      this.#conn?.close();
    } catch {
      // already closed
    }
    this.#end();
    await Deno.remove(this.path).catch(() => {});
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    // not JSON: a message pawl cannot read
  }
  return undefined;
}
