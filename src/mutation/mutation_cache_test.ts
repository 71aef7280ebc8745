import assert from "node:assert/strict";
import { directoryMutationCache } from "./mutation_cache.ts";

const KEY = "a".repeat(64);

Deno.test("directoryMutationCache() keeps outcomes across instances and ignores damaged entries", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(`${dir}/cache`);
    await cache.put(KEY, { "000/a": "killed", "000/b": "survived" });
    const again = await directoryMutationCache(`${dir}/cache`);
    assert.deepEqual(await again.get(KEY), {
      "000/a": "killed",
      "000/b": "survived",
    });
    assert.equal((await Deno.stat(`${dir}/cache`)).mode! & 0o777, 0o700);
    await Deno.writeTextFile(
      `${dir}/cache/${"b".repeat(64)}.json`,
      '{"x": "passed"}',
    );
    assert.equal(await again.get("b".repeat(64)), undefined);
    await assert.rejects(() => again.get("../escape"), RangeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() refuses a directory others can write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    await Deno.chmod(dir, 0o777);
    await assert.rejects(
      () => directoryMutationCache(dir),
      /no one else can write/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
