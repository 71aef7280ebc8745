/**
 * SHA-256 of blobs, and small blobs' bytes, read straight from the
 * clone's object store, without a `git cat-file` in between: no pipe to
 * copy every byte through, and zlib runs in this thread. Loose blobs and whole (undeltified) blob entries of
 * packs are read here, for SHA-1 repositories; anything else (deltas,
 * SHA-256 repositories, a pack this reader does not understand) is left to
 * git, and so is any object that fails a check.
 *
 * The checks make this read the bytes git reads for the id: a pack entry's
 * stored bytes, from its offset to the next entry's, must match the CRC32
 * that `git index-pack` recorded next to the id when it indexed the pack
 * (so a wrong offset or a wrong end is caught), no bytes may follow its
 * zlib stream, and the inflated size must be the one its header declares;
 * a loose object is the regular file named by its id, with a
 * `blob <size>` header, exactly that many bytes and nothing after them.
 * Like git, this does not hash the content with SHA-1 again: the object
 * store was written by git, which did.
 *
 * @module
 */
import { createHash } from "node:crypto";
import {
  constants,
  crc32,
  createInflate,
  type Inflate,
  inflateSync,
} from "node:zlib";
import { PACK_HEADER_BYTES, PackIndex } from "./_pack_index.ts";

/** Pack object type of a blob (gitformat-pack(5)). */
const BLOB = 3;
/** Stored (compressed) bytes read per step. */
const CHUNK = 64 * 1024;
/** Largest inflated chunk zlib hands back. */
const INFLATED_CHUNK = 64 * 1024;
/**
 * An object stored in at most this many bytes, whose content is at most
 * {@linkcode WHOLE_INFLATED_MAX}, is read and inflated in one synchronous
 * call into a buffer of its exact size: for the many small blobs of a
 * fixture tree the stream's per-chunk events cost as much CPU as zlib did.
 * Anything bigger streams, so memory stays bounded whatever the blob size.
 */
const WHOLE_STORED_MAX = 1024 * 1024;
const WHOLE_INFLATED_MAX = 8 * 1024 * 1024;
/**
 * Stored bytes inflated to find a loose object's header: enough to get
 * past a dynamic block's code tables to the first bytes they code.
 */
const HEADER_PROBE = 1024;
/**
 * Pack indexes larger than this (over two million objects) are left to
 * git: each hashing worker holds the index it reads in memory.
 */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

interface Pack {
  index: PackIndex;
  file: Deno.FsFile;
}

/** A loose object's header: `blob <decimal size>\0` at most this long. */
const MAX_LOOSE_HEADER = 32;
const SHA1_OID = /^[0-9a-f]{40}$/;

/** The object store of one git directory, open for reading blobs. */
export class StoredBlobs {
  #objects: string;
  #packs: Pack[];
  #buffer: Uint8Array<ArrayBuffer> = new Uint8Array(CHUNK);

  private constructor(objects: string, packs: Pack[]) {
    this.#objects = objects;
    this.#packs = packs;
  }

