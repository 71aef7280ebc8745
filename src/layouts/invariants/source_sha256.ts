/**
 * Seed 003's source hash: `sha256(ast.get_source_segment(text, node))` over
 * the UTF-8 encoding, where `text` was read with Python's universal newlines.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * Universal newlines, as Python's `Path.read_text()` applies them: `\r\n`
 * and a lone `\r` become `\n`.
 *
 * @example
 * ```ts
 * import { normalizeNewlines } from "./source_sha256.ts";
 * if (normalizeNewlines("a\r\nb\rc\n") !== "a\nb\nc\n") throw new Error();
 * ```
 */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * The seed's hash of a function's source: `source` is the function's
 * `ast.get_source_segment` text (`PythonFunction.source`, from `def` to the
 * end of its last statement, decorators excluded), taken from the raw file.
 * Newlines are normalised first, so a CRLF file hashes as the seed's
 * checker hashes it.
 *
 * @example
 * ```ts
 * import { sourceSha256 } from "./source_sha256.ts";
 * const lf = sourceSha256("def test_a():\n    assert f(1) == 2");
 * if (lf !== sourceSha256("def test_a():\r\n    assert f(1) == 2")) throw new Error();
 * ```
 */
export function sourceSha256(source: string): string {
  // Stryker disable next-line StringLiteral: a string is hashed as UTF-8 when no encoding is named
  return createHash("sha256").update(normalizeNewlines(source), "utf8")
    .digest("hex");
}
