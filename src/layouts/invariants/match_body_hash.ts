/**
 * Which body a freeze's `body_sha256` pins. The seed's runnable checker
 * hashes the whole test file's bytes; its text recommends slicing the test
 * function the way properties are sliced. pawl accepts either and says
 * which one matched.
 *
 * @module
 */
import type { Tree } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import {
  checkFixturePath,
  REPOSITORY_ROOT,
} from "../../contract/check_fixture_path.ts";
import type { FrozenTest } from "./read_freeze_list.ts";
import { sourceSha256 } from "./source_sha256.ts";

/** What a recorded body hash matched at head. */
export type BodyHashMatch =
  /** The sha256 of the sliced test function (the seed's recommendation). */
  | { kind: "function" }
  /** The sha256 of the whole test file's bytes (the seed's runnable checker). */
  | { kind: "file" }
  /** Neither; `reason` says why, with the hashes pawl computed. */
  | {
    kind: "none";
    reason: "not_sha256" | "file_unusable" | "mismatch";
    /** Completes "The frozen test file ..." for `file_unusable`. */
    detail?: string;
    /** The file's sha256, when the file could be hashed. */
    fileSha256?: string;
    /** The function's sha256, when the function exists. */
    functionSha256?: string;
    /** The function's `def` line, when it exists. */
    line?: number;
  };

/** What {@linkcode matchBodyHash} reads. */
export interface MatchBodyHashOptions {
  /** The head commit's tree. */
  headTree: Tree;
  /** Head analyses, keyed by path. */
  headModules: ReadonlyMap<string, PythonModule>;
  /** SHA-256 hex of head file bytes, keyed by path. */
  digests: ReadonlyMap<string, string>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Match a freeze's recorded `body_sha256` against the frozen test at head:
 * first the sliced function (`sourceSha256` of its source, newlines
 * normalised), then the whole file's bytes. A record that is not 64
 * lowercase hex digits (the seed's 32-digit examples are placeholders) can
 * never match. Throws `Error` when the file is a regular file but the
 * shell computed no digest for it: a bug in the caller.
 *
 * @example
 * ```ts
 * import { matchBodyHash } from "./match_body_hash.ts";
 * const file = "tests/test_a.py";
 * const match = matchBodyHash({ nodeId: `${file}::test_a`, file, qualname: "test_a" }, "1".repeat(64), {
 *   headTree: new Map([[file, { path: file, kind: "file" as const, oid: "1", size: 9 }]]),
 *   headModules: new Map(),
 *   digests: new Map([[file, "1".repeat(64)]]),
 * });
 * if (match.kind !== "file") throw new Error();
 * ```
 */
export function matchBodyHash(
  test: FrozenTest,
  recorded: string,
  options: MatchBodyHashOptions,
): BodyHashMatch {
  const status = checkFixturePath(test.file, options.headTree, {
    root: REPOSITORY_ROOT,
  });
  if (status.status !== "ok") {
    return { kind: "none", reason: "file_unusable", detail: status.reason };
  }
  const fileSha256 = options.digests.get(test.file)?.toLowerCase();
  if (fileSha256 === undefined) {
    throw new Error(
      `Cannot check frozen test ${
        JSON.stringify(test.nodeId)
      }: no digest was computed for its file`,
    );
  }
  const fn = options.headModules.get(test.file)?.functions.get(test.qualname);
  const functionSha256 = fn === undefined ? undefined : sourceSha256(fn.source);
  // Stryker disable next-line ConditionalExpression: both hashes compared with are sha256 output in lowercase hex, so a recorded value equal to either passes this test anyway
  if (SHA256.test(recorded)) {
    if (recorded === functionSha256) return { kind: "function" };
    if (recorded === fileSha256) return { kind: "file" };
  }
  const out: BodyHashMatch = {
    kind: "none",
    reason: SHA256.test(recorded) ? "mismatch" : "not_sha256",
    fileSha256,
  };
  // Stryker disable next-line ConditionalExpression,LogicalOperator: functionSha256 is defined exactly when fn is, so either half alone decides the same
  if (fn !== undefined && functionSha256 !== undefined) {
    out.functionSha256 = functionSha256;
    out.line = fn.line;
  }
  return out;
}
