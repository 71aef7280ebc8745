import assert from "node:assert/strict";
import {
  algorithmName,
  DerError,
  ED25519_OID,
  pkcs8Algorithm,
  spkiAlgorithm,
} from "./_der.ts";
import { readPemBlock } from "./_pem.ts";
import {
  ed25519Pkcs8,
  ed25519Spki,
  hex,
  otherKeyPems,
  RFC8032_PUBLIC,
  RFC8032_SEED,
} from "./_testing.ts";

Deno.test("pkcs8Algorithm() and spkiAlgorithm() name the key's algorithm", async (t) => {
  await t.step("Ed25519", () => {
    assert.equal(pkcs8Algorithm(ed25519Pkcs8(hex(RFC8032_SEED))), ED25519_OID);
    assert.equal(spkiAlgorithm(ed25519Spki(hex(RFC8032_PUBLIC))), ED25519_OID);
  });
  const expected = {
    RSA: "RSA (OID 1.2.840.113549.1.1.1)",
    EC: "EC (OID 1.2.840.10045.2.1)",
    X25519: "X25519 (OID 1.3.101.110)",
  } as const;
  for (const kind of ["RSA", "EC", "X25519"] as const) {
    await t.step(kind, async () => {
      const pems = await otherKeyPems(kind);
      const privateDer = readPemBlock(pems.privatePem, "PRIVATE KEY").der;
      const publicDer = readPemBlock(pems.publicPem, "PUBLIC KEY").der;
      assert.equal(algorithmName(pkcs8Algorithm(privateDer)), expected[kind]);
      assert.equal(algorithmName(spkiAlgorithm(publicDer)), expected[kind]);
    });
  }
});

Deno.test("pkcs8Algorithm() and spkiAlgorithm() reject malformed DER", async (t) => {
  const pkcs8 = ed25519Pkcs8(hex(RFC8032_SEED));
  const spki = ed25519Spki(hex(RFC8032_PUBLIC));
  const cases: [string, () => unknown][] = [
    ["empty", () => pkcs8Algorithm(new Uint8Array(0))],
    ["truncated PKCS#8", () => pkcs8Algorithm(pkcs8.subarray(0, 20))],
    ["trailing bytes", () => pkcs8Algorithm(new Uint8Array([...pkcs8, 0]))],
    ["SPKI read as PKCS#8", () => pkcs8Algorithm(spki)],
    ["PKCS#8 read as SPKI", () => spkiAlgorithm(pkcs8)],
    ["a huge length", () => spkiAlgorithm(hex("3084ffffffff"))],
  ];
  for (const [name, run] of cases) {
    await t.step(name, () => assert.throws(run, DerError));
  }
});

/** A DER element: `tag`, the length in the shortest form (or `length` as given), then `content`. */
function tlv(tag: number, content: Uint8Array, length?: number[]): Uint8Array {
  const n = content.length;
  const shortest = n < 0x80
    ? [n]
    : n < 0x100
    ? [0x81, n]
    : [0x82, n >> 8, n & 0xff];
  return new Uint8Array([tag, ...(length ?? shortest), ...content]);
}

function cat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(parts.flatMap((p) => [...p]));
}

const VERSION = tlv(0x02, hex("00"));
const ED25519_ALGORITHM = tlv(0x30, tlv(0x06, hex("2b6570")));

/** An SPKI whose AlgorithmIdentifier holds the OID bytes `oid`. */
function spkiWithOid(oid: Uint8Array): Uint8Array {
  return tlv(
    0x30,
    cat(tlv(0x30, tlv(0x06, oid)), tlv(0x03, hex("00" + "11".repeat(32)))),
  );
}

Deno.test("spkiAlgorithm() decodes object identifiers by X.690's rules", async (t) => {
  const cases: [string, string, string][] = [
    ["a first byte below 40 is arc 0", "27", "0.39"],
    ["a first byte of 40 starts arc 1", "28", "1.0"],
    ["a first byte of 79 is still arc 1", "4f", "1.39"],
    ["a first byte of 80 starts arc 2", "50", "2.0"],
    ["arc 2 takes every larger first value", "8837", "2.999"],
    [
      "a multi-byte arc after the first",
      "2a864886f70d010101",
      "1.2.840.113549.1.1.1",
    ],
    [
      "the largest arc JavaScript holds exactly",
      "2a8fffffffffffff7f",
      "1.2.9007199254740991",
    ],
  ];
  for (const [name, oid, want] of cases) {
    await t.step(name, () => {
      assert.equal(spkiAlgorithm(spkiWithOid(hex(oid))), want);
    });
  }
});

Deno.test("pkcs8Algorithm() and spkiAlgorithm() read long-form lengths", async (t) => {
  const bits = tlv(0x03, new Uint8Array(300));
  await t.step("a one-byte long length (0x81)", () => {
    const key = tlv(0x03, new Uint8Array(200));
    assert.equal(
      spkiAlgorithm(tlv(0x30, cat(ED25519_ALGORITHM, key))),
      ED25519_OID,
    );
  });
  await t.step("a two-byte long length (0x82)", () => {
    assert.equal(
      spkiAlgorithm(tlv(0x30, cat(ED25519_ALGORITHM, bits))),
      ED25519_OID,
    );
  });
  await t.step(
    "a three-byte long length (0x83), even where shorter would do",
    () => {
      const content = cat(ED25519_ALGORITHM, bits);
      const n = content.length;
      const der = tlv(0x30, content, [0x83, 0, n >> 8, n & 0xff]);
      assert.equal(spkiAlgorithm(der), ED25519_OID);
    },
  );
  await t.step("a long length inside the structure", () => {
    const seed = tlv(0x04, tlv(0x04, new Uint8Array(32)), [0x81, 34]);
    assert.equal(
      pkcs8Algorithm(tlv(0x30, cat(VERSION, ED25519_ALGORITHM, seed))),
      ED25519_OID,
    );
  });
});

