import { deepEqual, equal, rejects } from "node:assert/strict";
import { BatchReader } from "./_batch_reader.ts";
import { GitError } from "./git_error.ts";

/** A byte stream delivering `bytes` in pieces of `size` bytes. */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const piece = bytes.slice(offset, offset + size);
      offset += piece.length;
      controller.enqueue(piece);
    },
  });
}

const encode = (text: string) => new TextEncoder().encode(text);

Deno.test("BatchReader parses headers and bodies across any chunking", async (t) => {
  const body = new Uint8Array(3000).map((_, i) => (i * 7) & 0xff);
  const input = new Uint8Array([
    ...encode("aaaa blob 3000\n"),
    ...body,
    ...encode("\nbbbb missing\ncccc blob 0\n\n"),
  ]);
  for (
    const [chunk, buffer] of [[1, 4], [7, 16], [4096, 1 << 20], [1000, 64]]
  ) {
    await t.step(
      `chunks of ${chunk} bytes into a ${buffer}-byte buffer`,
      async () => {
        const reader = new BatchReader(
          streamOf(input, chunk as number),
          buffer,
        );
        equal(await reader.readLine(), "aaaa blob 3000");
        const parts: number[] = [];
        await reader.readBody(3000, (piece) => parts.push(...piece));
        deepEqual(new Uint8Array(parts), body);
        await reader.readNewline();
        equal(await reader.readLine(), "bbbb missing");
        equal(await reader.readLine(), "cccc blob 0");
        await reader.readBody(0);
        await reader.readNewline();
        equal(await reader.readLine(), null);
        await reader.cancel();
      },
    );
  }
});

Deno.test("BatchReader refuses truncated or malformed output", async (t) => {
  await t.step("a body cut short", async () => {
    const reader = new BatchReader(streamOf(encode("abc"), 2), 8);
    await rejects(reader.readBody(5), {
      name: "GitError",
      message: "Cannot parse git output: stream ended with 2 of 5 bytes unread",
    });
    await reader.cancel();
  });
  await t.step("a line cut short", async () => {
    const reader = new BatchReader(streamOf(encode("abc"), 2), 8);
    await rejects(reader.readLine(), GitError);
    await reader.cancel();
  });
  await t.step("a missing separator", async () => {
    const reader = new BatchReader(streamOf(encode("abX"), 2), 8);
    await reader.readBody(2);
    await rejects(reader.readNewline(), /expected a newline after an object$/);
    await reader.cancel();
  });
});
