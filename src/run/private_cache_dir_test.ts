import assert from "node:assert/strict";
import { cacheDirFrom, privateCacheDir } from "./private_cache_dir.ts";

async function inTemp(fn: (root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "pawl_private_cache_" });
  try {
    await Deno.chmod(root, 0o755);
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("privateCacheDir() makes a directory only pawl may enter", async () => {
  await inTemp(async (root) => {
    const dir = `${root}/parent/cache`;
    assert.deepEqual(await privateCacheDir(dir, "cache"), { dir });
    assert.equal((await Deno.stat(dir)).mode! & 0o7777, 0o700);
    assert.equal((await Deno.stat(`${root}/parent`)).mode! & 0o7777, 0o755);
    // A second call finds it as it left it.
    assert.deepEqual(await privateCacheDir(dir, "cache"), { dir });
    // Trailing slashes name the same directory under the same parent.
    assert.deepEqual(await privateCacheDir(`${dir}//`, "cache"), {
      dir: `${dir}//`,
    });
  });
});

Deno.test("privateCacheDir() refuses a directory others could reach, saying why", async (t) => {
  const table: [
    string,
    (root: string) => Promise<string>,
    string,
  ][] = [
    [
      "a relative path",
      () => Promise.resolve("cache"),
      "it is not an absolute path",
    ],
    ["a file", async (root) => {
      await Deno.writeTextFile(`${root}/cache`, "");
      return `${root}/cache`;
    }, "it is not a directory"],
    ["a symlink to a directory", async (root) => {
      await Deno.mkdir(`${root}/real`, { mode: 0o700 });
      await Deno.symlink(`${root}/real`, `${root}/cache`);
      return `${root}/cache`;
    }, "it is not a directory"],
    ...([[0o755, "755"], [0o710, "710"], [0o701, "701"], [
      0o2750,
      "2750",
    ]] as const)
      .map((
        [mode, shown],
      ): [string, (root: string) => Promise<string>, string] => [
        `mode ${shown}`,
        async (root) => {
          await Deno.mkdir(`${root}/cache`);
          await Deno.chmod(`${root}/cache`, mode | 0o700);
          return `${root}/cache`;
        },
        `others may enter it (mode ${
          ((mode | 0o700) & 0o7777).toString(8)
        }; it must be 0700)`,
      ]),
    ["a parent anyone may write", async (root) => {
      await Deno.mkdir(`${root}/open`);
      await Deno.chmod(`${root}/open`, 0o777);
      return `${root}/open/cache`;
    }, "its parent directory is writable by anyone"],
    ["a parent that is a file", async (root) => {
      await Deno.writeTextFile(`${root}/file`, "");
      return `${root}/file/cache`;
    }, ""],
  ];
  if (Deno.uid() === 0) {
    table.push(["a directory of another uid", async (root) => {
      await Deno.mkdir(`${root}/cache`, { mode: 0o700 });
      await Deno.chown(`${root}/cache`, 4321, 4321);
      return `${root}/cache`;
    }, "it is owned by uid 4321, not by pawl's uid 0"]);
  }
  for (const [label, make, why] of table) {
    await t.step(label, async () => {
      await inTemp(async (root) => {
        const dir = await make(root);
        const got = await privateCacheDir(dir, "compile cache");
        assert.ok("note" in got, JSON.stringify(got));
        assert.ok(
          got.note.startsWith(`the compile cache "${dir}" is not used: `),
          got.note,
        );
        if (why !== "") {
          assert.equal(
            got.note,
            `the compile cache "${dir}" is not used: ${why}`,
          );
        }
      });
    });
  }
});

Deno.test("privateCacheDir() accepts a parent others may write only when it is sticky or not world-writable", async (t) => {
  for (const mode of [0o1777, 0o775, 0o700]) {
    await t.step(mode.toString(8), async () => {
      await inTemp(async (root) => {
        await Deno.mkdir(`${root}/p`);
        await Deno.chmod(`${root}/p`, mode);
        const dir = `${root}/p/cache`;
        assert.deepEqual(await privateCacheDir(dir, "cache"), { dir });
      });
    });
  }
});

/** Runs `fn` with `Deno.uid()` saying `uid`, as pawl started by that user would see it. */
function asUid<T>(uid: number, fn: () => T): T {
  const realUid = Deno.uid;
  Object.defineProperty(Deno, "uid", { value: () => uid });
  try {
    return fn();
  } finally {
    Object.defineProperty(Deno, "uid", { value: realUid });
  }
}

Deno.test("cacheDirFrom() takes the setting, else the system directory when pawl runs as root", async (t) => {
  const table: [number, string | undefined, string | undefined][] = [
    [0, "/srv/cache", "/srv/cache"],
    [0, "", "/var/cache/pawl"],
    [0, undefined, "/var/cache/pawl"],
    [1000, "/srv/cache", "/srv/cache"],
    [1000, "", undefined],
    [1000, undefined, undefined],
  ];
  for (const [uid, setting, expected] of table) {
    await t.step(`uid ${uid}, ${JSON.stringify(setting ?? null)}`, () => {
      assert.equal(
        asUid(uid, () => cacheDirFrom(setting, "/var/cache/pawl")),
        expected,
      );
    });
  }
});

Deno.test("privateCacheDir() makes a directory named with trailing slashes under its real parent", async () => {
  await inTemp(async (root) => {
    const dir = `${root}/cache/`;
    assert.deepEqual(await privateCacheDir(dir, "cache"), { dir });
    assert.equal((await Deno.stat(dir)).mode! & 0o7777, 0o700);
  });
});

Deno.test("privateCacheDir() judges a directory right under the root against the root", async () => {
  const { note } = await privateCacheDir("/tmp", "cache") as { note: string };
  assert.match(
    note,
    /^the cache "\/tmp" is not used: (it is owned by uid 0|others may enter it)/,
  );
});

Deno.test("privateCacheDir() says so when the directory cannot be made", async () => {
  await inTemp(async (root) => {
    const dir = `${root}/${"x".repeat(300)}`;
    const { note } = await privateCacheDir(dir, "cache") as { note: string };
    assert.ok(note.startsWith(`the cache "${dir}" is not used: `));
    assert.match(note, /: mkdir '/);
  });
});

Deno.test("privateCacheDir() refuses a relative path however many directories it names", async () => {
  const top = `pawl_relative_cache_${crypto.randomUUID()}`;
  try {
    assert.deepEqual(await privateCacheDir(`${top}/bytecode`, "cache"), {
      note:
        `the cache "${top}/bytecode" is not used: it is not an absolute path`,
    });
  } finally {
    await Deno.remove(top, { recursive: true }).catch(() => undefined);
  }
});

Deno.test("privateCacheDir() judges a parent reached through a symlink by the directory it leads to", async () => {
  await inTemp(async (root) => {
    await Deno.mkdir(`${root}/real`, { mode: 0o755 });
    await Deno.chmod(`${root}/real`, 0o755);
    await Deno.symlink(`${root}/real`, `${root}/link`);
    const dir = `${root}/link/cache`;
    assert.deepEqual(await privateCacheDir(dir, "cache"), { dir });
    assert.equal((await Deno.stat(`${root}/real/cache`)).mode! & 0o7777, 0o700);
  });
});
