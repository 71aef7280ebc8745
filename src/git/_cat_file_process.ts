/**
 * One `git cat-file --batch` child and the request/response protocol:
 * write `<oid>\n`, read `<oid> <type> <size>\n<content>\n` or
 * `<oid> missing\n`.
 *
 * @module
 */
import { BatchReader } from "./_batch_reader.ts";
import {
  collectStderr,
  describe,
  type GitProcessOptions,
  quote,
  spawnGit,
} from "./_git_process.ts";
import { BlobTooLargeError, GitError } from "./git_error.ts";

/** A full object id: SHA-1 (40 hex digits) or SHA-256 (64). */
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Throw unless `oid` is a full lowercase hexadecimal object id. */
export function assertOid(oid: string, action: string): void {
  if (!OID.test(oid)) {
    throw new GitError(
      `Cannot ${action} ${quote(oid)}: not a full hexadecimal object id`,
    );
  }
}

/** Type and size of an object, from its batch header. */
export interface ObjectHeader {
  /** `blob`, `tree`, `commit` or `tag`. */
  type: string;
  /** Content size in bytes. */
  size: number;
}

/**
 * Read the header answering a request for `oid`: null when git reports the
 * object missing (no body follows, so the stream stays in sync). Any error
 * thrown means the stream is out of sync and must not be used again.
 */
export async function readObjectHeader(
  reader: BatchReader,
  oid: string,
  action: string,
): Promise<ObjectHeader | null> {
  const line = await reader.readLine();
  if (line === null) {
    throw new GitError(
      `Cannot ${action} "${oid}": git cat-file exited unexpectedly`,
    );
  }
  const fields = line.split(" ");
  if (fields.length === 2 && fields[0] === oid && fields[1] === "missing") {
    return null;
  }
  const [name, type, sizeText] = fields;
  if (
    fields.length !== 3 || name !== oid || type === undefined ||
    !/^\d+$/.test(sizeText ?? "")
  ) {
    throw new GitError(
      `Cannot ${action} "${oid}": unexpected git cat-file output ${
        quote(line)
      }`,
    );
  }
  return { type, size: Number(sizeText) };
}

/**
 * A long-lived `git cat-file --batch` for single reads. Each request is
 * written as soon as it is made and answers are read in order, so callers
 * that ask for many blobs at once get them pipelined: git works on the
 * next one while this process reads (or parses) the last.
 */
export class CatFileProcess {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: BatchReader;
  #stderr: Promise<string>;
  #queue: Promise<unknown> = Promise.resolve();
  #writes: Promise<void> = Promise.resolve();
  #broken: GitError | undefined;
  #closing: Promise<void> | undefined;
  #encoder = new TextEncoder();

  /** Spawn the child now. */
  constructor(options: GitProcessOptions) {
    this.#child = spawnGit(["cat-file", "--batch"], options, {
      stdin: "piped",
    });
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = new BatchReader(this.#child.stdout, 256 * 1024);
    this.#stderr = collectStderr(this.#child.stderr);
  }

  /** Read blob `oid` whole, refusing it (unread) when over `maxBytes`. */
  readBlob(oid: string, maxBytes: number): Promise<Uint8Array> {
    if (this.#closing !== undefined) {
      return Promise.reject(
        new GitError(`Cannot read blob "${oid}": the repository is closed`),
      );
    }
    // A failed write surfaces as a missing answer on the read side.
    this.#writes = this.#writes
      .then(() => this.#writer.write(this.#encoder.encode(`${oid}\n`)))
      .catch(() => undefined);
    const result = this.#queue.then(() => this.#readBlob(oid, maxBytes));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #readBlob(oid: string, maxBytes: number): Promise<Uint8Array> {
    if (this.#broken !== undefined) throw this.#broken;
    let header: ObjectHeader | null;
    let bytes: Uint8Array | undefined;
    try {
      header = await readObjectHeader(this.#reader, oid, "read blob");
      if (header !== null) {
        if (header.type === "blob" && header.size <= maxBytes) {
          const body = new Uint8Array(header.size);
          let offset = 0;
          await this.#reader.readBody(header.size, (chunk) => {
            body.set(chunk, offset);
            offset += chunk.length;
          });
          bytes = body;
        } else {
          // Skip the content unread so the next answer starts in sync.
          await this.#reader.readBody(header.size);
        }
        await this.#reader.readNewline();
      }
    } catch (error) {
      this.#broken = error instanceof GitError ? error : new GitError(
        `Cannot read blob "${oid}": git cat-file failed: ${describe(error)}`,
        {
          cause: error,
        },
      );
      throw this.#broken;
    }
    if (header === null) {
      throw new GitError(`Cannot read blob "${oid}": object not found`);
    }
    if (header.type !== "blob") {
      throw new GitError(
        `Cannot read blob "${oid}": object is a ${header.type}`,
      );
    }
    if (bytes === undefined) {
      throw new BlobTooLargeError(oid, header.size, maxBytes);
    }
    return bytes;
  }

  /** End the child (after queued reads) and release its pipes. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    await this.#queue;
    await this.#writes;
    try {
      await this.#writer.close();
    } catch {
      // The child already exited; its status is collected below.
    }
    await this.#reader.cancel();
    await Promise.all([this.#child.status, this.#stderr]);
  }
}
