/**
 * `pawl verify`: check a signed verdict (a DSSE envelope) against a public
 * key, and print what it says.
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { parseCommandArgs } from "./parse_command_args.ts";
import { UsageError } from "./parse_command_args.ts";
import {
  type StatementKind,
  verifyEnvelope,
  type VerifyResult,
} from "../sign/verify_envelope.ts";
import type { CliIo } from "./cli_io.ts";
import { HELP_OPTION } from "./_shared_options.ts";

/**
 * Exit codes of `pawl verify`: 0 the signature verifies (and the head
 * matches), 1 it does not or the files are not a signed pawl verdict and a
 * key pawl can use, 2 a file could not be read or the command line is
 * wrong (main.ts maps the thrown error to 2).
 */
export const VERIFY_EXIT = { valid: 0, invalid: 1, unreadable: 2 } as const;

/** The options of `verify`. */
export const VERIFY_OPTIONS = {
  key: {
    type: "string",
    doc: { value: "PUB", text: "the public key to trust" },
  },
  envelope: {
    type: "string",
    doc: { value: "FILE", text: "the signed verdict" },
  },
  head: {
    type: "string",
    doc: {
      value: "SHA",
      text:
        "also require the verdict to be about this head commit\n(the full commit id)",
    },
  },
  json: {
    type: "boolean",
    default: false,
    doc: { text: "print the result as JSON on stdout" },
  },
  ...HELP_OPTION,
} as const satisfies DocumentedOptions;

/** Usage text for `verify`. */
export const VERIFY_USAGE = `Usage:
  pawl verify --key PUB --envelope FILE [--head SHA] [--json]

Checks the signature of a signed verdict (the DSSE envelope "pawl check
--out-signed" writes, or the test-result statement of "--out-test-result")
with an Ed25519 public key (SPKI PEM, the KEY.pub of "pawl keygen"), before
reading anything inside it, then prints which of the two it is, the
decision, head, repository, clock and number of findings. A statement pawl
does not sign is not valid.

Options:
${optionsHelp(VERIFY_OPTIONS)}
Exit codes: 0 valid signature (and matching --head), 1 not valid: bad
signature, wrong key, tampered or malformed envelope, not exactly one
signature, other head; 2 a file could not be read or bad arguments.
`;

/** How the report names each kind of statement pawl signs. */
const KIND_NAMES: Readonly<Record<StatementKind, string>> = {
  verdict: "verdict",
  "test-result": "test result (in-toto test-result statement)",
};

/** Larger than any envelope pawl writes; the rest is not read. */
const MAX_ENVELOPE_BYTES = 64 * 1024 * 1024;
/** Larger than any PEM public key. */
const MAX_KEY_BYTES = 64 * 1024;

const FULL_COMMIT = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/** Run `pawl verify`; returns the exit code ({@linkcode VERIFY_EXIT}). */
export async function verifyCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const v = parseCommandArgs(args, VERIFY_OPTIONS);
  if (v.help) {
    io.out(VERIFY_USAGE);
    return VERIFY_EXIT.valid;
  }
  for (const option of ["key", "envelope"] as const) {
    if (v[option] === undefined || v[option] === "") {
      throw new UsageError(
        `Missing required option "--${option}"`,
      );
    }
  }
  const keyPath = v.key!;
  const envelopePath = v.envelope!;
  if (v.head !== undefined && !FULL_COMMIT.test(v.head)) {
    throw new UsageError(
      `Cannot verify against head ${
        JSON.stringify(v.head)
      }: "--head" takes a full commit id (40 or 64 hex digits)`,
    );
  }
  const keyFile = await readBounded(keyPath, MAX_KEY_BYTES, "public key");
  const envelopeFile = await readBounded(
    envelopePath,
    MAX_ENVELOPE_BYTES,
    "envelope",
  );
  const result = await judge(keyFile, envelopeFile, {
    keyPath,
    envelopePath,
    ...(v.head === undefined ? {} : { head: v.head }),
  });
  if (v.json) {
    io.out(
      JSON.stringify(
        result.valid
          ? { valid: true, keyid: result.keyid, ...result.verdict }
          : { valid: false, problem: result.problem, message: result.message },
        null,
        2,
      ) + "\n",
    );
  } else if (result.valid) {
    const r = result.verdict;
    io.out(
      `VALID  signed ${KIND_NAMES[r.kind]}: ${r.decision.toUpperCase()}\n` +
        `  keyid     ${result.keyid}\n` +
        `  head      ${r.head}\n` +
        `  base      ${printable(r.base)}\n` +
        `  repo      ${printable(r.repo)}\n` +
        `  now       ${printable(r.now)}\n` +
        `  findings  ${r.findings} (${r.blocking} blocking)\n`,
    );
  }
  if (!result.valid) {
    io.err(`pawl verify: INVALID: ${result.message}\n`);
    return VERIFY_EXIT.invalid;
  }
  return VERIFY_EXIT.valid;
}

interface ReadFile {
  bytes: Uint8Array;
  /** The file is larger than the limit; `bytes` holds the first part. */
  tooLarge: boolean;
}

/** Read at most `limit` bytes of `path`; a failure to read is a UsageError (exit 2). */
async function readBounded(
  path: string,
  limit: number,
  what: string,
): Promise<ReadFile> {
  try {
    using file = await Deno.open(path, { read: true });
    const info = await file.stat();
    if (!info.isFile) throw new Error("not a regular file");
    const buffer = new Uint8Array(limit + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = await file.read(buffer.subarray(length));
      if (n === null) break;
      length += n;
    }
    return {
      bytes: buffer.slice(0, Math.min(length, limit)),
      tooLarge: length > limit,
    };
  } catch (error) {
    throw new UsageError(
      `Cannot read ${what} "${path}": ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

async function judge(
  key: ReadFile,
  envelope: ReadFile,
  options: { keyPath: string; envelopePath: string; head?: string },
): Promise<VerifyResult> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const keyName = `Cannot read public key "${options.keyPath}"`;
  if (key.tooLarge) {
    return invalid("key", `${keyName}: larger than ${MAX_KEY_BYTES} bytes`);
  }
  let keyText: string;
  try {
    keyText = decoder.decode(key.bytes);
  } catch {
    return invalid("key", `${keyName}: not PEM: not UTF-8 text`);
  }
  const envelopeName = `Envelope "${options.envelopePath}"`;
  if (envelope.tooLarge) {
    return invalid(
      "envelope",
      `${envelopeName} is larger than ${MAX_ENVELOPE_BYTES} bytes`,
    );
  }
  let envelopeText: string;
  try {
    envelopeText = decoder.decode(envelope.bytes);
  } catch {
    return invalid("envelope", `${envelopeName} is not UTF-8 text`);
  }
  return await verifyEnvelope(envelopeText, keyText, {
    envelopeName: options.envelopePath,
    keyName: options.keyPath,
    ...(options.head === undefined ? {} : { head: options.head }),
  });
}

function invalid(
  problem: "key" | "envelope",
  message: string,
): VerifyResult {
  return { valid: false, problem, message };
}

/** Signed text shown as is, unless it holds control characters. */
function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u001f\u007f-\u009f]/.test(text)
    ? JSON.stringify(text)
    : text;
}
