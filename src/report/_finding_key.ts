/**
 * What the report formats share about a finding's identity: a
 * repository-relative path a code view can open, and a fingerprint that
 * stays the same while the same problem stays.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Finding } from "../core/finding.ts";

/** The fingerprint recipe's name; the suffix changes whenever the recipe does. */
export const FINGERPRINT_KEY = "pawl/v1";

/**
 * sha256 over the rule, the path as the finding gives it, and the message
 * with its volatile parts (digests, numbers, whitespace runs) normalised, so
 * the same problem keeps its fingerprint when lines move, counts change or
 * a digest is rewritten again.
 */
export function findingFingerprint(f: Finding): string {
  return createHash("sha256")
    .update(
      `${FINGERPRINT_KEY}\0${f.rule}\0${f.path ?? ""}\0${
        stableMessage(f.message)
      }`,
      "utf8",
    )
    .digest("hex");
}

/** The message without the parts that change between runs of the same problem. */
function stableMessage(message: string): string {
  return message
    .replace(/\b0x[0-9a-f]+\b/gi, "<hex>")
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/gi, "<hex>")
    .replace(/\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * `path` as a clean repository-relative path (a leading `./` dropped), or
 * undefined when it is absolute, empty, has `.`/`..`/empty segments, a
 * backslash or a control character.
 */
export function repositoryPath(path: string): string | undefined {
  const clean = path.replace(/^\.\//, "");
  if (clean === "" || clean.startsWith("/") || clean.includes("\\")) {
    return undefined;
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(clean)) return undefined;
  const segments = clean.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) {
    return undefined;
  }
  return clean;
}
