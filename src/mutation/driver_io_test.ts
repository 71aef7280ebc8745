import assert from "node:assert/strict";
import { z } from "zod";
import type { ObserverPlugin } from "../run/observer.ts";
import type { SandboxResult } from "../sandbox/sandbox.ts";
import { DriverChannel } from "./driver_channel.ts";
import { DriverIo } from "./driver_io.ts";

const EVENT = z.object({ event: z.string() });

const RESULT = {
  code: 0,
  signal: null,
  timedOut: false,
} as unknown as SandboxResult;

/** A real channel, the driver's end of it, and the run as the test settles it. */
async function withDriver(
  body: (
    io: DriverIo,
    driver: { say(line: string): Promise<void>; end(): void },
    run: { resolve(r: SandboxResult): void; reject(e: Error): void },
  ) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-driver-io-" });
  const channel = await DriverChannel.open({ channels: dir } as ObserverPlugin);
  const conn = await Deno.connect({ transport: "unix", path: channel.path });
  const run = Promise.withResolvers<SandboxResult>();
  try {
    await body(new DriverIo(channel, run.promise), {
      say: async (line) => {
        const bytes = new TextEncoder().encode(`${line}\n`);
        for (let at = 0; at < bytes.length;) {
          at += await conn.write(bytes.subarray(at));
        }
      },
      end: () => conn.close(),
    }, run);
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the test
    }
    await channel.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("DriverIo reads each message once, in order, and one that does not read as asked as undefined without losing the next", async () => {
  await withDriver(async (io, driver, run) => {
    await driver.say('{"event":"hello"}');
    await driver.say('{"other":1}');
    await driver.say('{"event":"baseline"}');
    assert.deepEqual(await io.receive(EVENT), { event: "hello" });
    assert.equal(await io.receive(EVENT), undefined);
    assert.deepEqual(await io.receive(EVENT), { event: "baseline" });
    run.resolve(RESULT);
    assert.equal(await io.settle(), RESULT);
  });
});

Deno.test("DriverIo still reads what the driver wrote before its run ended, then gives up rather than wait", async () => {
  await withDriver(async (io, driver, run) => {
    await driver.say('{"event":"last words"}');
    run.resolve(RESULT);
    await io.settle();
    assert.deepEqual(await io.receive(EVENT), { event: "last words" });
    // Nothing more comes, and the connection is still open: not waited for.
    assert.equal(await io.receive(EVENT), undefined);
  });
});

Deno.test("DriverIo waits a moment after the run ended for a message still on its way", async () => {
  await withDriver(async (io, driver, run) => {
    run.resolve(RESULT);
    await io.settle();
    // Well inside the half second a message on its way is waited for.
    const late = new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
      driver.say('{"event":"on its way"}')
    );
    assert.deepEqual(await io.receive(EVENT), { event: "on its way" });
    await late;
  });
});

Deno.test("DriverIo reads a message that came after it gave up on the ended run with the next receive", async () => {
  await withDriver(async (io, driver, run) => {
    run.resolve(RESULT);
    assert.equal(await io.receive(EVENT), undefined);
    await driver.say('{"event":"late"}');
    driver.end();
    // The channel takes the line in while no receive() is under way.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await io.receive(EVENT), { event: "late" });
    assert.equal(await io.receive(EVENT), undefined);
  });
});

Deno.test("DriverIo reads on when the run could not be run, and settle() throws why", async () => {
  await withDriver(async (io, driver, run) => {
    await driver.say('{"event":"hello"}');
    run.reject(new Error("the sandbox could not start"));
    assert.deepEqual(await io.receive(EVENT), { event: "hello" });
    assert.equal(await io.receive(EVENT), undefined);
    await assert.rejects(io.settle(), /the sandbox could not start/);
  });
});
