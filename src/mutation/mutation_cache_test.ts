import assert from "node:assert/strict";
import {
  baselineCacheKey,
  directoryMutationCache,
  mutantCacheKey,
  type MutantCacheKeyInput,
  notCoveredKey,
} from "./mutation_cache.ts";

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
    await assert.rejects(
      () => again.get("../escape"),
      { name: "RangeError", message: 'Invalid mutation cache key "../escape"' },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() reads a key it never stored as missing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(`${dir}/cache`);
    assert.equal(await cache.get(KEY), undefined);
    await cache.put(KEY, { "000/a": "killed" });
    assert.equal(await cache.get("c".repeat(64)), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() refuses a directory that is not this user's alone", async (t) => {
  const cases: [string, (dir: string) => Promise<string>][] = [
    ["one others can write", async (dir) => {
      await Deno.chmod(dir, 0o777);
      return dir;
    }],
    ["one its group can write", async (dir) => {
      await Deno.chmod(dir, 0o770);
      return dir;
    }],
    ["one only others can write", async (dir) => {
      await Deno.chmod(dir, 0o702);
      return dir;
    }],
    ["one only its group can write", async (dir) => {
      await Deno.chmod(dir, 0o720);
      return dir;
    }],
    ["another user's", async (dir) => {
      await Deno.chmod(dir, 0o700);
      await Deno.chown(dir, 64619, 64619);
      return dir;
    }],
    ["a symlink to a directory", async (dir) => {
      await Deno.mkdir(`${dir}/real`, { mode: 0o700 });
      await Deno.symlink(`${dir}/real`, `${dir}/link`);
      return `${dir}/link`;
    }],
  ];
  for (const [name, make] of cases) {
    await t.step(name, async () => {
      const dir = await Deno.makeTempDir({
        prefix: "pawl-mutation-cache-test-",
      });
      try {
        const cache = await make(dir);
        await assert.rejects(
          () => directoryMutationCache(cache),
          /no one else can write/,
        );
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("directoryMutationCache() ignores an entry with any outcome it does not know", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(dir);
    await Deno.chmod(dir, 0o700);
    for (
      const text of [
        '{"000/a": "killed", "000/b": "passed"}',
        '{"000/a": "killed", "000/b": "unknown"}',
      ]
    ) {
      await Deno.writeTextFile(`${dir}/${KEY}.json`, text);
      assert.equal(await cache.get(KEY), undefined, text);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mutantCacheKey() changes with everything a run's outcome depends on", async (t) => {
  const input: MutantCacheKeyInput = {
    side: "base",
    scope: "scope",
    mutant: {
      id: "m0",
      file: "pkg/m.py",
      function: "less",
      line: 2,
      column: 14,
      endLine: 2,
      endColumn: 15,
      start: 24,
      end: 25,
      original: "<",
      replacement: "<=",
      operator: "comparison",
    },
    command: ["python3", "-m", "pytest", "--hypothesis-seed=1"],
    env: { CONTRACT_SEED: "1", A: "x" },
    properties: [{ key: "000/a", nodeId: "tests/test_m.py::test_a" }],
  };
  const key = mutantCacheKey(input);
  const observer = {
    root: "/o",
    dir: "/o/d",
    userBase: "/o/u",
    module: "pawl_observer",
    channels: "/o/c",
    sha256: "1",
  };
  const changes: [string, Partial<MutantCacheKeyInput>][] = [
    ["the side", { side: "head" }],
    ["the scope (what the run can read)", { scope: "other" }],
    ["the replacement", { mutant: { ...input.mutant, replacement: ">" } }],
    ["the span's start", { mutant: { ...input.mutant, start: 23 } }],
    ["the span's end", { mutant: { ...input.mutant, end: 26 } }],
    ["the text replaced", { mutant: { ...input.mutant, original: "<<" } }],
    ["the file", { mutant: { ...input.mutant, file: "pkg/n.py" } }],
    ["the seed in the command", {
      command: ["python3", "-m", "pytest", "--hypothesis-seed=2"],
    }],
    ["the environment", { env: { CONTRACT_SEED: "2", A: "x" } }],
    ["the properties selected", {
      properties: [{ key: "000/b", nodeId: "tests/test_m.py::test_b" }],
    }],
    ["a property's node id alone", {
      properties: [{ key: "000/a", nodeId: "tests/test_m.py::test_b" }],
    }],
    ["a property's key alone", {
      properties: [{ key: "000/b", nodeId: "tests/test_m.py::test_a" }],
    }],
    ["pawl's observer", { observer }],
    ["the engine (a warm run's entries are kept apart)", {
      engine: { format: "warm", settings: null },
    }],
  ];
  for (const [what, change] of changes) {
    await t.step(`a change to ${what} gives another key`, () => {
      assert.notEqual(mutantCacheKey({ ...input, ...change }), key);
    });
  }
  await t.step(
    "a change to the warm engine's settings gives another key",
    () => {
      const warm = { ...input, engine: { format: "warm", settings: ["d1"] } };
      assert.notEqual(
        mutantCacheKey({
          ...warm,
          engine: { format: "warm", settings: ["d2"] },
        }),
        mutantCacheKey(warm),
      );
      assert.notEqual(
        mutantCacheKey({ ...warm, side: "head" }),
        mutantCacheKey(warm),
      );
      assert.notEqual(
        mutantCacheKey({
          ...warm,
          engine: { format: "warm-2", settings: ["d1"] },
        }),
        mutantCacheKey(warm),
        "a new format of the warm engine's entries",
      );
    },
  );
  await t.step("another build of pawl's observer gives another key", () => {
    assert.notEqual(
      mutantCacheKey({ ...input, observer: { ...observer, sha256: "2" } }),
      mutantCacheKey({ ...input, observer }),
    );
  });
  await t.step("the same key whatever the order of the environment", () => {
    assert.equal(
      mutantCacheKey({ ...input, env: { A: "x", CONTRACT_SEED: "1" } }),
      key,
    );
    assert.match(key, /^[0-9a-f]{64}$/);
  });
});

Deno.test("directoryMutationCache() keeps a timeout as found, and writes entries only its user can read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(`${dir}/cache`);
    await cache.put(KEY, { "000/a": "timeout", "000/b": "killed" });
    assert.deepEqual(await cache.get(KEY), {
      "000/a": "timeout",
      "000/b": "killed",
    });
    const mode = (await Deno.stat(`${dir}/cache/${KEY}.json`)).mode! & 0o777;
    assert.equal(mode, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() reads an entry that is not an object of outcomes as missing", async (t) => {
  for (const text of ["7", "true", "null", '"killed"', "{", ""]) {
    await t.step(text, async () => {
      const dir = await Deno.makeTempDir({
        prefix: "pawl-mutation-cache-test-",
      });
      try {
        const cache = await directoryMutationCache(dir);
        await Deno.writeTextFile(`${dir}/${KEY}.json`, text);
        assert.equal(await cache.get(KEY), undefined);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("directoryMutationCache() takes only a SHA-256 digest in hex as a key", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(dir);
    const cases: [string, string][] = [
      ["too short", "a".repeat(63)],
      ["too long", "a".repeat(65)],
      ["upper case", "A".repeat(64)],
      ["empty", ""],
    ];
    for (const [name, key] of cases) {
      await t.step(name, async () => {
        await assert.rejects(() => cache.get(key), RangeError);
        await assert.rejects(() => cache.put(key, {}), RangeError);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("baselineCacheKey() is the same whatever the order of the files, and changes with them", () => {
  const input = {
    side: "base" as const,
    scope: "scope",
    command: ["python3", "-m", "pytest"],
    env: {},
    properties: [{ key: "000/a", nodeId: "tests/test_m.py::test_a" }],
  };
  const key = baselineCacheKey({ ...input, files: ["pkg/a.py", "pkg/b.py"] });
  assert.equal(
    baselineCacheKey({ ...input, files: ["pkg/b.py", "pkg/a.py"] }),
    key,
  );
  assert.notEqual(baselineCacheKey({ ...input, files: ["pkg/a.py"] }), key);
});

Deno.test("directoryMutationCache() takes a directory others may read but not write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    await Deno.chmod(dir, 0o755);
    const cache = await directoryMutationCache(dir);
    await cache.put(KEY, { "000/a": "killed" });
    assert.deepEqual(await cache.get(KEY), { "000/a": "killed" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() leaves only the entry in its directory after a put", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(dir);
    await cache.put(KEY, { "000/a": "killed" });
    await cache.put(KEY, { "000/a": "survived" });
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(names, [`${KEY}.json`]);
    assert.deepEqual(await cache.get(KEY), { "000/a": "survived" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notCoveredKey() gives an entry of its own beside the mutant's outcomes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(dir);
    const other = "b".repeat(64);
    assert.notEqual(notCoveredKey(KEY), KEY);
    assert.notEqual(notCoveredKey(KEY), notCoveredKey(other));
    assert.equal(notCoveredKey(KEY), notCoveredKey("a".repeat(64)));
    await cache.put(KEY, { "000/a": "killed" });
    await cache.put(notCoveredKey(KEY), {});
    assert.deepEqual(await cache.get(KEY), { "000/a": "killed" });
    assert.deepEqual(await cache.get(notCoveredKey(KEY)), {});
    assert.equal(await cache.get(notCoveredKey(other)), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("directoryMutationCache() takes puts of one key at once, and keeps one of them whole", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-mutation-cache-test-" });
  try {
    const cache = await directoryMutationCache(dir);
    const outcomes = ["killed", "survived", "timeout"] as const;
    await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => cache.put(KEY, { "000/a": outcomes[i % 3]! }),
      ),
    );
    const got = (await cache.get(KEY))?.["000/a"];
    assert.ok(
      got === "killed" || got === "survived" || got === "timeout",
      `${got}`,
    );
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assert.deepEqual(names, [`${KEY}.json`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
