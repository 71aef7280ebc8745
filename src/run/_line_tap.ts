/**
 * The lines of a byte stream as they arrive, for a listener that may come
 * late: chunks fed before it are kept (the same arrays the reader keeps, no
 * copy) and handed over when it comes.
 *
 * @module
 */

/** Longest line handed to the listener, in bytes; longer ones are skipped. */
export const MAX_TAPPED_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits fed chunks into lines at newline bytes (a newline byte is never
 * part of a multi-byte UTF-8 character) and gives each non-empty line to
 * the listener. A listener that throws is not told again.
 */
export class LineTap {
  #pending: Uint8Array[] = [];
  #listener: ((line: string) => void) | undefined;
  #line: Uint8Array[] = [];
  #lineBytes = 0;
  #decoder = new TextDecoder();
  #stopped = false;

  /** Bytes read from the stream, in order. */
  feed(chunk: Uint8Array): void {
    // Stryker disable next-line ConditionalExpression: a stopped tap has no listener and takes none, so a chunk kept after it stopped is never told; only memory differs
    if (this.#stopped) return;
    if (this.#listener === undefined) this.#pending.push(chunk);
    else this.#split(chunk);
  }

  /** From now on, and for what was fed before, tell `listener` each line. */
  listen(listener: (line: string) => void): void {
    // Stryker disable next-line ConditionalExpression: a stopped tap keeps no chunk and feeds none, so a listener set after it stopped is never told
    if (this.#stopped) return;
    this.#listener = listener;
    for (const chunk of this.#pending.splice(0)) this.#split(chunk);
  }

  /** The stream ended: drop what was kept, tell nothing more. */
  close(): void {
    this.#stopped = true;
    this.#listener = undefined;
    // Stryker disable ArrayDeclaration: a stopped tap reads neither again; emptying them only frees memory
    this.#pending = [];
    this.#line = [];
    // Stryker restore ArrayDeclaration
  }

  #split(chunk: Uint8Array): void {
    let start = 0;
    for (
      let end = chunk.indexOf(NEWLINE);
      end !== -1;
      end = chunk.indexOf(NEWLINE, start)
    ) {
      this.#keep(chunk.subarray(start, end));
      this.#emit();
      start = end + 1;
    }
    this.#keep(chunk.subarray(start));
  }

  #keep(part: Uint8Array): void {
    // Stryker disable next-line ConditionalExpression: an empty part adds no byte to the line it joins
    if (part.length === 0) return;
    this.#lineBytes += part.length;
    // Stryker disable next-line ConditionalExpression: a line past the limit is never told, so keeping its parts only costs memory
    if (this.#lineBytes <= MAX_TAPPED_LINE_BYTES) this.#line.push(part);
  }

  #emit(): void {
    const parts = this.#line;
    const bytes = this.#lineBytes;
    this.#line = [];
    this.#lineBytes = 0;
    if (bytes === 0 || bytes > MAX_TAPPED_LINE_BYTES) return;
    // Stryker disable next-line ConditionalExpression: one part joined is a copy of the same bytes
    const whole = parts.length === 1 ? parts[0]! : joined(parts, bytes);
    try {
      // Stryker disable next-line OptionalChaining: after a listener threw, the lines left in its chunk call none, and the TypeError is caught here the same
      this.#listener?.(this.#decoder.decode(whole));
    } catch {
      this.#stopped = true;
      this.#listener = undefined;
    }
  }
}

function joined(parts: readonly Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
