/**
 * The CLI's only contact with the outside: output streams, the environment
 * read once at start-up, and whether stderr is a terminal.
 *
 * @module
 */

/** What a command may touch. */
export interface CliIo {
  /** Write to stdout. */
  out(text: string): void;
  /** Write to stderr. */
  err(text: string): void;
  /** The environment, read once in main.ts. */
  env: Readonly<Record<string, string>>;
  /** Whether stderr is an interactive terminal (progress, colour). */
  terminal: boolean;
  /** The width of stdout when it is a terminal, for tables. */
  columns?: number | undefined;
}

/** Build the real IO from the process. */
export function processIo(): CliIo {
  const encoder = new TextEncoder();
  return {
    out: (text) => writeAll(Deno.stdout, encoder.encode(text)),
    err: (text) => writeAll(Deno.stderr, encoder.encode(text)),
    env: Deno.env.toObject(),
    terminal: Deno.stderr.isTerminal(),
    columns: Deno.stdout.isTerminal() ? Deno.consoleSize().columns : undefined,
  };
}

function writeAll(
  stream: { writeSync(p: Uint8Array): number },
  bytes: Uint8Array,
): void {
  let offset = 0;
  while (offset < bytes.length) {
    offset += stream.writeSync(bytes.subarray(offset));
  }
}
