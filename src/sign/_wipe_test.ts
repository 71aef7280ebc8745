import assert from "node:assert/strict";
import { usedThenWiped } from "./_wipe.ts";

Deno.test("usedThenWiped() hands the secret over whole and zeroes it after, whether its user returned or threw", async (t) => {
  await t.step("returned", async () => {
    const secret = new Uint8Array([7, 8, 9]);
    const seen = await usedThenWiped(secret, (b) => Promise.resolve([...b]));
    assert.deepEqual(seen, [7, 8, 9]);
    assert.deepEqual([...secret], [0, 0, 0]);
  });
  await t.step("threw", async () => {
    const secret = new Uint8Array([7, 8, 9]);
    await assert.rejects(
      () => usedThenWiped(secret, () => Promise.reject(new Error("bad key"))),
      /bad key/,
    );
    assert.deepEqual([...secret], [0, 0, 0]);
  });
});
