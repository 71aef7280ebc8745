import assert from "node:assert/strict";
import { formatBytes } from "./_format_bytes.ts";

Deno.test("formatBytes() picks B, KiB or MiB", async (t) => {
  for (
    const [bytes, text] of [
      [0, "0 B"],
      [1023, "1023 B"],
      [1024, "1.0 KiB"],
      [1536, "1.5 KiB"],
      [5 * 1024 * 1024, "5.0 MiB"],
    ] as const
  ) {
    await t.step(`${bytes} is ${text}`, () => {
      assert.equal(formatBytes(bytes), text);
    });
  }
});
