import assert from "node:assert/strict";
import { finding } from "../../core/finding.ts";
import { buildVerdict } from "../../core/verdict.ts";
import type { Judgement } from "../judge_options.ts";
import { renderJunit } from "../../report/render_junit.ts";
import { renderMarkdown } from "../../report/render_markdown.ts";
import { renderSarif } from "../../report/render_sarif.ts";
import { renderUndecided } from "../../report/render_undecided.ts";
import { formatLedger, type LedgerRow } from "../../seeds/ledger_row.ts";
import { generateKeyPair } from "../../sign/generate_key_pair.ts";
import { readSigningKey } from "../../sign/signing_key.ts";
import { verifyEnvelope } from "../../sign/verify_envelope.ts";
import { verdictJson, writeOutputs } from "./write_outputs.ts";
import { writeUndecidedOutputs } from "./write_undecided_outputs.ts";

const HEAD = "b".repeat(40);

const ROW: LedgerRow = {
  seed: 7,
  trials: null,
  ok: false,
  "witness_sha256": "e".repeat(64),
  ts: 1796040000,
  layout: "000",
  id: "roundtrip_stable",
  kind: "fresh",
};

function judgement(): Judgement {
  return {
    verdict: buildVerdict([
      finding("property.removed", 'Property "p" was removed', {
        path: "tests/agent_contract.yaml",
        line: 3,
      }),
    ], {
      pawl: { version: "0.1.0" },
      now: "2026-11-30T12:00:00Z",
      repo: "/tmp/repo",
      base: "a".repeat(40),
      head: HEAD,
      contract: {
        layouts: ["000"],
        files: [{
          path: "tests/agent_contract.yaml",
          layout: "000",
          sha256: "c".repeat(64),
        }],
        digest: `sha256:${"d".repeat(64)}`,
        freezeBodyHashes: [],
      },
      options: { allowFixtureRotate: false, isolation: "auto" },
      isolation: null,
      tests: null,
    }),
    ledger: [ROW],
  };
}

Deno.test("writeOutputs() writes every output asked for", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_outputs_" });
  try {
    const pair = await generateKeyPair();
    const key = await readSigningKey(pair.privateKeyPem, "test key");
    const judged = judgement();
    await Deno.writeTextFile(`${dir}/summary.md`, "# before\n");
    await Deno.writeTextFile(`${dir}/ledger.jsonl`, "old\n");
    await writeOutputs(judged, {
      out: `${dir}/verdict.json`,
      outSigned: `${dir}/verdict.dsse.json`,
      ledger: `${dir}/ledger.jsonl`,
      sarif: `${dir}/pawl.sarif`,
      junit: `${dir}/pawl.xml`,
      markdown: `${dir}/pawl.md`,
      stepSummary: `${dir}/summary.md`,
    }, { signing: key });
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    assert.equal(await read("verdict.json"), verdictJson(judged));
    assert.equal(await read("ledger.jsonl"), "old\n" + formatLedger([ROW]));
    assert.equal(await read("pawl.sarif"), renderSarif(judged.verdict));
    assert.equal(await read("pawl.xml"), renderJunit(judged.verdict));
    const markdown = renderMarkdown(judged.verdict, { keyid: key.keyid });
    assert.equal(await read("pawl.md"), markdown);
    assert.equal(await read("summary.md"), "# before\n" + markdown);
    const verified = await verifyEnvelope(
      await read("verdict.dsse.json"),
      pair.publicKeyPem,
      { head: HEAD },
    );
    assert.equal(verified.valid, true, JSON.stringify(verified));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeUndecidedOutputs() turns every report asked for into undecided", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_outputs_" });
  try {
    const paths = {
      out: `${dir}/verdict.json`,
      sarif: `${dir}/pawl.sarif`,
      junit: `${dir}/pawl.xml`,
      codequality: `${dir}/pawl-codequality.json`,
      markdown: `${dir}/pawl.md`,
    };
    for (const path of Object.values(paths)) {
      await Deno.writeTextFile(path, "accept");
    }
    await writeUndecidedOutputs("Cannot decide: no clock", {
      ...paths,
      // A directory that does not exist is skipped, not an error.
      junit: `${dir}/missing/pawl.xml`,
    });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(paths.out)), {
      decision: "undecided",
      error: "Cannot decide: no clock",
    });
    const undecided = renderUndecided("Cannot decide: no clock");
    assert.equal(await Deno.readTextFile(paths.sarif), undecided.sarif);
    assert.equal(await Deno.readTextFile(paths.markdown), undecided.markdown);
    assert.equal(
      await Deno.readTextFile(paths.codequality),
      undecided.codequality,
    );
    assert.equal(await Deno.readTextFile(paths.junit), "accept");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