  /**
   * Open every readable pack under `gitDir/objects/pack`. Packs whose
   * index or header is not understood are skipped (git reads those).
   */
  static async open(gitDir: string): Promise<StoredBlobs> {
    const dir = `${gitDir}/objects/pack`;
    const packs: Pack[] = [];
    let names: string[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile && /^pack-[0-9a-f]+\.idx$/.test(entry.name)) {
          names.push(entry.name);
        }
      }
    } catch {
      // No pack directory: nothing is packed.
    }
    names = names.sort();
    try {
      for (const name of names) {
        const pack = await openPack(`${dir}/${name}`);
        if (pack !== undefined) packs.push(pack);
      }
    } catch (error) {
      for (const pack of packs) pack.file.close();
      throw error;
    }
    return new StoredBlobs(`${gitDir}/objects`, packs);
  }

  /** Number of packs this reader uses. */
  get packCount(): number {
    return this.#packs.length;
  }

  /**
   * Hex SHA-256 of blob `oid`'s content, or undefined when it is neither a
   * loose blob nor a whole blob entry in one of the packs, or when it fails
   * verification.
   */
  async sha256(oid: string): Promise<string | undefined> {
    if (!SHA1_OID.test(oid)) return undefined;
    const hash = (content: Uint8Array) =>
      createHash("sha256").update(content).digest("hex");
    for (const pack of this.#packs) {
      const entry = pack.index.find(oid);
      if (entry === undefined) continue;
      const whole = this.#wholeEntry(pack, entry, WHOLE_INFLATED_MAX);
      if (whole instanceof Uint8Array) return hash(whole);
      const digest = whole === "too big"
        ? await this.#hashEntry(pack, entry.offset, entry.crc32)
        : undefined;
      if (digest !== undefined) return digest;
    }
    const whole = this.#wholeLoose(oid, WHOLE_INFLATED_MAX);
    if (whole instanceof Uint8Array) return hash(whole);
    return whole === "too big" ? await this.#hashLoose(oid) : undefined;
  }

  /**
   * Blob `oid`'s content, read synchronously, when it is small (stored in
   * at most {@linkcode WHOLE_STORED_MAX} bytes, at most `maxBytes` and
   * {@linkcode WHOLE_INFLATED_MAX} inflated) and a loose blob or a whole
   * blob entry that passes the same checks as {@linkcode StoredBlobs.sha256};
   * else undefined, and git reads it (and says why it cannot).
   */
  readSmall(oid: string, maxBytes: number): Uint8Array | undefined {
    if (!SHA1_OID.test(oid)) return undefined;
    const limit = Math.min(maxBytes, WHOLE_INFLATED_MAX);
    for (const pack of this.#packs) {
      const entry = pack.index.find(oid);
      if (entry === undefined) continue;
      const whole = this.#wholeEntry(pack, entry, limit);
      return whole instanceof Uint8Array ? whole : undefined;
    }
    const whole = this.#wholeLoose(oid, limit);
    return whole instanceof Uint8Array ? whole : undefined;
  }

  /** Close the pack files. */
  close(): void {
    for (const pack of this.#packs) {
      try {
        pack.file.close();
      } catch {
        // Already closed.
      }
    }
    this.#packs = [];
  }

  /**
   * A pack entry's content inflated whole when it is small enough (see
   * {@linkcode WHOLE_STORED_MAX}) and at most `limit` bytes; "too big"
   * when it is a blob too big for that; undefined when it is no blob
   * stored whole, or fails a check.
   */
  #wholeEntry(
    pack: Pack,
    entry: { offset: number; crc32: number },
    limit: number,
  ): Uint8Array | undefined | "too big" {
    const end = pack.index.endOf(entry.offset);
    const head = this.#read(
      pack.file,
      entry.offset,
      Math.min(16, end - entry.offset),
    );
    const header = entryHeader(head);
    if (header === undefined || header.type !== BLOB) return undefined;
    const storedAt = entry.offset + header.length;
    if (end - storedAt > WHOLE_STORED_MAX || header.size > limit) {
      return "too big";
    }
    // Read now: `head` is a view of the buffer the next read reuses.
    const crc = crc32(head.subarray(0, header.length));
    const stored = readAt(pack.file, storedAt, new Uint8Array(end - storedAt));
    if (stored.length !== end - storedAt) return undefined;
    if (crc32(stored, crc) >>> 0 !== entry.crc32) return undefined;
    return inflateWhole(stored, header.size);
  }

  /**
   * A loose object's content inflated whole when it is small enough (see
   * {@linkcode WHOLE_STORED_MAX}) and at most `limit` bytes; "too big"
   * when it is too big for that, or its first stored bytes show no header
   * (the streaming read decides); undefined when it is no loose blob, or
   * fails a check.
   */
  #wholeLoose(oid: string, limit: number): Uint8Array | undefined | "too big" {
    const path = `${this.#objects}/${oid.slice(0, 2)}/${oid.slice(2)}`;
    const file = openRegularFile(path);
    if (file === undefined) return undefined;
    try {
      const { size } = file.statSync();
      if (size > WHOLE_STORED_MAX) return "too big";
      // One byte more than the stat said, to see the file end where it said.
      const stored = readAt(file, 0, new Uint8Array(size + 1));
      if (stored.length !== size) return undefined;
      const header = looseHeader(stored);
      if (header === undefined || header.size > limit) return "too big";
      const object = inflateWhole(stored, header.length + header.size);
      return object?.subarray(header.length);
    } finally {
      file.close();
    }
  }

  async #hashEntry(
    pack: Pack,
    offset: number,
    expectedCrc: number,
  ): Promise<string | undefined> {
    const end = pack.index.endOf(offset);
    const head = this.#read(pack.file, offset, Math.min(16, end - offset));
    const header = entryHeader(head);
    if (header === undefined || header.type !== BLOB) return undefined;
    // Read now: `head` is a view of the buffer the next read reuses.
    let crc = crc32(head.subarray(0, header.length));
    const storedAt = offset + header.length;
    const sha256 = createHash("sha256");
    let inflated = 0;
    const ended = await this.#inflate(
      pack.file,
      storedAt,
      end,
      (chunk) => {
        inflated += chunk.length;
        if (inflated > header.size) return false;
        sha256.update(chunk);
        return true;
      },
      (stored) => {
        crc = crc32(stored, crc);
      },
    );
    if (!ended || inflated !== header.size) return undefined;
    if (crc >>> 0 !== expectedCrc) return undefined;
    return sha256.digest("hex");
  }

  /** A loose object is a zlib stream of `<type> <size>\0<content>`. */
  async #hashLoose(oid: string): Promise<string | undefined> {
    const path = `${this.#objects}/${oid.slice(0, 2)}/${oid.slice(2)}`;
    const file = openRegularFile(path);
    if (file === undefined) return undefined;
    try {
      const sha256 = createHash("sha256");
      let header = new Uint8Array(0);
      let size: number | undefined;
      let content = 0;
      const ended = await this.#inflate(
        file,
        0,
        Number.POSITIVE_INFINITY,
        (chunk) => {
          let body = chunk;
          if (size === undefined) {
            const joined = new Uint8Array(header.length + chunk.length);
            joined.set(header);
            joined.set(chunk, header.length);
            const nul = joined.subarray(0, MAX_LOOSE_HEADER).indexOf(0);
            if (nul < 0) {
              header = joined;
              return joined.length < MAX_LOOSE_HEADER;
            }
            const match = /^blob (0|[1-9][0-9]{0,15})$/.exec(
              new TextDecoder().decode(joined.subarray(0, nul)),
            );
            if (match === null) return false;
            size = Number(match[1]);
            body = joined.subarray(nul + 1);
          }
          content += body.length;
          if (content > size) return false;
          sha256.update(body);
          return true;
        },
      );
      if (!ended || size === undefined || content !== size) return undefined;
      return sha256.digest("hex");
    } finally {
      file.close();
    }
  }

  /**
   * Inflate the zlib stream in `file` from `start` up to `end` (or its end
   * of file), passing each inflated chunk to `onChunk`, which returns false
   * to stop, and each stored chunk to `onStored`. True when the zlib stream
   * ended exactly at the end of the input and `onChunk` never stopped it.
   */
  async #inflate(
    file: Deno.FsFile,
    start: number,
    end: number,
    onChunk: (chunk: Uint8Array) => boolean,
    onStored?: (chunk: Uint8Array) => void,
  ): Promise<boolean> {
    // Output comes in chunks of at most INFLATED_CHUNK bytes, however well
    // the input compresses, so memory stays flat for any blob size.
    const inflate = createInflate({ chunkSize: INFLATED_CHUNK });
    let stopped = false;
    const finished = new Promise<boolean>((resolve) => {
      inflate.on("data", (chunk: Uint8Array) => {
        if (stopped) return;
        if (!onChunk(chunk)) {
          stopped = true;
          inflate.destroy();
        }
      });
      inflate.on("end", () => resolve(!stopped));
      inflate.on("close", () => resolve(false));
      inflate.on("error", () => resolve(false));
    });
    let position = start;
    while (position < end && !inflate.destroyed) {
      const bytes = this.#read(file, position, Math.min(CHUNK, end - position));
      if (bytes.length === 0) break;
      position += bytes.length;
      onStored?.(bytes);
      // zlib may hold the chunk after write() returns: hand it a copy, not
      // the buffer the next read reuses.
      if (!inflate.write(bytes.slice())) await drained(inflate);
    }
    if (!inflate.destroyed) inflate.end();
    // zlib stops at the end of its stream and drops what follows; git
    // refuses an object with bytes after it, and so does this.
    return await finished && inflate.bytesWritten === position - start;
  }

  /**
   * Up to `length` bytes at `position` (fewer only at end of file), read
   * synchronously: this runs on a hashing worker, where nothing else waits
   * for the event loop, and a read from the page cache is cheaper than the
   * round trip through the runtime's thread pool an async read costs.
   */
  #read(
    file: Deno.FsFile,
    position: number,
    length: number,
  ): Uint8Array<ArrayBuffer> {
    return readAt(file, position, this.#buffer.subarray(0, length));
  }
}

