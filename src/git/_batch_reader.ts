/**
 * A buffered reader for `git cat-file --batch` output: short header lines
 * and length-prefixed bodies. Bodies are handed out in slices of one reused
 * buffer (bring-your-own-buffer reads), so hashing hundreds of megabytes
 * allocates almost nothing.
 *
 * @module
 */
import { GitError } from "./git_error.ts";

/** Header lines longer than this mean the stream is not what we expect. */
const MAX_LINE = 64 * 1024;

/** Parser for one byte stream; not safe for concurrent use. */
export class BatchReader {
  #reader: ReadableStreamBYOBReader;
  #bytes: Uint8Array<ArrayBuffer>;
  #pos = 0;
  #end = 0;
  #eof = false;
  #decoder = new TextDecoder();

  /** Wrap a byte stream (e.g. a child's stdout) with a `bufferSize` buffer. */
  constructor(stream: ReadableStream<Uint8Array>, bufferSize = 1 << 20) {
    this.#reader = stream.getReader({ mode: "byob" });
    this.#bytes = new Uint8Array(bufferSize);
  }

  /** Read more bytes after the buffered ones; false at end of stream. */
  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    if (this.#pos === this.#end) {
      this.#pos = 0;
      this.#end = 0;
    } else if (this.#end === this.#bytes.length) {
      if (this.#pos > 0) {
        this.#bytes.copyWithin(0, this.#pos, this.#end);
        this.#end -= this.#pos;
        this.#pos = 0;
      } else {
        const grown = new Uint8Array(this.#bytes.length * 2);
        grown.set(this.#bytes);
        this.#bytes = grown;
      }
    }
    const view = new Uint8Array(
      this.#bytes.buffer,
      this.#end,
      this.#bytes.length - this.#end,
    );
    const { value, done } = await this.#reader.read(view);
    if (value === undefined) {
      // Cancelled: the buffer is gone; nothing more will be read.
      this.#eof = true;
      this.#bytes = new Uint8Array(0);
      this.#pos = 0;
      this.#end = 0;
      return false;
    }
    this.#bytes = new Uint8Array(value.buffer as ArrayBuffer);
    if (done) {
      this.#eof = true;
      return false;
    }
    this.#end += value.length;
    return true;
  }

  /** The next `\n`-terminated line (without it), or null at a clean end. */
  async readLine(): Promise<string | null> {
    let scanned = 0;
    while (true) {
      const start = this.#pos + scanned;
      const index = this.#bytes.subarray(start, this.#end).indexOf(10);
      if (index >= 0) {
        const lineEnd = start + index;
        const line = this.#decoder.decode(
          this.#bytes.subarray(this.#pos, lineEnd),
        );
        this.#pos = lineEnd + 1;
        return line;
      }
      scanned = this.#end - this.#pos;
      if (scanned > MAX_LINE) {
        throw new GitError("Cannot parse git output: header line is too long");
      }
      if (!(await this.#fill())) {
        if (this.#end === this.#pos) return null;
        throw new GitError(
          "Cannot parse git output: stream ended inside a line",
        );
      }
    }
  }

  /**
   * Consume exactly `size` bytes, passing each slice to `onChunk`. Slices
   * are only valid during the call (the buffer is reused).
   */
  async readBody(
    size: number,
    onChunk?: (chunk: Uint8Array) => void,
  ): Promise<void> {
    let left = size;
    while (left > 0) {
      if (this.#pos === this.#end && !(await this.#fill())) {
        throw new GitError(
          `Cannot parse git output: stream ended with ${left} of ${size} bytes unread`,
        );
      }
      const take = Math.min(left, this.#end - this.#pos);
      onChunk?.(this.#bytes.subarray(this.#pos, this.#pos + take));
      this.#pos += take;
      left -= take;
    }
  }

  /** Consume one `\n` (the separator after a body). */
  async readNewline(): Promise<void> {
    if (this.#pos === this.#end && !(await this.#fill())) {
      throw new GitError(
        "Cannot parse git output: stream ended before a newline",
      );
    }
    if (this.#bytes[this.#pos] !== 10) {
      throw new GitError(
        "Cannot parse git output: expected a newline after an object",
      );
    }
    this.#pos += 1;
  }

  /** Stop reading and release the underlying stream. */
  async cancel(): Promise<void> {
    this.#eof = true;
    try {
      await this.#reader.cancel();
    } catch {
      // Already closed or errored: nothing left to release.
    }
  }
}
