import assert from "node:assert/strict";
import { appendOutputFile, writeOutputFile } from "./write_output_file.ts";

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

Deno.test("writeOutputFile() leaves a 0644 file in the named directory and no temp file", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-write-output-" });
  try {
    await t.step(
      "a new file is 0644 (makeTempFile alone gives 0600)",
      async () => {
        await writeOutputFile(`${dir}/verdict.json`, "{}\n");
        assert.equal(await modeOf(`${dir}/verdict.json`), 0o644);
        assert.equal(await Deno.readTextFile(`${dir}/verdict.json`), "{}\n");
      },
    );
    await t.step("a replaced 0600 file becomes 0644", async () => {
      await Deno.writeTextFile(`${dir}/old.sarif`, "stale", { mode: 0o600 });
      await Deno.chmod(`${dir}/old.sarif`, 0o600);
      await writeOutputFile(`${dir}/old.sarif`, "fresh");
      assert.equal(await modeOf(`${dir}/old.sarif`), 0o644);
      assert.equal(await Deno.readTextFile(`${dir}/old.sarif`), "fresh");
    });
    await t.step("an explicit mode is kept", async () => {
      await writeOutputFile(`${dir}/secret`, "x", { mode: 0o600 });
      assert.equal(await modeOf(`${dir}/secret`), 0o600);
    });
    await t.step("only the written files are in the directory", async () => {
      const names = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      assert.deepEqual(names.sort(), ["old.sarif", "secret", "verdict.json"]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendOutputFile() creates the ledger 0644 under umask 077 and keeps an existing file's mode", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-append-output-" });
  const umask = Deno.umask(0o077);
  try {
    await appendOutputFile(`${dir}/ledger.jsonl`, "a\n");
    await appendOutputFile(`${dir}/ledger.jsonl`, "b\n");
    assert.equal(await modeOf(`${dir}/ledger.jsonl`), 0o644);
    assert.equal(await Deno.readTextFile(`${dir}/ledger.jsonl`), "a\nb\n");
    await Deno.writeTextFile(`${dir}/own.jsonl`, "x\n");
    await Deno.chmod(`${dir}/own.jsonl`, 0o640);
    await appendOutputFile(`${dir}/own.jsonl`, "y\n");
    assert.equal(await modeOf(`${dir}/own.jsonl`), 0o640);
    assert.equal(await Deno.readTextFile(`${dir}/own.jsonl`), "x\ny\n");
  } finally {
    Deno.umask(umask);
    await Deno.remove(dir, { recursive: true });
  }
});
