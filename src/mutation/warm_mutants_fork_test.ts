/**
 * The warm engine against a test that tells a forked run from a fresh one
 * by a marker its first run leaves in the tree: the mutants it sees must
 * end in the cold engine's outcomes.
 */
import { assertForkTellingHeadRunsCold } from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() runs the head cold when its test can tell a forked run from a fresh one, so the weakening still shows: a marker its first run leaves in the tree", async () => {
  await assertForkTellingHeadRunsCold(
    "a marker the first run leaves in the tree",
  );
});
