import assert from "node:assert/strict";
import { MAX_SLICES, WarmUp } from "./warm_up.ts";

Deno.test("WarmUp.stop() ends the warm-up after at most the slice under way", async () => {
  const warmUp = new WarmUp();
  await warmUp.stop();
  assert.ok(warmUp.slices <= 1, `${warmUp.slices} slices after stop()`);
  // Nothing runs after the stop.
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(warmUp.slices <= 1);
});

Deno.test("WarmUp runs its slices to the end on its own and never rejects", async () => {
  const warmUp = new WarmUp();
  assert.equal(await warmUp.done, undefined);
  assert.equal(warmUp.slices, MAX_SLICES);
  // Stopping a finished warm-up is harmless.
  await warmUp.stop();
  assert.equal(warmUp.slices, MAX_SLICES);
});
