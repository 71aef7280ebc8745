import assert from "node:assert/strict";
import { SetupCache } from "./setup_cache.ts";
import { SetupFailedError } from "./setup_failed_error.ts";

const KEY = "a".repeat(64);

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const parent = await Deno.makeTempDir({ prefix: "pawl-setup-cache-test-" });
  try {
    await fn(`${parent}/cache`);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

Deno.test("SetupCache.open() refuses a root others could plant entries in", async (t) => {
  await t.step("writable by others", () =>
    withRoot(async (root) => {
      await Deno.mkdir(root);
      await Deno.chmod(root, 0o777);
      await assert.rejects(
        SetupCache.open(root),
        (e: unknown) =>
          e instanceof SetupFailedError &&
          /others may write it \(mode 777\)/.test(e.message),
      );
    }));
  await t.step("owned by another uid", () =>
    withRoot(async (root) => {
      await Deno.mkdir(root, { mode: 0o755 });
      await Deno.chown(root, 64437, 64437);
      await assert.rejects(
        SetupCache.open(root),
        /owned by uid 64437, not by pawl's uid 0/,
      );
    }));
  await t.step(
    "a relative path",
    () => assert.rejects(SetupCache.open("cache"), /expected an absolute path/),
  );
});

Deno.test("SetupCache.lookup() uses an entry only once its manifest for that key is in place", async () => {
  await withRoot(async (root) => {
    const cache = await SetupCache.open(root);
    assert.equal((await Deno.stat(root)).mode! & 0o777, 0o755);
    const entry = await cache.begin(KEY);
    assert.equal(await cache.lookup(KEY), undefined, "begun, not published");
    await Deno.writeTextFile(
      `${entry.dir}/pawl-setup.json`,
      JSON.stringify({ key: "b".repeat(64) }),
    );
    assert.equal(await cache.lookup(KEY), undefined, "another key's manifest");
    const manifest = {
      key: KEY,
      command: ["true"],
      network: false,
      inputs: [],
      base: "0".repeat(40),
    };
    await cache.publish(manifest);
    assert.deepEqual(await cache.lookup(KEY), manifest);
    await cache.discard(KEY);
    assert.equal(await cache.lookup(KEY), undefined);
  });
});
