import assert from "node:assert/strict";
import { judgeSeedUse } from "./judge_seed_use.ts";
import { parseObservation } from "./observation.ts";
import { readLedgerRows, SEED_LEDGER_FILE } from "./read_ledger_rows.ts";

/** The findings for a seeded run (seed 9, 200 trials) whose contract test wrote `lines`. */
async function judgeLedger(lines: string[]): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-ledger-" });
  try {
    await Deno.writeTextFile(
      `${dir}/${SEED_LEDGER_FILE}`,
      lines.map((l) => `${l}\n`).join(""),
    );
    const observation = parseObservation([[
      '{"event":"hello","token":"t"}',
      '{"event":"configure"}',
    ]], "t");
    return judgeSeedUse([{ id: "c", nodeId: "t.py::test_c" }], {
      kind: "fresh",
      seed: 9,
      trials: 200,
      hypothesisSeeded: false,
      observation,
      ledger: await readLedgerRows(dir, 0),
      expectLedger: true,
    }).map((f) => `${f.rule}: ${f.message.replace(/^.*: /, "")}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const NO_COUNT =
  "seed.not_used: a seed-ledger row reports no trial count where 200 were injected";

Deno.test("A seed-ledger row without an integer trial count is no evidence the injected trials were used", async (t) => {
  const cases: [string, string, string[]][] = [
    ["all trials, held", '{"seed":9,"trials":200,"ok":true}', []],
    ["a failure found early", '{"seed":9,"trials":3,"ok":false}', []],
    [
      "the count written in exponent form",
      '{"seed":9,"trials":2e2,"ok":true}',
      [],
    ],
    ["no trials field, failed", '{"seed":9,"ok":false}', [NO_COUNT]],
    ["no trials field, held", '{"seed":9,"ok":true}', [NO_COUNT]],
    ["a null count", '{"seed":9,"trials":null,"ok":false}', [NO_COUNT]],
    ["the count as a string", '{"seed":9,"trials":"3","ok":false}', [NO_COUNT]],
    ["a fractional count", '{"seed":9,"trials":2.5,"ok":false}', [NO_COUNT]],
    ["a boolean count", '{"seed":9,"trials":true,"ok":false}', [NO_COUNT]],
    [
      "one good row and one without a count",
      '{"seed":9,"trials":200,"ok":true}\n{"seed":9,"ok":false}',
      [NO_COUNT],
    ],
  ];
  for (const [name, text, want] of cases) {
    await t.step(name, async () => {
      assert.deepEqual(await judgeLedger(text.split("\n")), want);
    });
  }
});