/**
 * Fill `target` from `position` in `file` (less only at end of file) and
 * return the filled part. Synchronous: see {@linkcode StoredBlobs}' reads.
 */
function readAt(
  file: Deno.FsFile,
  position: number,
  target: Uint8Array<ArrayBuffer>,
): Uint8Array<ArrayBuffer> {
  file.seekSync(position, Deno.SeekMode.Start);
  let filled = 0;
  while (filled < target.length) {
    const count = file.readSync(target.subarray(filled));
    if (count === null) break;
    filled += count;
  }
  return target.subarray(0, filled);
}

/**
 * A loose object's `blob <size>\0` header, found by inflating its first
 * stored bytes: the content's size and the header's length with its NUL;
 * undefined when those bytes do not show one.
 */
function looseHeader(
  stored: Uint8Array,
): { size: number; length: number } | undefined {
  let start: Uint8Array;
  try {
    start = inflateSync(stored.subarray(0, HEADER_PROBE), {
      finishFlush: constants.Z_SYNC_FLUSH,
      maxOutputLength: HEADER_PROBE * 64,
    });
  } catch {
    return undefined;
  }
  const nul = start.subarray(0, MAX_LOOSE_HEADER).indexOf(0);
  if (nul < 0) return undefined;
  const match = /^blob (0|[1-9][0-9]{0,15})$/.exec(
    new TextDecoder().decode(start.subarray(0, nul)),
  );
  return match === null
    ? undefined
    : { size: Number(match[1]), length: nul + 1 };
}

