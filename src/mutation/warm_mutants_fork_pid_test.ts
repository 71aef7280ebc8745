/**
 * The warm engine against a test that tells a forked run from a fresh one
 * by the process id it saw at import: the mutants it sees must end in the
 * cold engine's outcomes.
 */
import { assertForkTellingHeadRunsCold } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs the head cold when its test can tell a forked run from a fresh one, so the weakening still shows: the process id it saw at import", async () => {
  await assertForkTellingHeadRunsCold("the process id at import");
});
