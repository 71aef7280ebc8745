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