Deno.test("pkcs8Algorithm() and spkiAlgorithm() say what is wrong with malformed DER", async (t) => {
  const key = tlv(0x04, tlv(0x04, new Uint8Array(32)));
  const bits = tlv(0x03, new Uint8Array(33));
  const cases: [string, () => unknown, string][] = [
    [
      "no bytes at all",
      () => spkiAlgorithm(new Uint8Array(0)),
      "truncated element",
    ],
    [
      "a tag without a length",
      () => spkiAlgorithm(hex("30")),
      "truncated element",
    ],
    [
      "an element whose header runs past its parent",
      () => pkcs8Algorithm(hex("3008020100300106040 0".replaceAll(" ", ""))),
      "truncated element",
    ],
    [
      "a long length of zero bytes",
      () => spkiAlgorithm(hex("3080")),
      "unsupported length",
    ],
    [
      "a long length of four bytes",
      () => spkiAlgorithm(hex("308400000000")),
      "unsupported length",
    ],
    [
      "a long length cut short",
      () => spkiAlgorithm(hex("308201")),
      "truncated length",
    ],
    [
      "a length past the end",
      () => spkiAlgorithm(hex("300500")),
      "element runs past its parent",
    ],
    [
      "a child longer than its parent",
      () =>
        spkiAlgorithm(tlv(0x30, cat(hex("3006"), tlv(0x06, hex("2b6570"))))),
      "element runs past its parent",
    ],
    [
      "a top element that is not a SEQUENCE",
      () => spkiAlgorithm(hex("3100")),
      "expected a SEQUENCE",
    ],
    [
      "bytes after the top SEQUENCE",
      () => spkiAlgorithm(cat(spkiWithOid(hex("2b6570")), hex("00"))),
      "trailing bytes",
    ],
    [
      "a PKCS#8 without a version",
      () => pkcs8Algorithm(tlv(0x30, cat(ED25519_ALGORITHM, key))),
      "expected a version",
    ],
    [
      "an algorithm that is not a SEQUENCE",
      () =>
        spkiAlgorithm(
          tlv(0x30, cat(tlv(0x31, tlv(0x06, hex("2b6570"))), bits)),
        ),
      "expected an AlgorithmIdentifier",
    ],
    [
      "an algorithm without an object identifier",
      () => spkiAlgorithm(tlv(0x30, cat(tlv(0x30, tlv(0x05, hex(""))), bits))),
      "expected an object identifier",
    ],
    [
      "a private key that is not an OCTET STRING",
      () => pkcs8Algorithm(tlv(0x30, cat(VERSION, ED25519_ALGORITHM, bits))),
      "expected an OCTET STRING private key",
    ],
    [
      "a PKCS#8 that ends after its algorithm",
      () => pkcs8Algorithm(tlv(0x30, cat(VERSION, ED25519_ALGORITHM))),
      "truncated element",
    ],
    [
      "a public key that is not a BIT STRING",
      () => spkiAlgorithm(tlv(0x30, cat(ED25519_ALGORITHM, key))),
      "expected a BIT STRING public key",
    ],
    [
      "an element after the public key",
      () => spkiAlgorithm(tlv(0x30, cat(ED25519_ALGORITHM, bits, hex("0500")))),
      "trailing elements",
    ],
    [
      "an empty object identifier",
      () => spkiAlgorithm(spkiWithOid(hex(""))),
      "empty object identifier",
    ],
    [
      "an object identifier cut inside an arc",
      () => spkiAlgorithm(spkiWithOid(hex("2b81"))),
      "truncated object identifier",
    ],
    [
      "an arc one past the largest JavaScript holds exactly",
      () =>
        spkiAlgorithm(
          spkiWithOid(hex("2a90808080808080 00".replaceAll(" ", ""))),
        ),
      "object identifier arc too large",
    ],
  ];
  for (const [name, run, message] of cases) {
    await t.step(name, () => {
      assert.throws(run, { name: "DerError", message });
    });
  }
});

Deno.test("algorithmName() names every algorithm a key file is likely to hold", async (t) => {
  const cases: [string, string][] = [
    [ED25519_OID, "Ed25519 (OID 1.3.101.112)"],
    ["1.3.101.113", "Ed448 (OID 1.3.101.113)"],
    ["1.3.101.110", "X25519 (OID 1.3.101.110)"],
    ["1.3.101.111", "X448 (OID 1.3.101.111)"],
    ["1.2.840.113549.1.1.1", "RSA (OID 1.2.840.113549.1.1.1)"],
    ["1.2.840.113549.1.1.10", "RSA-PSS (OID 1.2.840.113549.1.1.10)"],
    ["1.2.840.10045.2.1", "EC (OID 1.2.840.10045.2.1)"],
    ["1.2.840.10040.4.1", "DSA (OID 1.2.840.10040.4.1)"],
    ["1.2.3.4", "OID 1.2.3.4"],
  ];
  for (const [oid, want] of cases) {
    await t.step(want, () => assert.equal(algorithmName(oid), want));
  }
});
