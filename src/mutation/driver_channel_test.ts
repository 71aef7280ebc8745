import assert from "node:assert/strict";
import type { ObserverPlugin } from "../run/observer.ts";
import { DriverChannel, MAX_DRIVER_LINE_BYTES } from "./driver_channel.ts";

async function channelIn(dir: string): Promise<DriverChannel> {
  return await DriverChannel.open({ channels: dir } as ObserverPlugin);
}

/** A channel in a fresh directory for `body`, closed and removed after it. */
async function withChannel(
  body: (channel: DriverChannel) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-driver-channel-" });
  const channel = await channelIn(dir);
  try {
    await body(channel);
  } finally {
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function write(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) {
    at += await conn.write(bytes.subarray(at));
  }
}

Deno.test("DriverChannel reads the driver's lines in order, an empty or unreadable one as undefined, sends its own, and ends with null", async () => {
  await withChannel(async (channel) => {
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
    assert.equal(channel.intruded, false, "one connection is no intrusion");
    conn.close();
    assert.equal(await channel.next(), null);
    assert.equal(await channel.next(), null);
  });
});

Deno.test("DriverChannel closes a second connection unread and remembers it", async () => {
  await withChannel(async (channel) => {
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
  });
});

Deno.test("DriverChannel.open() gives each channel a fresh 128-bit token in hex, and a socket of its own the sandbox can connect to", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-driver-channel-" });
  const channels = [await channelIn(dir), await channelIn(dir)];
  try {
    for (const channel of channels) {
      assert.match(channel.token, /^[0-9a-f]{32}$/);
      assert.equal(channel.path, `${dir}/d${channel.token.slice(0, 11)}.sock`);
      const info = await Deno.lstat(channel.path);
      assert.equal(info.isSocket, true);
      assert.equal(info.mode! & 0o777, 0o777);
    }
    assert.notEqual(channels[0]!.token, channels[1]!.token);
    // Each byte is two digits: over many tokens, every digit shows up in
    // both places of a byte, a leading zero too.
    const tokens = [];
    for (let i = 0; i < 64; i++) {
      const channel = await channelIn(dir);
      tokens.push(channel.token);
      await channel.close();
    }
    const pairs = tokens.flatMap((t) => t.match(/../g)!);
    assert.ok(pairs.some((p) => p.startsWith("0")));
    assert.equal(new Set(pairs.map((p) => p[1])).size, 16);
  } finally {
    for (const channel of channels) await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DriverChannel reads a line up to its cap, and ends the stream at a longer one, whether its newline comes with it or later", async (t) => {
  for (
    const [name, length, read, apart] of [
      ["at the cap, the newline with it", MAX_DRIVER_LINE_BYTES, true, false],
      ["at the cap, the newline later", MAX_DRIVER_LINE_BYTES, true, true],
      [
        "one byte over, the newline with it",
        MAX_DRIVER_LINE_BYTES + 1,
        false,
        false,
      ],
      [
        "one byte over, the newline later",
        MAX_DRIVER_LINE_BYTES + 1,
        false,
        true,
      ],
    ] as const
  ) {
    await t.step(name, async () => {
      await withChannel(async (channel) => {
        const conn = await Deno.connect({
          transport: "unix",
          path: channel.path,
        });
        const text = `"${"x".repeat(length - 2)}"`;
        const rest = '\n{"event":"after"}\n';
        if (apart) {
          await write(conn, text);
          // The newline comes in a read of its own, after the whole line.
          await new Promise((resolve) => setTimeout(resolve, 50));
          await write(conn, rest).catch(() => {});
        } else {
          // The line's end and its newline come in the same read.
          await write(conn, text + rest).catch(() => {});
        }
        if (read) {
          assert.equal(await channel.next(), "x".repeat(length - 2));
          assert.deepEqual(await channel.next(), { event: "after" });
        } else {
          assert.equal(await channel.next(), null);
        }
        conn.close();
      });
    });
  }
});

Deno.test("DriverChannel.close() ends a reader that waits, removes the socket, and may be called twice", async () => {
  await withChannel(async (channel) => {
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    const waiting = channel.next();
    await channel.close();
    assert.equal(await waiting, null);
    assert.equal(await channel.send({ event: "end" }), false);
    await assert.rejects(() => Deno.lstat(channel.path), Deno.errors.NotFound);
    await channel.close();
    conn.close();
  });
});

Deno.test("DriverChannel.close() stops listening: a connection made after it, by another name of the socket, is refused", async () => {
  await withChannel(async (channel) => {
    const alias = `${
      channel.path.slice(0, channel.path.lastIndexOf("/"))
    }/alias.sock`;
    await Deno.link(channel.path, alias);
    const before = await Deno.connect({ transport: "unix", path: alias });
    before.close();
    await channel.close();
    await assert.rejects(
      () => Deno.connect({ transport: "unix", path: alias }),
      Deno.errors.ConnectionRefused,
    );
  });
});

Deno.test("DriverChannel reads a character whose bytes arrive in two reads", async () => {
  await withChannel(async (channel) => {
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    const bytes = new TextEncoder().encode('{"event":"caf\u00e9"}\n');
    const split = bytes.indexOf(0xc3) + 1;
    await conn.write(bytes.subarray(0, split));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await conn.write(bytes.subarray(split));
    assert.deepEqual(await channel.next(), { event: "caf\u00e9" });
    conn.close();
  });
});

Deno.test("DriverChannel ends the stream at a line over its cap that never ends", async () => {
  await withChannel(async (channel) => {
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    await write(conn, "x".repeat(MAX_DRIVER_LINE_BYTES + 1));
    assert.equal(await channel.next(), null);
    conn.close();
  });
});

Deno.test("DriverChannel.send() is false before the driver connects and after it went away", async () => {
  await withChannel(async (channel) => {
    assert.equal(await channel.send({ event: "config" }), false);
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    await write(conn, '{"event":"hello"}\n');
    assert.deepEqual(await channel.next(), { event: "hello" });
    conn.close();
    assert.equal(await channel.next(), null);
    // A large message cannot sit whole in the socket's buffer.
    assert.equal(
      await channel.send({ event: "config", pad: "x".repeat(1 << 20) }),
      false,
    );
  });
});

Deno.test("DriverChannel.close() ends the driver's end of the connection", async () => {
  await withChannel(async (channel) => {
    const conn = await Deno.connect({ transport: "unix", path: channel.path });
    await write(conn, '{"event":"hello"}\n');
    assert.deepEqual(await channel.next(), { event: "hello" });
    await channel.close();
    assert.equal(await conn.read(new Uint8Array(8)), null);
    conn.close();
  });
});
