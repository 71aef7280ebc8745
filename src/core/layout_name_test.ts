import assert from "node:assert/strict";
import { LAYOUT_NAMES, layoutName, layoutNumberOf } from "./layout_name.ts";

Deno.test("layoutNumberOf() reads a layout's name and its number alike", async (t) => {
  const table: [string, string | undefined][] = [
    ["agent-contract", "000"],
    ["000", "000"],
    ["invariants", "003"],
    ["003", "003"],
    ["seed-contracts", "002"],
    ["002", "002"],
    ["001", undefined],
    ["Agent-Contract", undefined],
    ["agent_contract", undefined],
    ["", undefined],
    ["toString", undefined],
  ];
  for (const [text, id] of table) {
    await t.step(JSON.stringify(text), () => {
      assert.equal(layoutNumberOf(text), id);
    });
  }
});

Deno.test("layoutName() names every layout by what it keeps, and leaves anything else as it is", () => {
  for (const [id, name] of Object.entries(LAYOUT_NAMES)) {
    assert.equal(layoutName(id), name);
    assert.equal(layoutNumberOf(name), id);
  }
  assert.equal(layoutName("constructor"), "constructor");
  assert.equal(layoutName("009"), "009");
});
