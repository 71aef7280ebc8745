/**
 * Failing inputs ("witnesses") reported by contract tests, and their hashes
 * as seed 002's ledger records them.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Find the witness in a failure message. Seed 002's harness raises
 * `AssertionError(f"seed={SEED} witness={witness!r}")`; Hypothesis prints
 * `Falsifying example: test(x=...)`. Returns the witness text (unquoted for
 * simple Python string literals), or the message's first line.
 *
 * @example
 * ```ts
 * import { extractWitness } from "./extract_witness.ts";
 * if (extractWitness("AssertionError: seed=7 witness='INV-00001-'") !== "INV-00001-") throw new Error();
 * ```
 */
export function extractWitness(message: string): string {
  const quoted = /witness=(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/.exec(
    message,
  );
  if (quoted !== null) return unescape(quoted[1] ?? quoted[2] ?? "");
  const bare = /witness=(\S+)/.exec(message);
  if (bare !== null) return bare[1] ?? "";
  const falsifying = /Falsifying example: (.*)/.exec(message);
  if (falsifying !== null) return (falsifying[1] ?? "").trim();
  return (message.split("\n")[0] ?? "").trim();
}

/** sha256 hex of a witness's UTF-8 bytes, as seed 002's `record()` writes it. */
export function witnessSha256(witness: string): string {
  return createHash("sha256").update(witness).digest("hex");
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_m, c: string) => {
    switch (c) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      default:
        return c;
    }
  });
}
