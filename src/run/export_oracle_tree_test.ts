import assert from "node:assert/strict";
import type { OracleTree, TreeEntry } from "./compose_oracle_tree.ts";
import { exportOracleTree, type TreeSource } from "./export_oracle_tree.ts";

/** A repository whose head export is written by `head` and whose blobs are their oids' text. */
function source(head: (dest: string) => Promise<void>) {
  const calls: {
    exported: [string, string][];
    read: [string, number | undefined][];
  } = {
    exported: [],
    read: [],
  };
  const git: TreeSource = {
    async exportTree(commit, dest) {
      calls.exported.push([commit, dest]);
      await head(dest);
    },
    readBlob(oid, options) {
      calls.read.push([oid, options?.maxBytes]);
      return Promise.resolve(new TextEncoder().encode(`blob ${oid}`));
    },
  };
  return { git, calls };
}

function oracle(
  fromBase: [string, TreeEntry["kind"], string][],
  dropFromHead: string[] = [],
): OracleTree {
  return {
    fromBase: fromBase.map(([path, kind, oid]) => ({
      path,
      kind,
      oid,
      size: 1,
    })),
    dropFromHead,
    testRoots: [],
    differs: true,
  };
}

async function withDirs(fn: (dest: string, outside: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "pawl_export_oracle_" });
  try {
    await Deno.mkdir(`${root}/dest`);
    await Deno.mkdir(`${root}/outside`);
    await fn(`${root}/dest`, `${root}/outside`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("exportOracleTree() lays the base's blobs over the head export", async () => {
  await withDirs(async (dest) => {
    const { git, calls } = source(async (d) => {
      await Deno.mkdir(`${d}/tests/data`, { recursive: true });
      await Deno.writeTextFile(`${d}/tests/test_a.py`, "head");
      await Deno.writeTextFile(`${d}/tests/extra.py`, "head");
      await Deno.writeTextFile(`${d}/tests/data/x`, "head");
      await Deno.writeTextFile(`${d}/code.py`, "head");
    });
    await exportOracleTree(
      git,
      "HEAD1",
      dest,
      oracle([
        ["tests/test_a.py", "file", "1"],
        ["tests/run.sh", "executable", "2"],
        ["tests/link", "symlink", "3"],
        ["tests/data", "file", "4"],
        ["new/deep/conftest.py", "file", "5"],
      ], ["tests/extra.py", "tests/gone.py"]),
    );
    assert.deepEqual(calls.exported, [["HEAD1", dest]]);
    assert.deepEqual(calls.read.map(([, max]) => max), [
      64 * 1024 * 1024,
      64 * 1024 * 1024,
      64 * 1024 * 1024,
      64 * 1024 * 1024,
      64 * 1024 * 1024,
    ]);
    assert.equal(await Deno.readTextFile(`${dest}/tests/test_a.py`), "blob 1");
    assert.equal(
      (await Deno.stat(`${dest}/tests/test_a.py`)).mode! & 0o777,
      0o644,
    );
    assert.equal(
      (await Deno.stat(`${dest}/tests/run.sh`)).mode! & 0o777,
      0o755,
    );
    assert.equal(await Deno.readLink(`${dest}/tests/link`), "blob 3");
    assert.equal(await Deno.readTextFile(`${dest}/tests/data`), "blob 4");
    assert.equal(
      await Deno.readTextFile(`${dest}/new/deep/conftest.py`),
      "blob 5",
    );
    assert.equal((await Deno.stat(`${dest}/new/deep`)).mode! & 0o777, 0o755);
    assert.equal(await Deno.readTextFile(`${dest}/code.py`), "head");
    await assert.rejects(
      Deno.lstat(`${dest}/tests/extra.py`),
      Deno.errors.NotFound,
    );
  });
});

Deno.test("exportOracleTree() never writes or removes through a symlink of the head", async () => {
  await withDirs(async (dest, outside) => {
    await Deno.writeTextFile(`${outside}/victim.py`, "outside");
    const { git } = source(async (d) => {
      await Deno.symlink(outside, `${d}/tests`);
      await Deno.symlink(outside, `${d}/lib`);
      await Deno.writeTextFile(`${d}/pkg`, "a file where a directory goes");
    });
    await exportOracleTree(
      git,
      "H",
      dest,
      oracle([
        ["tests/victim.py", "file", "1"],
        ["pkg/conftest.py", "file", "2"],
      ], ["lib/victim.py"]),
    );
    assert.equal(await Deno.readTextFile(`${outside}/victim.py`), "outside");
    assert.ok((await Deno.lstat(`${dest}/tests`)).isDirectory);
    assert.equal(await Deno.readTextFile(`${dest}/tests/victim.py`), "blob 1");
    assert.equal(await Deno.readTextFile(`${dest}/pkg/conftest.py`), "blob 2");
    assert.ok((await Deno.lstat(`${dest}/lib`)).isSymlink);
  });
});

Deno.test("exportOracleTree() refuses a path that is not normal", async (t) => {
  for (const path of ["../x.py", "a//b.py", "./a.py", "a/./b.py", "a/", ""]) {
    await t.step(JSON.stringify(path), async () => {
      await withDirs(async (dest) => {
        const { git } = source(() => Promise.resolve());
        const refusal = {
          name: "RangeError",
          message: `Cannot write tree path "${path}": it is not normal`,
        };
        await assert.rejects(
          exportOracleTree(git, "H", dest, oracle([[path, "file", "1"]])),
          refusal,
        );
        await assert.rejects(
          exportOracleTree(git, "H", dest, oracle([], [path])),
          refusal,
        );
      });
    });
  }
});

Deno.test("exportOracleTree() removes bytecode unless neither the head nor the base has any", async (t) => {
  const table: [string, boolean | undefined, string | undefined, boolean][] = [
    ["by default", undefined, undefined, false],
    ["when the head has bytecode", true, undefined, false],
    ["not when neither has", false, undefined, true],
    [
      "when only a base path is bytecode",
      false,
      "tests/__pycache__/a.pyc",
      false,
    ],
  ];
  for (const [label, headBytecode, basePath, kept] of table) {
    await t.step(label, async () => {
      await withDirs(async (dest) => {
        const { git } = source(async (d) => {
          await Deno.writeTextFile(`${d}/stale.pyc`, "x");
        });
        await exportOracleTree(
          git,
          "H",
          dest,
          oracle(basePath === undefined ? [] : [[basePath, "file", "1"]]),
          headBytecode === undefined ? {} : { headBytecode },
        );
        const exists = await Deno.lstat(`${dest}/stale.pyc`).then(
          () => true,
          () => false,
        );
        assert.equal(exists, kept);
      });
    });
  }
});

Deno.test("exportOracleTree() writes a base file only once the head's directory in its place is gone", async () => {
  await withDirs(async (dest) => {
    const { git } = source(async (d) => {
      await Deno.mkdir(`${d}/tests/data/deep`, { recursive: true });
      for (let i = 0; i < 300; i++) {
        await Deno.writeTextFile(`${d}/tests/data/deep/f${i}.txt`, "head");
      }
    });
    await exportOracleTree(
      git,
      "HEAD1",
      dest,
      oracle([["tests/data", "file", "4"]]),
    );
    assert.equal(await Deno.readTextFile(`${dest}/tests/data`), "blob 4");
  });
});

Deno.test("exportOracleTree() fails rather than keep a head path it cannot check or remove", async (t) => {
  const long = "x".repeat(300);
  const table: [string, string][] = [
    ["a name the file system cannot remove", `tests/${long}`],
    ["a directory on the way it cannot look at", `tests/${long}/test_b.py`],
  ];
  for (const [label, path] of table) {
    await t.step(label, async () => {
      await withDirs(async (dest) => {
        const { git } = source(async (d) => {
          await Deno.mkdir(`${d}/tests`);
          await Deno.writeTextFile(`${d}/tests/test_a.py`, "head");
        });
        await assert.rejects(
          exportOracleTree(git, "H", dest, oracle([], [path])),
          (error) => !(error instanceof Deno.errors.NotFound),
        );
      });
    });
  }
});

Deno.test("exportOracleTree() creates directories only their owner can write, even under an open umask", async () => {
  const umask = Deno.umask(0);
  try {
    await withDirs(async (dest) => {
      const { git } = source(() => Promise.resolve());
      await exportOracleTree(
        git,
        "H",
        dest,
        oracle([
          ["new/deep/conftest.py", "file", "1"],
          ["new/run.sh", "executable", "2"],
        ]),
      );
      const mode = async (path: string) =>
        (await Deno.stat(`${dest}/${path}`)).mode! & 0o777;
      assert.equal(await mode("new"), 0o755);
      assert.equal(await mode("new/deep"), 0o755);
      assert.equal(await mode("new/deep/conftest.py"), 0o644);
      assert.equal(await mode("new/run.sh"), 0o755);
    });
  } finally {
    Deno.umask(umask);
  }
});
