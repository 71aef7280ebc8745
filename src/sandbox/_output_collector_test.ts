import assert from "node:assert/strict";
import fc from "fast-check";
import { OutputCollector } from "./_output_collector.ts";

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

Deno.test("OutputCollector keeps the first and last bytes within the cap, whatever the chunking", () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 30 }),
      fc.nat({ max: 400 }),
      fc.integer({ min: 0, max: 24 }),
      (chunks, limit, keep) => {
        const collector = new OutputCollector(limit, keep);
        const accepted = chunks.map((c) => collector.add(c));
        const all = concat(chunks);
        const within = all.subarray(0, Math.min(limit, all.length));
        assert.deepEqual(concat(accepted), within);
        assert.deepEqual(collector.headBytes(), within.slice(0, keep));
        assert.deepEqual(
          collector.tailBytes(),
          within.slice(Math.max(0, within.length - keep)),
        );
        assert.equal(collector.seenBytes, all.length);
        assert.equal(collector.exceeded, all.length > limit);
      },
    ),
    {
      // Output of exactly the cap is within it; one byte more is not.
      examples: [
        [[], 0, 0],
        [[new Uint8Array(5)], 5, 2],
        [[new Uint8Array(3), new Uint8Array(3)], 6, 4],
        [[new Uint8Array(3), new Uint8Array(4)], 6, 4],
      ],
    },
  );
});

Deno.test("OutputCollector holds 64 KiB at each end by default", () => {
  const collector = new OutputCollector(1 << 30);
  const chunk = new Uint8Array(1000).fill(120);
  for (let i = 0; i < 1000; i++) collector.add(chunk);
  assert.equal(collector.headBytes().length, 64 * 1024);
  assert.equal(collector.tailBytes().length, 64 * 1024);
  assert.equal(collector.seenBytes, 1_000_000);
});
