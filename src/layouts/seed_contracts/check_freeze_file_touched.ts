/**
 * "flake_freeze.yml — human-owned; agent patches that touch this file fail
 * CI." Any difference between the base and head copies is a rejection,
 * however harmless it looks (a reformat, a comment, a mode bit).
 *
 * @module
 */
import { type Finding, finding } from "../../core/finding.ts";

/** What is known about the freeze file in one commit. */
export interface FreezeFileState {
  /** The tree entry's kind (`file`, `executable`, `symlink`, ...). */
  kind: string;
  /** The blob's object id, when known. */
  oid?: string | undefined;
  /** The blob's bytes, when read. */
  bytes?: Uint8Array | undefined;
}

/** Options for {@linkcode checkFreezeFileTouched}. */
export interface CheckFreezeFileTouchedOptions {
  /** Repository-relative path of the freeze file. */
  path: string;
  /** The file at base, `undefined` when the base has none. */
  base: FreezeFileState | undefined;
  /** The file at head, `undefined` when the head has none. */
  head: FreezeFileState | undefined;
  /** Whether git's base → head diff lists the path (any status). */
  listed?: boolean;
}

/**
 * How the pull request changed the freeze file, or `undefined` when it did
 * not: `added`, `deleted`, `kind changed` (e.g. a file became a symlink or
 * gained the executable bit) or `modified` (other object id or other bytes).
 * A path git lists as changed counts as `modified` even when the states
 * given look the same.
 *
 * @example
 * ```ts
 * import { freezeFileChange } from "./check_freeze_file_touched.ts";
 * const base = { kind: "file", bytes: new TextEncoder().encode("freezes: []\n") };
 * const head = { kind: "file", bytes: new TextEncoder().encode("freezes:  []\n") };
 * if (freezeFileChange({ path: "flake_freeze.yml", base, head }) !== "modified") throw new Error();
 * ```
 */
export function freezeFileChange(
  options: CheckFreezeFileTouchedOptions,
): "added" | "deleted" | "kind changed" | "modified" | undefined {
  const { base, head } = options;
  if (base === undefined && head === undefined) {
    return options.listed === true ? "modified" : undefined;
  }
  if (base === undefined) return "added";
  if (head === undefined) return "deleted";
  if (base.kind !== head.kind) return "kind changed";
  if (
    base.oid !== undefined && head.oid !== undefined && base.oid !== head.oid
  ) {
    return "modified";
  }
  if (
    base.bytes !== undefined && head.bytes !== undefined &&
    !sameBytes(base.bytes, head.bytes)
  ) {
    return "modified";
  }
  return options.listed === true ? "modified" : undefined;
}

/**
 * `freeze.file_touched` when {@linkcode freezeFileChange} finds any change.
 *
 * @example
 * ```ts
 * import { checkFreezeFileTouched } from "./check_freeze_file_touched.ts";
 * const findings = checkFreezeFileTouched({
 *   path: "flake_freeze.yml", base: undefined, head: { kind: "file" },
 * });
 * if (findings[0]?.rule !== "freeze.file_touched") throw new Error();
 * ```
 */
export function checkFreezeFileTouched(
  options: CheckFreezeFileTouchedOptions,
): Finding[] {
  const change = freezeFileChange(options);
  if (change === undefined) return [];
  const { path } = options;
  return [finding(
    "freeze.file_touched",
    `The pull request ${
      change === "kind changed" ? "changed the file type of" : change
    } ${
      JSON.stringify(path)
    }: the freeze file is human-owned and an agent patch must not touch it; revert the change`,
    { path },
  )];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // Stryker disable next-line EqualityOperator: the lengths are equal here, so one index past the end reads undefined on both sides
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
