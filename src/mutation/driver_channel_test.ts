import assert from "node:assert/strict";
import type { ObserverPlugin } from "../run/observer.ts";
import { DriverChannel } from "./driver_channel.ts";

async function channelIn(dir: string): Promise<DriverChannel> {
  return await DriverChannel.open({ channels: dir } as ObserverPlugin);
}

async function write(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) {
    at += await conn.write(bytes.subarray(at));
  }
}

Deno.test("DriverChannel reads the driver's lines in order, an empty or unreadable one as undefined, sends its own, and ends with null", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-driver-channel-" });
  const channel = await channelIn(dir);
  try {
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    await write(conn, '{"event":"hello"}\n{"event":');
    assert.deepEqual(await channel.next(), { event: "hello" });
    await write(conn, '"baseline"}\nnot json\n');
    assert.deepEqual(await channel.next(), { event: "baseline" });
    assert.equal(await channel.next(), undefined);
    // An empty line is one unreadable message too, not the end of reading.
    await write(conn, '\n{"event":"again"}\n');
    assert.equal(await channel.next(), undefined);
    assert.deepEqual(await channel.next(), { event: "again" });
    assert.equal(await channel.send({ event: "end" }), true);
    const buffer = new Uint8Array(64);
    const n = await conn.read(buffer);
    assert.equal(
      new TextDecoder().decode(buffer.subarray(0, n ?? 0)),
      '{"event":"end"}\n',
    );
    conn.close();
    assert.equal(await channel.next(), null);
    assert.equal(await channel.next(), null);
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DriverChannel closes a second connection unread and remembers it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-driver-channel-" });
  const channel = await channelIn(dir);
  try {
    const first = await Deno.connect({ transport: "unix", path: channel.path });
    await write(first, '{"event":"hello"}\n');
    assert.deepEqual(await channel.next(), { event: "hello" });
    const second = await Deno.connect({
      transport: "unix",
      path: channel.path,
    });
    await write(second, '{"event":"result"}\n').catch(() => {});
    assert.equal(await second.read(new Uint8Array(8)).catch(() => null), null);
    second.close();
    assert.equal(channel.intruded, true);
    await write(first, '{"event":"baseline"}\n');
    assert.deepEqual(await channel.next(), { event: "baseline" });
    first.close();
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});
