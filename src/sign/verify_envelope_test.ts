import assert from "node:assert/strict";
import { decodeBase64, encodeBase64 } from "./_base64.ts";
import { generateKeyPair } from "./generate_key_pair.ts";
import { type DsseEnvelope, signEnvelope } from "./sign_envelope.ts";
import { signTestResult } from "./sign_test_result.ts";
import { signVerdict } from "./sign_verdict.ts";
import { readSigningKey, type SigningKey } from "./signing_key.ts";
import { buildStatement, IN_TOTO_PAYLOAD_TYPE } from "./statement.ts";
import { buildTestResultStatement } from "./test_result_statement.ts";
import {
  verifyEnvelope,
  type VerifyEnvelopeOptions,
  type VerifyProblem,
} from "./verify_envelope.ts";
import {
  HEAD,
  otherKeyPems,
  RFC8032_KEYID,
  RFC8032_PRIVATE_PEM,
  RFC8032_PUBLIC_PEM,
  sampleVerdict,
} from "./_testing.ts";

const OPTIONS: VerifyEnvelopeOptions = {
  envelopeName: "verdict.dsse.json",
  keyName: "pawl.pub",
};

async function rfcKey(): Promise<SigningKey> {
  return await readSigningKey(RFC8032_PRIVATE_PEM, "rfc8032.key");
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

function payloadBytes(envelope: DsseEnvelope): Uint8Array {
  return decodeBase64(envelope.payload)!;
}

function withPayload(envelope: DsseEnvelope, bytes: Uint8Array): DsseEnvelope {
  return { ...envelope, payload: encodeBase64(bytes) };
}

function signStatement(statement: unknown, key: SigningKey) {
  return signEnvelope(
    IN_TOTO_PAYLOAD_TYPE,
    new TextEncoder().encode(JSON.stringify(statement)),
    key,
  );
}

Deno.test("verifyEnvelope() accepts a verdict signed by the key and reports what it says", async () => {
  const envelope = await signVerdict(sampleVerdict(), await rfcKey());
  const result = await verifyEnvelope(json(envelope), RFC8032_PUBLIC_PEM, {
    ...OPTIONS,
    head: HEAD.toUpperCase(),
  });
  assert.ok(result.valid, JSON.stringify(result));
  assert.equal(result.keyid, RFC8032_KEYID);
  assert.deepEqual(result.verdict, {
    kind: "verdict",
    decision: "reject",
    head: HEAD,
    base: sampleVerdict().base,
    repo: "./some-repo",
    now: "2026-11-30T12:00:00Z",
    findings: 2,
    blocking: 1,
  });
  assert.deepEqual(
    result.statement,
    JSON.parse(JSON.stringify(buildStatement(sampleVerdict()))),
  );
});

/** {@linkcode sampleVerdict} of a run that ran tests: it has a test result. */
function testedVerdict() {
  return sampleVerdict({
    tests: {
      summary: {
        total: 3,
        passed: 2,
        failed: 1,
        errors: 0,
        skipped: 0,
        xfailed: 0,
      },
      properties: [],
      reruns: [],
      seeds: { fresh: 7, trials: null, replays: [] },
    },
  });
}

Deno.test("verifyEnvelope() accepts pawl's test-result statement and says it verified that kind", async () => {
  const verdict = testedVerdict();
  const envelope = await signTestResult(verdict, await rfcKey());
  const result = await verifyEnvelope(json(envelope), RFC8032_PUBLIC_PEM, {
    ...OPTIONS,
    head: HEAD,
  });
  assert.ok(result.valid, JSON.stringify(result));
  assert.deepEqual(result.verdict, {
    kind: "test-result",
    decision: "reject",
    head: HEAD,
    base: verdict.base,
    repo: "./some-repo",
    now: "2026-11-30T12:00:00Z",
    findings: 2,
    blocking: 1,
  });
  assert.deepEqual(
    result.statement,
    JSON.parse(JSON.stringify(buildTestResultStatement(verdict))),
  );
});

Deno.test("verifyEnvelope() refuses a signed test result that is not pawl's", async (t) => {
  const key = await rfcKey();
  const statement = JSON.parse(
    JSON.stringify(buildTestResultStatement(testedVerdict())),
  );
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "a test result without pawl's facts",
      { ...statement.predicate, pawl: undefined },
      /its test result is not pawl's: it has no "pawl" field/,
    ],
    [
      "a test result whose decision is not pawl's",
      {
        ...statement.predicate,
        pawl: { ...statement.predicate.pawl, decision: "PASSED" },
      },
      /its test result's "pawl\.decision" is "PASSED"/,
    ],
    [
      "a test result without finding counts",
      {
        ...statement.predicate,
        pawl: { ...statement.predicate.pawl, findings: { blocking: -1 } },
      },
      /lacks "pawl\.base", "pawl\.now" or "pawl\.findings" counts/,
    ],
  ];
  for (const [name, predicate, message] of cases) {
    await t.step(name, async () => {
      const envelope = await signStatement({ ...statement, predicate }, key);
      const result = await verifyEnvelope(
        json(envelope),
        RFC8032_PUBLIC_PEM,
        OPTIONS,
      );
      assert.ok(!result.valid);
      assert.equal(result.problem, "statement");
      assert.match(result.message, message);
    });
  }
});

