/**
 * The warm engine against a driver that reports a timeout no child had, as code
 * under test running in the driver's process could: it must end in the
 * cold engine's outcomes, never in a kill nobody showed.
 */
import { assertForgeryNotCounted } from "./_warm_hostile_driver.ts";

Deno.test("runWarmMutants() never counts a head kill its own report and stream do not show: a timeout no child had", async () => {
  await assertForgeryNotCounted("a timeout no child had");
});
