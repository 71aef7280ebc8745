/**
 * Just enough DER to tell what kind of key a PKCS#8 or SPKI structure
 * holds, so an error can say "an RSA key" instead of "invalid key data".
 *
 * @module
 */

/** The Ed25519 algorithm identifier (RFC 8410). */
export const ED25519_OID = "1.3.101.112";

/** Names of algorithms a key file is likely to hold by mistake. */
const ALGORITHMS: ReadonlyMap<string, string> = new Map([
  [ED25519_OID, "Ed25519"],
  ["1.3.101.113", "Ed448"],
  ["1.3.101.110", "X25519"],
  ["1.3.101.111", "X448"],
  ["1.2.840.113549.1.1.1", "RSA"],
  ["1.2.840.113549.1.1.10", "RSA-PSS"],
  ["1.2.840.10045.2.1", "EC"],
  ["1.2.840.10040.4.1", "DSA"],
]);

/** The DER is not the structure expected. Messages never quote key bytes. */
export class DerError extends SyntaxError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "DerError";
  }
}

interface Element {
  tag: number;
  /** First content byte. */
  start: number;
  /** One past the last content byte. */
  end: number;
}

function element(der: Uint8Array, offset: number, limit: number): Element {
  const tag = der[offset];
  let length = der[offset + 1];
  // Stryker disable next-line ConditionalExpression,LogicalOperator: limit never passes der.length, so offset + 2 > limit already holds when either byte is missing; the undefined checks only narrow the types
  if (tag === undefined || length === undefined || offset + 2 > limit) {
    throw new DerError("truncated element");
  }
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3) throw new DerError("unsupported length");
    length = 0;
    for (let i = 0; i < count; i++) {
      const byte = der[start + i];
      if (byte === undefined) throw new DerError("truncated length");
      length = length * 256 + byte;
    }
    start += count;
  }
  const end = start + length;
  if (end > limit) throw new DerError("element runs past its parent");
  return { tag, start, end };
}

function expect(
  der: Uint8Array,
  offset: number,
  limit: number,
  tag: number,
  what: string,
): Element {
  const found = element(der, offset, limit);
  if (found.tag !== tag) throw new DerError(`expected ${what}`);
  return found;
}

function decodeOid(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new DerError("empty object identifier");
  const arcs: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER) {
      throw new DerError("object identifier arc too large");
    }
    if ((byte & 0x80) === 0) {
      if (arcs.length === 0) {
        // Stryker disable next-line EqualityOperator: at 80 both branches give arc 2 (80 / 40 = 2)
        const first = value < 80 ? Math.floor(value / 40) : 2;
        arcs.push(first, value - first * 40);
      } else {
        arcs.push(value);
      }
      value = 0;
    }
  }
  if ((bytes[bytes.length - 1]! & 0x80) !== 0) {
    throw new DerError("truncated object identifier");
  }
  return arcs.join(".");
}

/** The algorithm OID of an AlgorithmIdentifier starting at `offset`. */
function algorithm(der: Uint8Array, offset: number, limit: number): {
  oid: string;
  next: number;
} {
  const sequence = expect(der, offset, limit, 0x30, "an AlgorithmIdentifier");
  const oid = expect(
    der,
    sequence.start,
    sequence.end,
    0x06,
    "an object identifier",
  );
  return {
    oid: decodeOid(der.subarray(oid.start, oid.end)),
    next: sequence.end,
  };
}

function outer(der: Uint8Array): Element {
  const top = expect(der, 0, der.length, 0x30, "a SEQUENCE");
  if (top.end !== der.length) throw new DerError("trailing bytes");
  return top;
}

/**
 * The algorithm OID of a PKCS#8 PrivateKeyInfo (RFC 5208, RFC 5958).
 * Throws {@linkcode DerError} when the bytes are not one.
 *
 * @example
 * ```ts
 * import { pkcs8Algorithm } from "./_der.ts";
 * const der = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
 *   0x04, 0x22, 0x04, 0x20, ...new Uint8Array(32)]);
 * if (pkcs8Algorithm(der) !== "1.3.101.112") throw new Error("unexpected");
 * ```
 */
export function pkcs8Algorithm(der: Uint8Array): string {
  const top = outer(der);
  const version = expect(der, top.start, top.end, 0x02, "a version");
  const { oid, next } = algorithm(der, version.end, top.end);
  expect(der, next, top.end, 0x04, "an OCTET STRING private key");
  return oid;
}

/**
 * The algorithm OID of an X.509 SubjectPublicKeyInfo (RFC 5280).
 * Throws {@linkcode DerError} when the bytes are not one.
 *
 * @example
 * ```ts
 * import { spkiAlgorithm } from "./_der.ts";
 * const der = new Uint8Array([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
 *   0x03, 0x21, 0x00, ...new Uint8Array(32)]);
 * if (spkiAlgorithm(der) !== "1.3.101.112") throw new Error("unexpected");
 * ```
 */
export function spkiAlgorithm(der: Uint8Array): string {
  const top = outer(der);
  const { oid, next } = algorithm(der, top.start, top.end);
  const key = expect(der, next, top.end, 0x03, "a BIT STRING public key");
  if (key.end !== top.end) throw new DerError("trailing elements");
  return oid;
}

/**
 * A readable name for an algorithm OID: `RSA (OID 1.2.840.113549.1.1.1)`,
 * or just the OID when pawl does not know it.
 *
 * @example
 * ```ts
 * import { algorithmName } from "./_der.ts";
 * if (algorithmName("1.3.101.110") !== "X25519 (OID 1.3.101.110)") throw new Error("unexpected");
 * ```
 */
export function algorithmName(oid: string): string {
  const name = ALGORITHMS.get(oid);
  return name === undefined ? `OID ${oid}` : `${name} (OID ${oid})`;
}
