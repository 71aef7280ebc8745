/**
 * Pure parsers for git's NUL-terminated (`-z`) listings. Paths are raw
 * bytes in git; pawl only accepts paths that are valid UTF-8, because a
 * lossy decoding could make two different files look like one, and only
 * paths git would check out.
 *
 * @module
 */
import type { ChangedPath, ChangeStatus, EntryKind, TreeEntry } from "./git.ts";

/** Tree entry kind for each git mode `ls-tree` prints. */
const KINDS: Readonly<Record<string, EntryKind>> = {
  "100644": "file",
  "100755": "executable",
  "120000": "symlink",
  "040000": "tree",
  "160000": "submodule",
};

/** A listing could not be parsed; the message names the problem. */
export class GitOutputError extends SyntaxError {
  /** Create the error with a sentence-case message. */
  constructor(message: string) {
    super(message);
    this.name = "GitOutputError";
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lossyUtf8 = new TextDecoder("utf-8");

/**
 * Decode a path, refusing bytes that are not UTF-8 and segments git itself
 * refuses to check out (`..`, `.git`, empty), which only crafted trees hold.
 */
function decodePath(bytes: Uint8Array): string {
  let path: string;
  try {
    path = strictUtf8.decode(bytes);
  } catch {
    throw new GitOutputError(
      `path ${JSON.stringify(lossyUtf8.decode(bytes))} is not valid UTF-8`,
    );
  }
  const bad = path.split("/").find((segment) =>
    segment === "" || segment === "." || segment === ".." ||
    segment.toLowerCase() === ".git"
  );
  if (bad !== undefined) {
    throw new GitOutputError(
      `path ${JSON.stringify(path)} has a forbidden segment ${
        JSON.stringify(bad)
      }`,
    );
  }
  return path;
}

/** Split `-z` output into records (the trailing NUL ends the last one). */
function splitNul(bytes: Uint8Array): Uint8Array[] {
  const records: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0, start);
    if (end < 0) end = bytes.length;
    records.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return records;
}

/**
 * Parse `git ls-tree -r -t -z -l` output: records of
 * `<mode> <type> <oid> <size>\t<path>`, size `-` for trees and submodules.
 */
export function parseLsTree(bytes: Uint8Array): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  for (const record of splitNul(bytes)) {
    const tab = record.indexOf(9);
    if (tab < 0) throw new GitOutputError("tree record has no tab");
    const header = lossyUtf8.decode(record.subarray(0, tab));
    const path = decodePath(record.subarray(tab + 1));
    const match =
      /^(\d{6}) (blob|tree|commit) ([0-9a-f]{40}|[0-9a-f]{64}) +(\d+|-)$/.exec(
        header,
      );
    if (match === null) {
      throw new GitOutputError(
        `unexpected tree record ${JSON.stringify(header)}`,
      );
    }
    const [, mode = "", , oid = "", sizeText = ""] = match;
    const kind = KINDS[mode];
    if (kind === undefined) {
      throw new GitOutputError(
        `path ${JSON.stringify(path)} has unsupported mode "${mode}"`,
      );
    }
    if (entries.has(path)) {
      throw new GitOutputError(`path ${JSON.stringify(path)} appears twice`);
    }
    entries.set(path, {
      path,
      kind,
      oid,
      size: sizeText === "-" ? 0 : Number(sizeText),
    });
  }
  return entries;
}

const STATUSES: ReadonlySet<string> = new Set<ChangeStatus>([
  "A",
  "M",
  "D",
  "T",
]);

/** Parse `git diff-tree -r -z --name-status --no-renames` output. */
export function parseNameStatus(bytes: Uint8Array): ChangedPath[] {
  const records = splitNul(bytes);
  if (records.length % 2 !== 0) {
    throw new GitOutputError("status record has no path");
  }
  const changes: ChangedPath[] = [];
  for (let i = 0; i < records.length; i += 2) {
    const status = lossyUtf8.decode(records[i]);
    if (!STATUSES.has(status)) {
      throw new GitOutputError(
        `unexpected change status ${JSON.stringify(status)}`,
      );
    }
    changes.push({
      status: status as ChangeStatus,
      path: decodePath(records[i + 1] as Uint8Array),
    });
  }
  return changes;
}
