/**
 * A reader for git's pack index files (`objects/pack/pack-*.idx`, version
 * 2, SHA-1 object ids): where in its pack each object's entry starts, where
 * the next one does, and the CRC32 of the entry's bytes.
 *
 * Format (gitformat-pack(5)): a 4-byte magic `\377tOc`, version 2, a
 * 256-entry fan-out table of cumulative counts by first id byte, the sorted
 * object ids, one CRC32 per object, one 4-byte offset per object (the high
 * bit set means "index into the 8-byte offset table that follows"), then
 * the pack's and the index's own checksums. All integers are big-endian.
 *
 * @module
 */

const MAGIC = 0xff744f63;
const VERSION = 2;
/** SHA-1: 20-byte ids. SHA-256 repositories are not read here. */
const ID_BYTES = 20;
const FANOUT_AT = 8;
const IDS_AT = FANOUT_AT + 256 * 4;
/** A pack starts with "PACK", a version and an object count. */
export const PACK_HEADER_BYTES = 12;
/** A pack ends with the SHA-1 of everything before it. */
export const PACK_TRAILER_BYTES = ID_BYTES;

/** Where objects live in one pack file, from its index. */
export class PackIndex {
  /** Number of objects in the pack. */
  readonly count: number;
  /** Size of the pack file in bytes. */
  readonly packSize: number;
  #view: DataView;
  #bytes: Uint8Array;
  #crcsAt: number;
  #offsetsAt: number;
  #largeAt: number;
  #sorted: Float64Array | undefined;

  private constructor(bytes: Uint8Array, count: number, packSize: number) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.count = count;
    this.#crcsAt = IDS_AT + count * ID_BYTES;
    this.#offsetsAt = this.#crcsAt + count * 4;
    this.#largeAt = this.#offsetsAt + count * 4;
    this.packSize = packSize;
  }

  /**
   * Read an index of `bytes` for a pack of `packSize` bytes; undefined when
   * it is not a version-2 SHA-1 index whose tables add up to its length.
   */
  static parse(bytes: Uint8Array, packSize: number): PackIndex | undefined {
    if (bytes.length < IDS_AT + 2 * ID_BYTES) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    if (view.getUint32(0) !== MAGIC || view.getUint32(4) !== VERSION) {
      return undefined;
    }
    let previous = 0;
    for (let i = 0; i < 256; i++) {
      const cumulative = view.getUint32(FANOUT_AT + i * 4);
      if (cumulative < previous) return undefined;
      previous = cumulative;
    }
    const count = previous;
    const fixed = IDS_AT + count * (ID_BYTES + 4 + 4) + 2 * ID_BYTES;
    const rest = bytes.length - fixed;
    if (rest < 0 || rest % 8 !== 0) return undefined;
    const largeCount = rest / 8;
    const index = new PackIndex(bytes, count, packSize);
    // Every large-offset reference must point inside the table.
    for (let i = 0; i < count; i++) {
      const small = view.getUint32(index.#offsetsAt + i * 4);
      if (small & 0x80000000 && (small & 0x7fffffff) >= largeCount) {
        return undefined;
      }
    }
    return index;
  }

  /**
   * Where `oid`'s entry (a 40-digit lowercase hex SHA-1) starts in the pack
   * and the CRC32 of its bytes as stored (header and compressed data), or
   * undefined when the pack does not hold it or the offset is outside the
   * pack's object data.
   */
  find(oid: string): { offset: number; crc32: number } | undefined {
    if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
    const key = new Uint8Array(ID_BYTES);
    for (let i = 0; i < ID_BYTES; i++) {
      key[i] = parseInt(oid.slice(i * 2, i * 2 + 2), 16);
    }
    const first = key[0] as number;
    let low = first === 0
      ? 0
      : this.#view.getUint32(FANOUT_AT + (first - 1) * 4);
    let high = this.#view.getUint32(FANOUT_AT + first * 4);
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = this.#compare(mid, key);
      if (order === 0) {
        const offset = this.#offsetAt(mid);
        if (offset < PACK_HEADER_BYTES || offset >= this.#dataEnd()) {
          return undefined;
        }
        return { offset, crc32: this.#view.getUint32(this.#crcsAt + mid * 4) };
      }
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
  }

  /**
   * Where the entry starting at `offset` ends: the next entry's offset, or
   * the start of the pack's trailer for the last one.
   */
  endOf(offset: number): number {
    this.#sorted ??= this.#sortOffsets();
    const sorted = this.#sorted;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sorted[mid] as number) <= offset) low = mid + 1;
      else high = mid;
    }
    return low < sorted.length ? sorted[low] as number : this.#dataEnd();
  }

  #dataEnd(): number {
    return this.packSize - PACK_TRAILER_BYTES;
  }

  #compare(position: number, key: Uint8Array): number {
    const at = IDS_AT + position * ID_BYTES;
    for (let i = 0; i < ID_BYTES; i++) {
      const difference = (this.#bytes[at + i] as number) - (key[i] as number);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  #offsetAt(position: number): number {
    const small = this.#view.getUint32(this.#offsetsAt + position * 4);
    if (!(small & 0x80000000)) return small;
    const at = this.#largeAt + (small & 0x7fffffff) * 8;
    return this.#view.getUint32(at) * 2 ** 32 + this.#view.getUint32(at + 4);
  }

  #sortOffsets(): Float64Array {
    const offsets = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) offsets[i] = this.#offsetAt(i);
    return offsets.sort();
  }
}
