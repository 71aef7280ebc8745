/**
 * `pawl check --out-test-result` signs the verdict as the standard in-toto
 * test-result predicate, next to pawl's own verdict predicate. Both are
 * checked by a verifier that is not pawl's: Python's `cryptography`
 * (Debian's python3-cryptography) verifies the DSSE v1 PAE signature, and
 * the same script checks the statement's shape against the predicate's spec.
 */
import assert from "node:assert/strict";
import { check, explain, pawl } from "./_cli.ts";
import { buildRepo, defaultBaseFiles, type TestRepo } from "./_repo.ts";

/** argv: public key PEM, envelope; prints the statement, exit 1 on any problem. */
const PY_VERIFY_STATEMENT = `
import base64, json, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

def b64(text):
    return base64.b64decode(text.encode("ascii"), validate=True)

pub = load_pem_public_key(open(sys.argv[1], "rb").read())
assert isinstance(pub, Ed25519PublicKey), "not Ed25519"
env = json.load(open(sys.argv[2]))
assert env["payloadType"] == "application/vnd.in-toto+json", env["payloadType"]
payload = b64(env["payload"])
ptype = env["payloadType"].encode()
pae = b"DSSEv1 %d %s %d %s" % (len(ptype), ptype, len(payload), payload)
pub.verify(b64(env["signatures"][0]["sig"]), pae)  # raises when invalid
st = json.loads(payload)
assert st["_type"] == "https://in-toto.io/Statement/v1"
assert len(st["subject"]) == 1 and len(st["subject"][0]["digest"]["gitCommit"]) == 40
if st["predicateType"] == "https://in-toto.io/attestation/test-result/v0.1":
    p = st["predicate"]
    assert p["result"] in ("PASSED", "WARNED", "FAILED"), p["result"]
    assert isinstance(p["configuration"], list) and p["configuration"]
    for rd in p["configuration"]:
        assert isinstance(rd["name"], str) and rd["digest"], rd
        assert all(isinstance(v, str) for v in rd["digest"].values())
    for key in ("passedTests", "warnedTests", "failedTests"):
        assert all(isinstance(t, str) for t in p.get(key, [])), key
    if p["result"] == "PASSED":
        assert not p.get("warnedTests") and not p.get("failedTests")
print(json.dumps(st))
`;

async function pythonVerify(pub: string, envelope: string) {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", PY_VERIFY_STATEMENT, pub, envelope],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(out.code, 0, decoder.decode(out.stderr));
  return JSON.parse(decoder.decode(out.stdout));
}

Deno.test("pawl check --out-test-result signs an in-toto test-result statement Python verifies", async (t) => {
  await using repo: TestRepo = await buildRepo({
    // Mutation off: the notes it leaves on every judgement (mutants the
    // base's own properties let survive) would make the accept WARNED.
    base: {
      ...defaultBaseFiles(),
      "pawl.toml": "[mutation]\nenabled = false\n",
    },
    heads: {
      "agent/docs": { "NOTES.md": "An honest change.\n" },
      "agent/conftest": { "tests/conftest.py": "x = 1\n" },
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-test-result-" });
  try {
    const keygen = await pawl(["keygen", "--out", `${dir}/pawl.key`], {
      out: false,
    });
    assert.equal(keygen.code, 0, explain(keygen));
    const pub = `${dir}/pawl.key.pub`;

    await t.step(
      "an accept: PASSED, and the verdict envelope too",
      async () => {
        const result = await check(repo.dir, "agent/docs", {
          extra: [
            "--key",
            `${dir}/pawl.key`,
            "--out-signed",
            `${dir}/verdict.dsse.json`,
            "--out-test-result",
            `${dir}/test-result.dsse.json`,
          ],
        });
        assert.equal(result.code, 0, explain(result));
        const verdict = await pythonVerify(pub, `${dir}/verdict.dsse.json`);
        assert.equal(verdict.predicateType, "https://pawl.dev/verdict/v1");
        const st = await pythonVerify(pub, `${dir}/test-result.dsse.json`);
        assert.equal(
          st.predicateType,
          "https://in-toto.io/attestation/test-result/v0.1",
        );
        assert.deepEqual(st.subject, verdict.subject);
        assert.equal(st.predicate.result, "PASSED");
        assert.deepEqual(
          st.predicate.configuration.map((c: { name: string }) => c.name),
          result.verdict!.contract.files.map((f) => f.path),
        );
        assert.equal(
          st.predicate.pawl.contractDigest,
          result.verdict!.contract.digest,
        );
        assert.equal(
          st.predicate.pawl.seeds.fresh,
          verdict.predicate.tests.seeds.fresh,
        );
        // pawl verify accepts both statements it signs and names each.
        for (
          const [file, kind] of [
            ["verdict.dsse.json", "verdict"],
            ["test-result.dsse.json", "test result"],
          ]
        ) {
          const verified = await pawl([
            "verify",
            "--key",
            pub,
            "--envelope",
            `${dir}/${file}`,
            "--head",
            result.verdict!.head,
          ], { out: false });
          assert.equal(verified.code, 0, explain(verified));
          assert.match(
            verified.stdout,
            new RegExp(`^VALID {2}signed ${kind}\\b.*: ACCEPT\n`),
          );
        }
      },
    );

    await t.step("a reject: FAILED, naming the failed check", async () => {
      const result = await check(repo.dir, "agent/conftest", {
        extra: [
          "--key",
          `${dir}/pawl.key`,
          "--out-test-result",
          `${dir}/reject.dsse.json`,
        ],
      });
      assert.equal(result.code, 1, explain(result));
      const st = await pythonVerify(pub, `${dir}/reject.dsse.json`);
      assert.equal(st.predicate.result, "FAILED");
      assert.ok(st.predicate.failedTests.includes("pawl/harness"));
    });

    await t.step("pawl diff refuses it: no tests ran", async () => {
      const result = await check(repo.dir, "agent/docs", {
        command: "diff",
        extra: [
          "--key",
          `${dir}/pawl.key`,
          "--out-test-result",
          `${dir}/diff.dsse.json`,
        ],
      });
      assert.equal(result.code, 2, explain(result));
      assert.match(result.stderr, /pawl diff runs no tests/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
