/**
 * What the call recorder and the replayer stream to pawl, parsed. Each
 * stream is one connection whose first line carries the run's token; a
 * connection without it (something else in the sandbox) is ignored, and a
 * line that is not of the stream's shape is dropped. The replayer writes
 * each outcome once: a second line for the same call (something in the
 * process writing on its socket) does not replace the first.
 *
 * @module
 */
import { z } from "zod";

/** A canonical form of a value (`call_forms.py`): JSON, compared as text. */
export type Form = unknown;

/** Lines of code a call ran: `[path, first line, last line]` of a function. */
export type RanRange = readonly [string, number, number];

/** One call the tests made into the code under test. */
export interface RecordedCall {
  /** Module and qualified name of the function. */
  fn: readonly [string, string];
  /** Where the function is defined (`[path, line]`), when in the code under test. */
  at: readonly [string, number] | null;
  /** The pickled arguments, base64 (pawl never unpickles them). */
  args: string;
  /** The arguments' canonical form before the call, to name the call. */
  shown: Form;
  /** `[result or raise, arguments after the call]`, canonical. */
  out: Form;
  /** The functions of the code under test the call ran. */
  ran: readonly RanRange[];
}

/** What the recorder streamed. */
export interface Recording {
  /** The import roots (tree-relative) the test run had, in path order. */
  roots: readonly string[];
  /** Functions of the code under test that ran while the tests were imported. */
  importRan: readonly RanRange[];
  /** The recorded calls, in order. */
  calls: readonly RecordedCall[];
  /** Whether the stream reached its end (the session finished). */
  complete: boolean;
}

/** What one replay interpreter streamed. */
export interface ReplayStream {
  /** Outcome of each call at its first making (pass 1, or "first" in `twice` mode), by index. */
  first: ReadonlyMap<number, Form>;
  /** `twice` mode: outcome of each call made again at once. */
  second: ReadonlyMap<number, Form>;
  /** `passes` mode: outcomes of later passes that differ from pass 1. */
  later: readonly { i: number; p: number; out: Form }[];
  /** `passes` mode: how many passes were made. */
  passes: number;
  /** Whether the stream reached its end. */
  complete: boolean;
}

const RAN = z.array(z.tuple([z.string(), z.number().int(), z.number().int()]));
const CALL = z.object({
  call: z.tuple([z.string(), z.string()]),
  at: z.tuple([z.string(), z.number().int()]).nullable(),
  args: z.string(),
  shown: z.unknown(),
  out: z.unknown(),
  ran: RAN,
}).strict();
const ROOTS = z.object({ roots: z.array(z.string()), ran: RAN }).strict();
const END = z.object({ end: z.literal(true), skipped: z.number() }).strict();
const FIRST = z.object({
  i: z.number().int(),
  p: z.number().int(),
  out: z.unknown(),
}).strict();
const TWICE = z.object({
  i: z.number().int(),
  first: z.unknown(),
  second: z.unknown(),
}).strict();
const PASSES = z.object({ passes: z.number().int() }).strict();
const DONE = z.object({ end: z.literal(true) }).strict();

/** The lines of the connection that opened with `token`, parsed; none without one. */
function tokenLines(
  connections: readonly (readonly string[])[],
  token: string,
): unknown[] {
  for (const lines of connections) {
    const [hello, ...rest] = lines.map(parseLine);
    if (
      hello !== null && typeof hello === "object" &&
      (hello as { hello?: unknown }).hello === token
    ) return rest;
  }
  // Stryker disable next-line ArrayDeclaration: a made-up line has none of the stream's shapes, and the readers skip such lines
  return [];
}

function parseLine(line: string): unknown {
  // Stryker disable BlockStatement: a catch without its return ends the function, which gives undefined all the same
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
}

/** The recorder's stream, from the lines of a run's connections. */
export function parseRecording(
  connections: readonly (readonly string[])[],
  token: string,
): Recording {
  const calls: RecordedCall[] = [];
  let roots: readonly string[] = [];
  let importRan: readonly RanRange[] = [];
  let complete = false;
  for (const value of tokenLines(connections, token)) {
    const call = CALL.safeParse(value);
    if (call.success) {
      const { call: fn, ...rest } = call.data;
      calls.push({ fn, ...rest });
      continue;
    }
    const start = ROOTS.safeParse(value);
    if (start.success) {
      roots = start.data.roots;
      importRan = start.data.ran;
    } else if (END.safeParse(value).success) complete = true;
  }
  return { roots, importRan, calls, complete };
}

/** A replay interpreter's stream, from the lines of its connections. */
export function parseReplayStream(
  connections: readonly (readonly string[])[],
  token: string,
): ReplayStream {
  const first = new Map<number, Form>();
  const second = new Map<number, Form>();
  const later: { i: number; p: number; out: Form }[] = [];
  let passes = 0;
  let complete = false;
  for (const value of tokenLines(connections, token)) {
    const made = FIRST.safeParse(value);
    if (made.success) {
      const { i, p, out } = made.data;
      if (p === 1) {
        if (!first.has(i)) first.set(i, out);
      } else if (!later.some((l) => l.i === i && l.p === p)) {
        later.push({ i, p, out });
      }
      continue;
    }
    const twice = TWICE.safeParse(value);
    if (twice.success) {
      if (!first.has(twice.data.i)) {
        first.set(twice.data.i, twice.data.first);
        second.set(twice.data.i, twice.data.second);
      }
      continue;
    }
    const counted = PASSES.safeParse(value);
    if (counted.success) passes = counted.data.passes;
    else if (DONE.safeParse(value).success) complete = true;
  }
  return { first, second, later, passes, complete };
}
