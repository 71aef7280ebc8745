import assert from "node:assert/strict";
import {
  installObserver,
  MAX_STREAM_BYTES,
  ObserverChannel,
} from "./observer.ts";

async function withChannel(
  body: (channel: ObserverChannel) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-chan-" });
  try {
    const channel = await ObserverChannel.open(await installObserver(root));
    await body(channel);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function send(path: string, writes: Iterable<string>): Promise<void> {
  const conn = await Deno.connect({ transport: "unix", path });
  const encoder = new TextEncoder();
  for (const text of writes) {
    const bytes = encoder.encode(text);
    for (let n = 0; n < bytes.length;) {
      n += await conn.write(bytes.subarray(n));
    }
  }
  conn.close();
}

Deno.test("the channel keeps every line of a stream written a few bytes at a time", async () => {
  await withChannel(async (channel) => {
    const lines = [
      JSON.stringify({ event: "hello", token: channel.token }),
      JSON.stringify({ event: "configure", seed: "7" }),
      ...Array.from({ length: 300 }, (_, i) =>
        JSON.stringify({
          event: "report",
          nodeid: `t.py::test_${i}`,
          when: "call",
          outcome: i % 3 === 0 ? "failed" : "passed",
          xfail: false,
          text: "",
        })),
      JSON.stringify({ event: "finish", exitstatus: 1 }),
    ];
    const text = lines.map((l) => `${l}\n`).join("");
    // Pieces that cut lines anywhere, each its own write.
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += 7) pieces.push(text.slice(i, i + 7));
    await send(channel.path, pieces);
    const o = await channel.finish();
    assert.deepEqual(o.problems, []);
    assert.ok(o.hello && o.configured && o.finished);
    assert.equal(o.outcomes.size, 300);
    assert.equal(o.outcomes.get("t.py::test_3"), "failed");
    assert.equal(o.outcomes.get("t.py::test_299"), "passed");
  });
});

Deno.test("the channel reads no more than MAX_STREAM_BYTES of one connection", async () => {
  await withChannel(async (channel) => {
    const hello = `${
      JSON.stringify({ event: "hello", token: channel.token })
    }\n`;
    const filler = `${"x".repeat(1023)}\n`.repeat(64);
    const fill = Math.ceil(MAX_STREAM_BYTES / filler.length);
    const finish = `${JSON.stringify({ event: "finish", exitstatus: 0 })}\n`;
    function* writes() {
      yield hello;
      for (let i = 0; i < fill; i++) yield filler;
      yield finish;
    }
    // pawl stops reading at the limit, so the rest of the writes fail.
    await send(channel.path, writes()).catch(() => undefined);
    const o = await channel.finish();
    assert.ok(o.hello);
    assert.equal(o.finished, false, "the line past the limit was not read");
    assert.ok(o.problems.length > 0);
  });
});

Deno.test("the channel shows a watcher only the first connection's lines, never a second writer's", async () => {
  await withChannel(async (channel) => {
    const seen: string[] = [];
    channel.watch((line) => seen.push(line));
    const hello = JSON.stringify({ event: "hello", token: channel.token });
    await send(channel.path, [`${hello}\n`, '{"event":"configure"}\n']);
    await send(channel.path, ['{"event":"finish","exitstatus":0}\n']);
    const o = await channel.finish();
    assert.deepEqual(seen, [hello, '{"event":"configure"}']);
    assert.match(o.problems[0] ?? "", /second process/);
  });
});

Deno.test("the channel tells a watcher nothing more once it is finished, though a cut-off writer goes on", async () => {
  await withChannel(async (channel) => {
    const seen: string[] = [];
    channel.watch((line) => seen.push(line));
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    const encoder = new TextEncoder();
    try {
      await conn.write(encoder.encode("before\n"));
      while (seen.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(await channel.finishLines(50), [["<cut off>"]]);
      assert.deepEqual(seen, ["before"]);
      await conn.write(encoder.encode("after\n"));
      // The reader is still draining the connection: give it the line.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(seen, ["before"]);
    } finally {
      conn.close();
    }
  });
});

Deno.test("a finished channel keeps no connection open, however many the run made", async () => {
  // The sockets of this process bound to the channel's path: the listener
  // and each connection it accepted. Counted by the socket's own path, so
  // what other tests of this process open meanwhile does not count.
  const channelSockets = async (path: string) => {
    const inodes = new Set<string>();
    for (
      const line of (await Deno.readTextFile("/proc/net/unix")).split("\n")
    ) {
      const fields = line.trim().split(/\s+/);
      if (fields[7] === path) inodes.add(fields[6]!);
    }
    let n = 0;
    for await (const entry of Deno.readDir("/proc/self/fd")) {
      const link = await Deno.readLink(`/proc/self/fd/${entry.name}`).catch(
        () => "",
      );
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode !== undefined && inodes.has(inode)) n++;
    }
    return n;
  };
  await withChannel(async (channel) => {
    assert.equal(await channelSockets(channel.path), 1);
    for (let i = 0; i < 5; i++) {
      await send(channel.path, ['{"event":"finish","exitstatus":0}\n']);
    }
    assert.equal((await channel.finishLines()).length, 5);
    // The listener itself is closed too.
    assert.equal(await channelSockets(channel.path), 0);
  });
});
