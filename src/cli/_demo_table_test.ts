import assert from "node:assert/strict";
import { type DemoRow, formatDemoTable } from "./_demo_table.ts";

const ADVICE =
  'Property "roundtrip_stable" (tests.properties.test_codec.test_decode_encode_identity) is registered in the base contract but the pull request removes it; restore it, or have a human remove it from tests/agent_contract.yaml in a separate change';

const ROWS: DemoRow[] = [
  {
    patch: "agent/honest-fix",
    verdict: "accept",
    rule: "-",
    reason: "contract held; 5 tests passed",
  },
  {
    patch: "agent/delete-property",
    verdict: "reject",
    rule: "property.removed",
    reason: `${ADVICE} (+1 more)`,
  },
];

Deno.test("formatDemoTable() fits the width and keeps the whole reason", async (t) => {
  for (const width of [120, 80, 64]) {
    await t.step(`${width} columns`, () => {
      const text = formatDemoTable(ROWS, width);
      const lines = text.trimEnd().split("\n");
      for (const line of lines) {
        assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
      }
      assert.equal(lines[0], "patch                  verdict  rule");
      assert.equal(lines[3], "    contract held; 5 tests passed");
      assert.equal(
        lines[2],
        "agent/honest-fix       accept   -",
      );
      assert.equal(
        lines[4],
        "agent/delete-property  reject   property.removed",
      );
      // Every word of the advice is there, in order: nothing was cut.
      const reason = lines.slice(5).map((l) => l.trim()).join(" ");
      assert.equal(reason, `${ADVICE} (+1 more)`);
      assert.ok(!text.includes("…"));
    });
  }
});
