/**
 * Bounded bookkeeping for a sandboxed command's combined output.
 *
 * @module
 */

/** Bytes kept at each end of the output. */
export const OUTPUT_KEEP_BYTES = 64 * 1024;

/**
 * Counts output bytes against a cap and keeps only the first and the last
 * `keepBytes` of what was within the cap, so memory stays bounded however
 * much a command prints.
 */
export class OutputCollector {
  #limit: number;
  #head: Uint8Array;
  #headLength = 0;
  #tail: Uint8Array;
  #tailStart = 0;
  #tailLength = 0;
  #seen = 0;
  #accepted = 0;

  /** Collect up to `limit` bytes, keeping `keepBytes` at each end. */
  constructor(limit: number, keepBytes: number = OUTPUT_KEEP_BYTES) {
    this.#limit = limit;
    this.#head = new Uint8Array(keepBytes);
    this.#tail = new Uint8Array(keepBytes);
  }

  /** Account for `chunk`; returns the part of it within the cap (maybe empty). */
  add(chunk: Uint8Array): Uint8Array {
    this.#seen += chunk.length;
    const room = Math.max(0, this.#limit - this.#accepted);
    const accepted = chunk.subarray(0, Math.min(room, chunk.length));
    this.#accepted += accepted.length;
    this.#pushHead(accepted);
    this.#pushTail(accepted);
    return accepted;
  }

  /** True once more than `limit` bytes were seen. */
  get exceeded(): boolean {
    return this.#seen > this.#limit;
  }

  /** Every byte seen, within the cap or not. */
  get seenBytes(): number {
    return this.#seen;
  }

  /** The first bytes within the cap. */
  headBytes(): Uint8Array {
    return this.#head.slice(0, this.#headLength);
  }

  /** The last bytes within the cap, oldest first. */
  tailBytes(): Uint8Array {
    const size = this.#tail.length;
    const out = new Uint8Array(this.#tailLength);
    const first = Math.min(this.#tailLength, size - this.#tailStart);
    out.set(this.#tail.subarray(this.#tailStart, this.#tailStart + first));
    out.set(this.#tail.subarray(0, this.#tailLength - first), first);
    return out;
  }

  #pushHead(bytes: Uint8Array): void {
    const n = Math.min(bytes.length, this.#head.length - this.#headLength);
    this.#head.set(bytes.subarray(0, n), this.#headLength);
    this.#headLength += n;
  }

  /** Append to the ring of the last bytes: at most two writes, one each side of its end. */
  #pushTail(bytes: Uint8Array): void {
    const size = this.#tail.length;
    // Of this chunk, only its last `size` bytes can stay.
    let rest = bytes.subarray(Math.max(0, bytes.length - size));
    while (rest.length > 0) {
      const end = (this.#tailStart + this.#tailLength) % size;
      const n = Math.min(rest.length, size - end);
      this.#tail.set(rest.subarray(0, n), end);
      rest = rest.subarray(n);
      // What no longer fits is the oldest: the ring's start moves past it.
      const overflow = Math.max(0, this.#tailLength + n - size);
      this.#tailStart = (this.#tailStart + overflow) % size;
      this.#tailLength += n - overflow;
    }
  }
}
