import assert from "node:assert/strict";
import { prefetchModuleNames, readModuleNames } from "./read_module_names.ts";

Deno.test("prefetchModuleNames() asks the interpreter once: the static rules get the same answer", async () => {
  const environment = { command: ["python3", "-m", "pytest"] };
  prefetchModuleNames(environment);
  const first = readModuleNames(environment.command);
  // The same answer, not a second run of the interpreter.
  assert.equal(readModuleNames(environment.command), first);
  const names = await first;
  assert.ok(names.stdlib.has("json"));
  assert.match(names.interpreter ?? "", /\/python3$/);
});
