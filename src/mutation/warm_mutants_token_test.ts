/**
 * The warm engine against a driver that greets pawl without its channel's
 * token, as a process that found the socket but is not the driver pawl
 * started would: nothing it says is taken, and every mutant runs one
 * process each.
 */
import {
  assertAllRunCold,
  fixture,
  wrappedDriver,
} from "./_warm_mutants_fixture.ts";

Deno.test("runWarmMutants() takes nothing from a driver whose hello lacks the channel's token, and runs each mutant one process each", async () => {
  await using f = await fixture();
  // pawl's own driver, but greeting with another token.
  const driver = await wrappedDriver(
    f.root,
    'os.environ["PAWL_DRIVER_TOKEN"] = "0" * 32',
  );
  await assertAllRunCold(f, driver);
});