Deno.test("verifyEnvelope() accepts what DSSE allows: no keyid, an empty keyid, URL-safe base64", async () => {
  const envelope = await signVerdict(sampleVerdict(), await rfcKey());
  const sig = envelope.signatures[0]!.sig;
  const urlSafe = (text: string) =>
    text.replaceAll("+", "-").replaceAll("/", "_");
  const variants: DsseEnvelope[] = [
    { ...envelope, signatures: [{ sig } as { keyid: string; sig: string }] },
    { ...envelope, signatures: [{ keyid: "", sig }] },
    {
      ...envelope,
      payload: urlSafe(envelope.payload),
      signatures: [{ keyid: RFC8032_KEYID, sig: urlSafe(sig) }],
    },
  ];
  for (const variant of variants) {
    const result = await verifyEnvelope(json(variant), RFC8032_PUBLIC_PEM);
    assert.ok(result.valid, JSON.stringify(result));
  }
});

Deno.test("verifyEnvelope() rejects every broken, tampered or foreign envelope", async (t) => {
  const key = await rfcKey();
  const other = await readSigningKey(
    (await generateKeyPair()).privateKeyPem,
    "other.key",
  );
  const good = await signVerdict(sampleVerdict(), key);
  const goodSig = good.signatures[0]!;
  const payload = payloadBytes(good);
  const flip = (index: number) => {
    const bytes = payload.slice();
    bytes[index] = bytes[index]! ^ 0x01;
    return withPayload(good, bytes);
  };
  const statement = buildStatement(sampleVerdict()) as unknown as Record<
    string,
    unknown
  >;
  const rsa = await otherKeyPems("RSA");
  const cases: [string, string, VerifyProblem, RegExp, string?][] = [
    [
      "not JSON",
      "{",
      "envelope",
      /^Envelope "verdict\.dsse\.json" is not JSON$/,
    ],
    [
      "a JSON array",
      "[]",
      "envelope",
      /not a DSSE envelope: not a JSON object/,
    ],
    [
      "an unknown field",
      json({ ...good, payloadUtf8: "x" }),
      "envelope",
      /unknown field "payloadUtf8"/,
    ],
    [
      "no payload",
      json({ payloadType: good.payloadType, signatures: good.signatures }),
      "envelope",
      /"payload" is missing or not a string/,
    ],
    [
      "a signature with an unknown field",
      json({ ...good, signatures: [{ ...goodSig, cert: "x" }] }),
      "envelope",
      /signature 1 has unknown field "cert"/,
    ],
    [
      "a signature without sig",
      json({ ...good, signatures: [{ keyid: goodSig.keyid }] }),
      "envelope",
      /signature 1 has no "sig" string/,
    ],
    [
      "another payloadType",
      json({ ...good, payloadType: "application/json" }),
      "payload_type",
      /has payloadType "application\/json": a signed pawl verdict has "application\/vnd\.in-toto\+json"/,
    ],
    [
      "no signature",
      json({ ...good, signatures: [] }),
      "signature_count",
      /has 0 signatures: pawl accepts exactly one/,
    ],
    [
      "the signature twice",
      json({ ...good, signatures: [goodSig, goodSig] }),
      "signature_count",
      /has 2 signatures/,
    ],
    [
      "a second signature by another key",
      json({
        ...good,
        signatures: [
          goodSig,
          (await signVerdict(sampleVerdict(), other))
            .signatures[0]!,
        ],
      }),
      "signature_count",
      /has 2 signatures/,
    ],
    [
      "another keyid",
      json({ ...good, signatures: [{ ...goodSig, keyid: other.keyid }] }),
      "keyid",
      new RegExp(
        `is signed by keyid "${
          other.keyid.replace(/[+/]/g, "\\$&")
        }", not by key "pawl\\.pub" \\(SHA256:`,
      ),
    ],
    [
      "a keyid with terminal escapes",
      json({ ...good, signatures: [{ ...goodSig, keyid: "\u001b[2J" }] }),
      "keyid",
      /keyid "\\u001b\[2J"/,
    ],
    [
      "a payload with whitespace in its base64",
      json({ ...good, payload: ` ${good.payload}` }),
      "encoding",
      /payload is not valid base64/,
    ],
    [
      "a payload without padding",
      json({ ...good, payload: good.payload.replace(/=+$/, "") }),
      "encoding",
      /payload is not valid base64/,
    ],
    [
      "a signature that is not base64",
      json({ ...good, signatures: [{ ...goodSig, sig: "!!!!" }] }),
      "encoding",
      /signature is not valid base64/,
    ],
    [
      "a truncated signature",
      json({
        ...good,
        signatures: [{
          ...goodSig,
          sig: encodeBase64(decodeBase64(goodSig.sig)!.subarray(0, 63)),
        }],
      }),
      "signature",
      /signature is 63 bytes: an Ed25519 signature is 64/,
    ],
    [
      "the first payload byte changed",
      json(flip(0)),
      "signature",
      /signature does not verify with key "pawl\.pub" \(SHA256:/,
    ],
    [
      "a middle payload byte changed",
      json(flip(payload.length >> 1)),
      "signature",
      /does not verify/,
    ],
    [
      "the last payload byte changed",
      json(flip(payload.length - 1)),
      "signature",
      /does not verify/,
    ],
    [
      "a byte appended to the payload",
      json(withPayload(good, new Uint8Array([...payload, 0x20]))),
      "signature",
      /does not verify/,
    ],
    [
      "a signature byte changed",
      json({
        ...good,
        signatures: [{
          ...goodSig,
          sig: encodeBase64(
            decodeBase64(goodSig.sig)!.map((b, i) => i === 10 ? b ^ 1 : b),
          ),
        }],
      }),
      "signature",
      /does not verify/,
    ],
    [
      "a signature by another key under this key's keyid",
      json({
        ...good,
        signatures: [{
          keyid: RFC8032_KEYID,
          sig: (await signVerdict(sampleVerdict(), other)).signatures[0]!.sig,
        }],
      }),
      "signature",
      /does not verify/,
    ],
    [
      "a bad signature over a payload that is not JSON",
      json(withPayload(good, new TextEncoder().encode("not json"))),
      "signature",
      /does not verify/,
    ],
    [
      "a private key given as the public key",
      json(good),
      "key",
      /^Cannot read public key "pawl\.pub": a private key/,
      RFC8032_PRIVATE_PEM,
    ],
    [
      "an RSA public key",
      json(good),
      "key",
      /^Cannot read public key "pawl\.pub": not an Ed25519 key: the public key is RSA/,
      rsa.publicPem,
    ],
    [
      "the wrong public key",
      json({ ...good, signatures: [{ sig: goodSig.sig }] }),
      "signature",
      /does not verify/,
      other.publicKeyPem,
    ],
    [
      "a signed payload that is not JSON",
      json(
        await signEnvelope(
          IN_TOTO_PAYLOAD_TYPE,
          new TextEncoder().encode("hello"),
          key,
        ),
      ),
      "statement",
      /is signed, but its payload is not UTF-8 JSON/,
    ],
    [
      "a signed statement of another type",
      json(
        await signStatement({
          ...statement,
          _type: "https://in-toto.io/Statement/v0.1",
        }, key),
      ),
      "statement",
      /not an in-toto Statement v1: "_type" is "https:\/\/in-toto\.io\/Statement\/v0\.1"/,
    ],
    [
      "a signed statement about something else",
      json(
        await signStatement({
          ...statement,
          predicateType: "https://slsa.dev/provenance/v1",
        }, key),
      ),
      "statement",
      /is signed, but its statement is not one pawl signs: "predicateType" is "https:\/\/slsa\.dev\/provenance\/v1", expected "https:\/\/pawl\.dev\/verdict\/v1" or "https:\/\/in-toto\.io\/attestation\/test-result\/v0\.1"/,
    ],
    [
      "a signed statement with two subjects",
      json(
        await signStatement({
          ...statement,
          subject: [
            ...(statement["subject"] as unknown[]),
            ...(statement["subject"] as unknown[]),
          ],
        }, key),
      ),
      "statement",
      /does not have exactly one "subject"/,
    ],
    [
      "a signed statement with an abbreviated commit",
      json(
        await signStatement({
          ...statement,
          subject: [{ name: "r", digest: { gitCommit: HEAD.slice(0, 12) } }],
        }, key),
      ),
      "statement",
      /full "gitCommit" digest/,
    ],
    [
      "a signed statement whose verdict is about another head",
      json(
        await signStatement({
          ...statement,
          subject: [{ name: "r", digest: { gitCommit: "a".repeat(40) } }],
        }, key),
      ),
      "statement",
      /its verdict's head "8e7d6c5b4a39.*" is not the subject's gitCommit "a{40}"/,
    ],
    [
      "a signed verdict without a decision",
      json(
        await signStatement({
          ...statement,
          predicate: { ...sampleVerdict(), decision: "undecided" },
        }, key),
      ),
      "statement",
      /"decision" is "undecided"/,
    ],
  ];
  for (const [name, text, problem, message, keyPem] of cases) {
    await t.step(name, async () => {
      const result = await verifyEnvelope(
        text,
        keyPem ?? RFC8032_PUBLIC_PEM,
        OPTIONS,
      );
      assert.equal(result.valid, false, name);
      if (result.valid) return;
      assert.equal(result.problem, problem, result.message);
      assert.match(result.message, message);
      assert.doesNotMatch(result.message, /\.$/);
    });
  }
});

Deno.test("verifyEnvelope() rejects a valid signature on another head when --head is given", async () => {
  const envelope = await signVerdict(sampleVerdict(), await rfcKey());
  const result = await verifyEnvelope(json(envelope), RFC8032_PUBLIC_PEM, {
    ...OPTIONS,
    head: "f".repeat(40),
  });
  assert.deepEqual(result, {
    valid: false,
    problem: "head",
    message:
      `Envelope "verdict.dsse.json" is a verdict on head "${HEAD}", not on "${
        "f".repeat(40)
      }"`,
  });
});

Deno.test("verifyEnvelope() holds --head to the whole signed commit: a prefix or an extension is another head", async (t) => {
  const envelope = json(await signVerdict(sampleVerdict(), await rfcKey()));
  const cases: [string, string][] = [
    ["a 12-digit prefix", HEAD.slice(0, 12)],
    ["a 7-digit prefix", HEAD.slice(0, 7)],
    ["all but the last digit", HEAD.slice(0, -1)],
    ["one digit more", `${HEAD}0`],
    ["the empty string", ""],
    ["surrounding spaces", ` ${HEAD} `],
  ];
  for (const [name, head] of cases) {
    await t.step(name, async () => {
      const result = await verifyEnvelope(envelope, RFC8032_PUBLIC_PEM, {
        ...OPTIONS,
        head,
      });
      assert.equal(result.valid, false);
      assert.equal(!result.valid && result.problem, "head");
    });
  }
  await t.step("the whole commit in any case is the head", async () => {
    for (const head of [HEAD, HEAD.toUpperCase()]) {
      const result = await verifyEnvelope(envelope, RFC8032_PUBLIC_PEM, {
        ...OPTIONS,
        head,
      });
      assert.equal(result.valid, true);
    }
  });
});

Deno.test("verifyEnvelope() names the envelope and the key by default", async (t) => {
  const key = await rfcKey();
  const good = await signVerdict(sampleVerdict(), key);
  await t.step('an envelope that is not JSON is "envelope"', async () => {
    assert.deepEqual(await verifyEnvelope("{", RFC8032_PUBLIC_PEM), {
      valid: false,
      problem: "envelope",
      message: 'Envelope "envelope" is not JSON',
    });
  });
  await t.step('a key that is not a key is "public key"', async () => {
    const result = await verifyEnvelope(json(good), "hello");
    assert.equal(result.valid, false);
    assert.equal(!result.valid && result.problem, "key");
    assert.equal(
      !result.valid && result.message,
      'Cannot read public key "public key": not PEM: no "-----BEGIN" line',
    );
  });
  await t.step(
    "a signature by another key names the key and its keyid",
    async () => {
      const other = await readSigningKey(
        (await generateKeyPair()).privateKeyPem,
        "other.key",
      );
      const foreign = await signVerdict(sampleVerdict(), other);
      const result = await verifyEnvelope(json(foreign), RFC8032_PUBLIC_PEM);
      assert.equal(
        !result.valid && result.message,
        `Envelope "envelope" is signed by keyid "${other.keyid}", not by key "public key" (${RFC8032_KEYID})`,
      );
    },
  );
});

Deno.test("verifyEnvelope() says which field of the envelope is wrong", async (t) => {
  const good = await signVerdict(sampleVerdict(), await rfcKey());
  const goodSig = good.signatures[0]!;
  const prefix = 'Envelope "verdict.dsse.json" is not a DSSE envelope: ';
  const cases: [string, unknown, string][] = [
    ["null", null, "not a JSON object"],
    [
      "no payloadType",
      { payload: good.payload, signatures: good.signatures },
      '"payloadType" is missing or not a string',
    ],
    [
      "a payloadType that is not a string",
      { ...good, payloadType: 1 },
      '"payloadType" is missing or not a string',
    ],
    [
      "a payload that is not a string",
      { ...good, payload: [good.payload] },
      '"payload" is missing or not a string',
    ],
    [
      "no signatures",
      { payloadType: good.payloadType, payload: good.payload },
      '"signatures" is missing or not an array',
    ],
    [
      "signatures that are an object",
      { ...good, signatures: goodSig },
      '"signatures" is missing or not an array',
    ],
    [
      "a second signature that is not an object",
      { ...good, signatures: [goodSig, [goodSig.sig]] },
      "signature 2 is not an object",
    ],
    [
      "a second signature that is null",
      { ...good, signatures: [goodSig, null] },
      "signature 2 is not an object",
    ],
    [
      "a second signature with an unknown field",
      { ...good, signatures: [goodSig, { ...goodSig, cert: "x" }] },
      'signature 2 has unknown field "cert"',
    ],
    [
      "a sig that is not a string",
      { ...good, signatures: [{ keyid: goodSig.keyid, sig: 1 }] },
      'signature 1 has no "sig" string',
    ],
    [
      "a keyid that is not a string",
      { ...good, signatures: [{ keyid: 1, sig: goodSig.sig }] },
      'signature 1 has a "keyid" that is not a string',
    ],
    [
      "a keyid that is null",
      { ...good, signatures: [{ keyid: null, sig: goodSig.sig }] },
      'signature 1 has a "keyid" that is not a string',
    ],
  ];
  for (const [name, value, detail] of cases) {
    await t.step(name, async () => {
      assert.deepEqual(
        await verifyEnvelope(json(value), RFC8032_PUBLIC_PEM, OPTIONS),
        { valid: false, problem: "envelope", message: prefix + detail },
      );
    });
  }
});

Deno.test("verifyEnvelope() quotes an untrusted value cut at 80 characters", async (t) => {
  const good = await signVerdict(sampleVerdict(), await rfcKey());
  const cases: [string, unknown, string][] = [
    ["80 characters are shown whole", "x".repeat(80), `"${"x".repeat(80)}"`],
    ["81 characters are cut at 80", "x".repeat(81), `"${"x".repeat(80)}…"`],
  ];
  for (const [name, payloadType, quoted] of cases) {
    await t.step(name, async () => {
      const result = await verifyEnvelope(
        json({ ...good, payloadType }),
        RFC8032_PUBLIC_PEM,
        OPTIONS,
      );
      assert.equal(
        !result.valid && result.message,
        `Envelope "verdict.dsse.json" has payloadType ${quoted}: a signed pawl verdict has "application/vnd.in-toto+json"`,
      );
    });
  }
});

Deno.test("verifyEnvelope() holds an Ed25519 signature to 64 bytes", async (t) => {
  const good = await signVerdict(sampleVerdict(), await rfcKey());
  const sig = decodeBase64(good.signatures[0]!.sig)!;
  for (const bytes of [new Uint8Array([...sig, 0]), sig.subarray(0, 1)]) {
    await t.step(`${bytes.length} bytes`, async () => {
      const result = await verifyEnvelope(
        json({ ...good, signatures: [{ sig: encodeBase64(bytes) }] }),
        RFC8032_PUBLIC_PEM,
        OPTIONS,
      );
      assert.deepEqual(result, {
        valid: false,
        problem: "signature",
        message: `Envelope "verdict.dsse.json" signature is ${bytes.length} ${
          bytes.length === 1 ? "byte" : "bytes"
        }: an Ed25519 signature is 64`,
      });
    });
  }
});

Deno.test("verifyEnvelope() reads only a signed in-toto statement of pawl's, and says what else it got", async (t) => {
  const key = await rfcKey();
  const statement = JSON.parse(
    JSON.stringify(buildStatement(sampleVerdict())),
  ) as Record<string, unknown>;
  const predicate = statement["predicate"] as Record<string, unknown>;
  const subject = { name: "./some-repo", digest: { gitCommit: HEAD } };
  const encode = (text: string) => new TextEncoder().encode(text);
  const cases: [string, Uint8Array, string][] = [
    [
      "a payload that starts with a byte order mark",
      new Uint8Array([0xef, 0xbb, 0xbf, ...encode(JSON.stringify(statement))]),
      "its payload is not UTF-8 JSON",
    ],
    [
      "a payload with a byte that is not UTF-8 inside a string",
      new Uint8Array([
        ...encode('{"_type": "'),
        0xff,
        ...encode('"}'),
      ]),
      "its payload is not UTF-8 JSON",
    ],
    [
      "a JSON array",
      encode("[]"),
      "its payload is not a JSON object",
    ],
    [
      "a JSON null",
      encode("null"),
      "its payload is not a JSON object",
    ],
    [
      "a statement without a type",
      encode(JSON.stringify({ ...statement, _type: undefined })),
      'its payload is not an in-toto Statement v1: "_type" is "undefined"',
    ],
    [
      "a statement whose type is a number",
      encode(JSON.stringify({ ...statement, _type: 1 })),
      'its payload is not an in-toto Statement v1: "_type" is "1"',
    ],
    ...["toString", "constructor", "__proto__", "hasOwnProperty"].map((
      type,
    ): [string, Uint8Array, string] => [
      `a predicateType named like an object's own property: ${type}`,
      encode(JSON.stringify({ ...statement, predicateType: type })),
      `its statement is not one pawl signs: "predicateType" is "${type}", expected "https://pawl.dev/verdict/v1" or "https://in-toto.io/attestation/test-result/v0.1"`,
    ]),
    [
      "a predicateType that is a list holding pawl's type",
      encode(
        JSON.stringify({
          ...statement,
          predicateType: ["https://pawl.dev/verdict/v1"],
        }),
      ),
      `its statement is not one pawl signs: "predicateType" is "[\\"https://pawl.dev/verdict/v1\\"]", expected "https://pawl.dev/verdict/v1" or "https://in-toto.io/attestation/test-result/v0.1"`,
    ],
    [
      "a predicateType that is not a string",
      encode(JSON.stringify({ ...statement, predicateType: ["x"] })),
      `its statement is not one pawl signs: "predicateType" is "[\\"x\\"]", expected "https://pawl.dev/verdict/v1" or "https://in-toto.io/attestation/test-result/v0.1"`,
    ],
    [
      "a subject that is an object, not a list",
      encode(JSON.stringify({ ...statement, subject })),
      'its statement does not have exactly one "subject"',
    ],
    [
      "no subject at all",
      encode(JSON.stringify({ ...statement, subject: [] })),
      'its statement does not have exactly one "subject"',
    ],
    ...([
      ["a subject that is not an object", ["x"]],
      ["a subject without a name", [{ digest: subject.digest }]],
      ["a subject whose name is a number", [{ ...subject, name: 1 }]],
      ["a subject without a digest", [{ name: subject.name }]],
      ["a digest that is a string", [{ ...subject, digest: HEAD }]],
      ["a gitCommit that is a list holding the commit", [{
        ...subject,
        digest: { gitCommit: [HEAD] },
      }]],
      ["a gitCommit that is a number", [{
        ...subject,
        digest: { gitCommit: 1 },
      }]],
      ["a commit in upper case", [{
        ...subject,
        digest: { gitCommit: HEAD.toUpperCase() },
      }]],
      ["a commit of 41 digits", [{
        ...subject,
        digest: { gitCommit: `${HEAD}0` },
      }]],
      ["a commit after other text", [{
        ...subject,
        digest: { gitCommit: `x${HEAD}` },
      }]],
    ] as const).map(([name, value]): [string, Uint8Array, string] => [
      name,
      encode(JSON.stringify({ ...statement, subject: value })),
      'its subject is not a name with a full "gitCommit" digest',
    ]),
    [
      "a predicate that is a list",
      encode(JSON.stringify({ ...statement, predicate: [predicate] })),
      'its "predicate" is not an object',
    ],
    [
      "a predicate that is null",
      encode(JSON.stringify({ ...statement, predicate: null })),
      'its "predicate" is not an object',
    ],
    ...["head", "base", "repo", "now", "findings"].map((
      field,
    ): [string, Uint8Array, string] => [
      `a verdict without "${field}"`,
      encode(
        JSON.stringify({
          ...statement,
          predicate: { ...predicate, [field]: 7 },
        }),
      ),
      'its verdict lacks "head", "base", "repo", "now" or "findings"',
    ]),
  ];
  for (const [name, payload, detail] of cases) {
    await t.step(name, async () => {
      const envelope = await signEnvelope(IN_TOTO_PAYLOAD_TYPE, payload, key);
      assert.deepEqual(
        await verifyEnvelope(json(envelope), RFC8032_PUBLIC_PEM, OPTIONS),
        {
          valid: false,
          problem: "statement",
          message: `Envelope "verdict.dsse.json" is signed, but ${detail}`,
        },
      );
    });
  }
});

Deno.test("verifyEnvelope() reads the verdict's fields from the signed statement", async (t) => {
  const key = await rfcKey();
  const statement = JSON.parse(
    JSON.stringify(buildStatement(sampleVerdict())),
  ) as Record<string, unknown>;
  const predicate = statement["predicate"] as Record<string, unknown>;
  const sha256 = "ab".repeat(32);
  const verify = async (value: unknown) =>
    await verifyEnvelope(
      json(await signStatement(value, key)),
      RFC8032_PUBLIC_PEM,
      OPTIONS,
    );
  await t.step("a SHA-256 commit is a full commit", async () => {
    const result = await verify({
      ...statement,
      subject: [{ name: "r", digest: { gitCommit: sha256 } }],
      predicate: { ...predicate, head: sha256, decision: "accept" },
    });
    assert.ok(result.valid, JSON.stringify(result));
    assert.equal(result.verdict.head, sha256);
    assert.equal(result.verdict.decision, "accept");
  });
  await t.step("only a finding whose blocking is true blocks", async () => {
    const result = await verify({
      ...statement,
      predicate: {
        ...predicate,
        findings: [
          { blocking: true },
          { blocking: "true" },
          { blocking: 1 },
          { blocking: false },
          null,
          [{ blocking: true }],
          { blocking: true },
        ],
      },
    });
    assert.ok(result.valid, JSON.stringify(result));
    assert.equal(result.verdict.findings, 7);
    assert.equal(result.verdict.blocking, 2);
  });
});

Deno.test("verifyEnvelope() reads pawl's facts from a signed test result", async (t) => {
  const key = await rfcKey();
  const statement = JSON.parse(
    JSON.stringify(buildTestResultStatement(testedVerdict())),
  ) as Record<string, unknown>;
  const predicate = statement["predicate"] as Record<string, unknown>;
  const facts = predicate["pawl"] as Record<string, unknown>;
  const verify = async (pawl: unknown, subject?: unknown) =>
    await verifyEnvelope(
      json(
        await signStatement({
          ...statement,
          ...(subject === undefined ? {} : { subject }),
          predicate: { ...predicate, pawl },
        }, key),
      ),
      RFC8032_PUBLIC_PEM,
      OPTIONS,
    );
  await t.step(
    "the repository is the subject's name, the findings both counts",
    async () => {
      const result = await verify(
        {
          ...facts,
          decision: "accept",
          findings: { blocking: 0, advisory: 5 },
        },
        [{ name: "other/repo", digest: { gitCommit: "c".repeat(40) } }],
      );
      assert.ok(result.valid, JSON.stringify(result));
      assert.deepEqual(result.verdict, {
        kind: "test-result",
        decision: "accept",
        head: "c".repeat(40),
        base: facts["base"],
        repo: "other/repo",
        now: facts["now"],
        findings: 5,
        blocking: 0,
      });
    },
  );
  const lacks =
    'its test result lacks "pawl.base", "pawl.now" or "pawl.findings" counts';
  const cases: [string, unknown, string][] = [
    [
      "pawl's facts as a list",
      [facts],
      'its test result is not pawl\'s: it has no "pawl" field',
    ],
    ["no base", { ...facts, base: 1 }, lacks],
    ["no now", { ...facts, now: null }, lacks],
    ["findings that are a list", { ...facts, findings: [1, 1] }, lacks],
    ["no blocking count", { ...facts, findings: { advisory: 1 } }, lacks],
    ["no advisory count", { ...facts, findings: { blocking: 1 } }, lacks],
    ["a fractional count", {
      ...facts,
      findings: { blocking: 1.5, advisory: 0 },
    }, lacks],
    ["a negative advisory count", {
      ...facts,
      findings: { blocking: 1, advisory: -1 },
    }, lacks],
    [
      "a count as text",
      { ...facts, findings: { blocking: "1", advisory: 0 } },
      lacks,
    ],
  ];
  for (const [name, pawl, detail] of cases) {
    await t.step(name, async () => {
      assert.deepEqual(await verify(pawl), {
        valid: false,
        problem: "statement",
        message: `Envelope "verdict.dsse.json" is signed, but ${detail}`,
      });
    });
  }
  await t.step("zero counts are counts", async () => {
    const result = await verify({
      ...facts,
      findings: { blocking: 0, advisory: 0 },
    });
    assert.ok(result.valid, JSON.stringify(result));
    assert.equal(result.verdict.findings, 0);
  });
});

Deno.test("verifyEnvelope() reads a payload in URL-safe base64, as DSSE allows", async () => {
  const key = await rfcKey();
  const statement = JSON.parse(
    JSON.stringify(buildStatement(sampleVerdict())),
  ) as Record<string, unknown>;
  const predicate = statement["predicate"] as Record<string, unknown>;
  // Text whose standard base64 holds both "+" and "/", wherever it falls.
  const note = "?>".repeat(12) + "??>>".repeat(6) + "???>>>".repeat(4);
  const envelope = await signStatement(
    { ...statement, predicate: { ...predicate, note } },
    key,
  );
  assert.match(envelope.payload, /\+/);
  assert.match(envelope.payload, /\//);
  const urlSafe = {
    ...envelope,
    payload: envelope.payload.replaceAll("+", "-").replaceAll("/", "_"),
  };
  const result = await verifyEnvelope(json(urlSafe), RFC8032_PUBLIC_PEM);
  assert.ok(result.valid, JSON.stringify(result));
});
