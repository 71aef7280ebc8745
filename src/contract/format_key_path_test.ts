import assert from "node:assert/strict";
import { formatKeyPath } from "./format_key_path.ts";

Deno.test("formatKeyPath() writes a key path as a reader would look it up", async (t) => {
  const cases: [string, (string | number)[], string][] = [
    ["one key", ["version"], "version"],
    ["keys in keys", ["tests", "timeout_seconds"], "tests.timeout_seconds"],
    [
      "an index after a key",
      ["properties", 1, "min_examples"],
      "properties[1].min_examples",
    ],
    ["an index first", [0, "id"], "[0].id"],
    ["indexes in a row", ["grid", 2, 0], "grid[2][0]"],
    ["nothing", [], ""],
  ];
  for (const [name, path, want] of cases) {
    await t.step(name, () => assert.equal(formatKeyPath(path), want));
  }
});
