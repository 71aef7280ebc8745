/**
 * Streaming SHA-256 of many blobs over a few `git cat-file --batch`
 * children. Each child is fed a small window of requests from a shared
 * queue (so a huge blob on one child does not stall the rest), and bodies
 * go straight from the pipe buffer into the hash, never whole in memory.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { BatchReader } from "./_batch_reader.ts";
import { assertOid, readObjectHeader } from "./_cat_file_process.ts";
import {
  collectStderr,
  describe,
  type GitProcessOptions,
  spawnGit,
} from "./_git_process.ts";
import { GitError } from "./git_error.ts";

/** Requests kept in flight per child. */
const WINDOW = 16;

/** Options for {@linkcode sha256BlobsWithGit}. */
export interface Sha256BlobsOptions extends GitProcessOptions {
  /** Number of `git cat-file` children (at most one per oid). */
  workers: number;
}

/** Hex SHA-256 of each blob's content, keyed by oid. */
export async function sha256BlobsWithGit(
  oids: readonly string[],
  options: Sha256BlobsOptions,
): Promise<Map<string, string>> {
  const unique = [...new Set(oids)];
  for (const oid of unique) assertOid(oid, "hash blob");
  const digests = new Map<string, string>();
  if (unique.length === 0) return digests;

  const children: Deno.ChildProcess[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    for (const child of children) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
    }
  };

  const count = Math.max(1, Math.min(options.workers, unique.length));
  const runs: Promise<void>[] = [];
  for (let i = 0; i < count && failure === undefined; i++) {
    let child: Deno.ChildProcess;
    try {
      child = spawnGit(["cat-file", "--batch"], options, { stdin: "piped" });
    } catch (error) {
      // Children already started see the failure, stop and are awaited below.
      fail(error);
      break;
    }
    children.push(child);
    runs.push(hashWith(child));
  }
  await Promise.all(runs);
  if (failure !== undefined) throw failure.error;
  return digests;

  async function hashWith(child: Deno.ChildProcess): Promise<void> {
    const stderr = collectStderr(child.stderr);
    const writer = child.stdin.getWriter();
    const reader = new BatchReader(child.stdout);
    const encoder = new TextEncoder();
    const pending: string[] = [];
    let writing: Promise<void> = Promise.resolve();
    let stdinClosed = false;

    const pump = () => {
      let lines = "";
      while (
        failure === undefined && pending.length < WINDOW && next < unique.length
      ) {
        const oid = unique[next++] as string;
        pending.push(oid);
        lines += `${oid}\n`;
      }
      if (lines !== "") {
        writing = writing.then(() => writer.write(encoder.encode(lines)));
      }
      if (!stdinClosed && (next >= unique.length || failure !== undefined)) {
        stdinClosed = true;
        writing = writing.then(() => writer.close());
      }
      // A write error surfaces as a broken read; keep the chain from rejecting unobserved.
      writing = writing.catch(() => undefined);
    };

    try {
      pump();
      while (failure === undefined && pending.length > 0) {
        const oid = pending.shift() as string;
        const header = await readObjectHeader(reader, oid, "hash blob");
        if (header === null) {
          throw new GitError(`Cannot hash blob "${oid}": object not found`);
        }
        if (header.type !== "blob") {
          throw new GitError(
            `Cannot hash blob "${oid}": object is a ${header.type}`,
          );
        }
        const hash = createHash("sha256");
        await reader.readBody(header.size, (chunk) => hash.update(chunk));
        await reader.readNewline();
        digests.set(oid, hash.digest("hex"));
        pump();
      }
    } catch (error) {
      fail(
        error instanceof GitError ? error : new GitError(
          `Cannot hash blobs: git cat-file failed: ${describe(error)}`,
          {
            cause: error,
          },
        ),
      );
    } finally {
      if (!stdinClosed) {
        stdinClosed = true;
        writing = writing.then(() => writer.close()).catch(() => undefined);
      }
      await writing;
      await reader.cancel();
      await Promise.all([child.status, stderr]);
    }
  }
}