/**
 * `stored` inflated in one call into a buffer of exactly `size` bytes;
 * undefined unless it is one whole zlib stream, with nothing after it, of
 * exactly that many bytes.
 */
function inflateWhole(
  stored: Uint8Array,
  size: number,
): Uint8Array | undefined {
  let result: { buffer: Uint8Array; engine: { bytesWritten: number } };
  try {
    // `info` hands back the engine too, to tell how much input it took.
    result = inflateSync(
      stored,
      {
        chunkSize: Math.max(64, size),
        maxOutputLength: Math.max(1, size),
        info: true,
      } as Parameters<typeof inflateSync>[1],
    ) as unknown as typeof result;
  } catch {
    return undefined; // corrupt, cut short, or longer than declared
  }
  return result.buffer.length === size &&
      result.engine.bytesWritten === stored.length
    ? result.buffer
    : undefined;
}

/** Until `inflate` wants more input, or is closed. */
function drained(inflate: Inflate): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      inflate.off("drain", done);
      inflate.off("close", done);
      resolve();
    };
    inflate.on("drain", done);
    inflate.on("close", done);
  });
}

/**
 * `path` opened for reading if it is a regular file (not a symlink), else
 * undefined. Synchronous, like {@linkcode StoredBlobs}' reads: it runs once
 * per loose object, where an async call would cost a thread-pool round
 * trip each time.
 */
function openRegularFile(path: string): Deno.FsFile | undefined {
  try {
    if (!Deno.lstatSync(path).isFile) return undefined;
    return Deno.openSync(path, { read: true });
  } catch {
    return undefined;
  }
}

/**
 * An entry's type and inflated size: 3 type bits and a little-endian
 * base-128 size, 4 bits in the first byte and 7 in each next one.
 */
function entryHeader(
  bytes: Uint8Array,
): { type: number; size: number; length: number } | undefined {
  let byte = bytes[0];
  if (byte === undefined) return undefined;
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  let length = 1;
  while (byte & 0x80) {
    byte = bytes[length];
    // Past 2^53 sizes are not exact numbers; no real blob is that big.
    if (byte === undefined || shift > 46) return undefined;
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    length++;
  }
  return { type, size, length };
}

async function openPack(idxPath: string): Promise<Pack | undefined> {
  const file = openRegularFile(idxPath.replace(/\.idx$/, ".pack"));
  if (file === undefined) return undefined;
  const index = await readIndex(idxPath, file).catch(() => undefined);
  if (index === undefined) {
    file.close();
    return undefined;
  }
  return { index, file };
}

/**
 * The index at `idxPath` when it is a regular file of bounded size that
 * parses and agrees with the header of `pack` ("PACK", version 2 or 3,
 * the same object count).
 */
async function readIndex(
  idxPath: string,
  pack: Deno.FsFile,
): Promise<PackIndex | undefined> {
  const info = await Deno.lstat(idxPath);
  if (!info.isFile || info.size > MAX_INDEX_BYTES) return undefined;
  const { size } = await pack.stat();
  const index = PackIndex.parse(await Deno.readFile(idxPath), size);
  const header = readAt(pack, 0, new Uint8Array(PACK_HEADER_BYTES));
  if (index === undefined || header.length < PACK_HEADER_BYTES) {
    return undefined;
  }
  const view = new DataView(header.buffer, header.byteOffset);
  const version = view.getUint32(4);
  return new TextDecoder().decode(header.subarray(0, 4)) === "PACK" &&
      (version === 2 || version === 3) && view.getUint32(8) === index.count
    ? index
    : undefined;
}
