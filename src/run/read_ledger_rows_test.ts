import assert from "node:assert/strict";
import { judgeSeedUse } from "./judge_seed_use.ts";
import { parseObservation } from "./observation.ts";
import {
  ledgerLineCount,
  MAX_LEDGER_BYTES,
  readLedgerRows,
  SEED_LEDGER_FILE,
} from "./read_ledger_rows.ts";

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

Deno.test("A seed ledger too large to read is named in the finding, not taken for a ledger with no rows", async () => {
  const row = '{"seed":9,"trials":200,"ok":true}';
  const lines = Array.from(
    { length: Math.ceil(MAX_LEDGER_BYTES / (row.length + 1)) + 1 },
    () => row,
  );
  assert.deepEqual(await judgeLedger(lines), [
    "seed.not_used: seed_ledger.jsonl is larger than 8 MiB, so pawl read none of its rows",
  ]);
  assert.deepEqual(await judgeLedger(lines.slice(0, 3)), []);
});

Deno.test("readLedgerRows() reads each row's seed, trials and ok as evidence, never as trusted input", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-ledger-" });
  const path = `${dir}/${SEED_LEDGER_FILE}`;
  try {
    await t.step("an absent ledger has no rows", async () => {
      assert.deepEqual(await readLedgerRows(dir, 0), []);
      assert.equal(await ledgerLineCount(dir), 0);
    });
    await t.step(
      "each field is read only when it has the right type",
      async () => {
        await Deno.writeTextFile(
          path,
          [
            '{"seed":9,"trials":200,"ok":true}',
            "",
            '{"seed":"9","trials":1.5,"ok":"yes"}',
            "   ",
            '{"seed":1,"ok":false}',
            "null",
            "not json",
            "[9,200,true]",
          ].join("\n"),
        );
        assert.equal(await ledgerLineCount(dir), 6);
        assert.deepEqual(await readLedgerRows(dir, 0), [
          { seed: 9, trials: 200, ok: true },
          { seed: null, trials: null, ok: null },
          { seed: 1, trials: null, ok: false },
          { seed: null, trials: null, ok: null },
          { seed: null, trials: null, ok: null },
          { seed: null, trials: null, ok: null },
        ]);
      },
    );
    await t.step("the rows before the run are skipped", async () => {
      assert.deepEqual(await readLedgerRows(dir, 5), [
        { seed: null, trials: null, ok: null },
      ]);
    });
    const unread = (why: string) => [{
      seed: null,
      trials: null,
      ok: null,
      unread: `seed_ledger.jsonl is ${why}`,
    }];
    await t.step(
      "a ledger at its size cap is read, one byte over is not, and says why",
      async () => {
        const row = '{"seed":9,"trials":200,"ok":true}\n';
        const pad = " ".repeat(MAX_LEDGER_BYTES - row.length);
        await Deno.writeTextFile(path, `${row}${pad}`);
        assert.equal(await ledgerLineCount(dir), 1);
        assert.deepEqual(await readLedgerRows(dir, 0), [
          { seed: 9, trials: 200, ok: true },
        ]);
        await Deno.writeTextFile(path, `${row}${pad} `);
        assert.equal(await ledgerLineCount(dir), 0);
        // Whatever the run skips: the rows after it cannot be told apart.
        assert.deepEqual(
          await readLedgerRows(dir, 1),
          unread("larger than 8 MiB"),
        );
      },
    );
    await t.step(
      "a symbolic link to a ledger elsewhere is not read",
      async () => {
        await Deno.writeTextFile(`${dir}/elsewhere`, '{"seed":9}\n');
        await Deno.remove(path);
        await Deno.symlink(`${dir}/elsewhere`, path);
        assert.equal(await ledgerLineCount(dir), 0);
        assert.deepEqual(
          await readLedgerRows(dir, 0),
          unread("not a regular file"),
        );
      },
    );
    await t.step("a directory named like the ledger is not read", async () => {
      await Deno.remove(path);
      await Deno.mkdir(path);
      assert.equal(await ledgerLineCount(dir), 0);
      assert.deepEqual(
        await readLedgerRows(dir, 0),
        unread("not a regular file"),
      );
    });
    await t.step(
      "a ledger pawl cannot look at is an error, not an empty ledger",
      async () => {
        await assert.rejects(() => readLedgerRows(`${dir}/elsewhere`, 0));
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
