import assert from "node:assert/strict";
import { didYouMean } from "./did_you_mean.ts";

Deno.test("didYouMean() suggests only near misses", async (t) => {
  const known = ["min_examples", "module", "name", "id"];
  const cases: [string, string | undefined][] = [
    ["min_exampels", "min_examples"],
    ["Min_Examples", "min_examples"],
    ["modul", "module"],
    ["nam", "name"],
    ["owner", undefined],
    ["examples", undefined],
    ["i", undefined],
  ];
  for (const [name, expected] of cases) {
    await t.step(name, () => assert.equal(didYouMean(name, known), expected));
  }
});
