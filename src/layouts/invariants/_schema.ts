/**
 * Schema pieces the three seed 003 readers share.
 *
 * @module
 */
import {
  duplicateIdMessage,
  identityKey,
} from "../../contract/identity_key.ts";
import { z } from "zod";

/** A Python identifier (ASCII). */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A dotted Python module name. */
export const DOTTED_MODULE =
  /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** A non-blank id without surrounding spaces or control characters. */
export const idSchema = z.string().regex(
  /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u,
  { error: "must be a non-blank id without surrounding spaces" },
);

/** Report every repeated `id` of `entries` (at `[section, index, "id"]`). */
export function duplicateIds(
  entries: readonly { id?: string | null | undefined }[],
  section: string,
  ctx: z.RefinementCtx,
): void {
  const seen = new Map<string, string>();
  entries.forEach((entry, index) => {
    const id = entry.id;
    if (typeof id !== "string") return;
    const key = identityKey(id);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, id);
      return;
    }
    ctx.addIssue({
      code: "custom",
      path: [section, index, "id"],
      message: duplicateIdMessage(id, first, section),
      params: { detail: true },
    });
  });
}

/** Whether `text` is over `maxBytes` UTF-8 bytes (checked before parsing). */
export function oversize(text: string, maxBytes: number): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut: every UTF-16 unit is at least one UTF-8 byte, so the count below reaches the same answer
  if (text.length > maxBytes) return true;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4; // a surrogate pair: 4 bytes for two units
      i++;
    } else bytes += 3;
  }
  return bytes > maxBytes;
}
