import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  installObserver,
  ObserverChannel,
  USER_SITE_VERSIONS,
  writeChangedLines,
} from "./observer.ts";

async function withRoot(body: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-obs-" });
  try {
    await body(root);
  } finally {
    // The plugin's directories are read-only: open them before removing.
    for await (const entry of Deno.readDir(root)) {
      await chmodTree(`${root}/${entry.name}`);
    }
    await Deno.remove(root, { recursive: true });
  }
}

async function chmodTree(path: string): Promise<void> {
  const info = await Deno.lstat(path);
  if (!info.isDirectory) return;
  await Deno.chmod(path, 0o755);
  for await (const entry of Deno.readDir(path)) {
    await chmodTree(`${path}/${entry.name}`);
  }
}

const mode = async (path: string) => (await Deno.lstat(path)).mode! & 0o777;

Deno.test("installObserver() puts the plugin where every uid can read it and none can write it", async (t) => {
  await withRoot(async (root) => {
    // A strict umask must not narrow what the sandbox's uid may read.
    const umask = Deno.umask(0o077);
    const plugin = await installObserver(root).finally(() => Deno.umask(umask));
    await t.step("names drawn afresh, under the root", () => {
      assert.match(plugin.module, /^_pawl_observer_[0-9a-f]{16}$/);
      const suffix = plugin.module.slice("_pawl_observer_".length);
      assert.equal(plugin.root, `${root}/observer-${suffix}`);
      assert.equal(plugin.dir, `${plugin.root}/lib`);
      assert.equal(plugin.channels, `${plugin.root}/run`);
      assert.equal(plugin.userBase, `${plugin.root}/user`);
      assert.equal(plugin.lines, `${plugin.root}/changed-lines.json`);
      assert.equal(plugin.recorder, `_pawl_calls_${suffix}`);
    });
    await t.step("each directory and file has its mode", async () => {
      assert.equal(await mode(plugin.root), 0o755);
      assert.equal(await mode(plugin.dir), 0o555);
      assert.equal(await mode(plugin.channels), 0o711);
      assert.equal(await mode(`${plugin.dir}/${plugin.module}.py`), 0o444);
      assert.equal(await mode(`${plugin.dir}/${plugin.recorder}.py`), 0o444);
      for (const dir of ["user", "user/lib", "user/site"]) {
        assert.equal(await mode(`${plugin.root}/${dir}`), 0o555, dir);
      }
    });
    await t.step(
      "the plugin is pawl's source, and its hash says so",
      async () => {
        const source = await Deno.readFile(
          new URL("./pytest_plugin/pawl_observer.py", import.meta.url),
        );
        assert.deepEqual(
          await Deno.readFile(`${plugin.dir}/${plugin.module}.py`),
          source,
        );
        assert.equal(
          plugin.sha256,
          createHash("sha256").update(source).digest("hex"),
        );
      },
    );
    await t.step(
      "every version's user site is the plugin's directory, by relative links",
      async () => {
        for (const version of ["python3.0", "python3.12t", "pypy3.39"]) {
          const site = `${plugin.userBase}/lib/${version}/site-packages`;
          assert.equal(
            await Deno.realPath(site),
            await Deno.realPath(plugin.dir),
          );
          assert.equal(
            await Deno.readLink(`${plugin.userBase}/lib/${version}`),
            "../site",
          );
        }
        assert.equal(
          await Deno.readLink(`${plugin.userBase}/site/site-packages`),
          "../../lib",
        );
      },
    );
  });
});

Deno.test("USER_SITE_VERSIONS names every Python 3 minor version up to 3.39, plain, free-threaded and PyPy", () => {
  assert.equal(USER_SITE_VERSIONS.length, 120);
  assert.deepEqual(USER_SITE_VERSIONS.slice(0, 3), [
    "python3.0",
    "python3.0t",
    "pypy3.0",
  ]);
  assert.deepEqual(USER_SITE_VERSIONS.slice(-3), [
    "python3.39",
    "python3.39t",
    "pypy3.39",
  ]);
});

Deno.test("writeChangedLines() writes the lines to trace, read-only, replacing the last job's", async (t) => {
  await withRoot(async (root) => {
    const plugin = await installObserver(root);
    const lines = plugin.lines as string;
    await t.step("the tree and each file's lines", async () => {
      const umask = Deno.umask(0o077);
      await writeChangedLines(plugin, {
        root: "/tree",
        files: new Map([["src/a.py", [3, 5]]]),
      }).finally(() => Deno.umask(umask));
      assert.deepEqual(JSON.parse(await Deno.readTextFile(lines)), {
        root: "/tree",
        files: { "src/a.py": [3, 5] },
      });
      assert.equal(await mode(lines), 0o444);
    });
    await t.step("a second job's lines replace the first's", async () => {
      await writeChangedLines(plugin, { root: "/t2", files: new Map() });
      assert.deepEqual(JSON.parse(await Deno.readTextFile(lines)), {
        root: "/t2",
        files: {},
      });
    });
    await t.step("a plugin without a lines file is left alone", async () => {
      const { lines: _, ...without } = plugin;
      await writeChangedLines(without, { root: "/t3", files: new Map() });
      assert.equal(JSON.parse(await Deno.readTextFile(lines)).root, "/t2");
    });
  });
});

Deno.test("ObserverChannel.open() listens on a fresh socket every uid may connect to", async (t) => {
  await withRoot(async (root) => {
    const plugin = await installObserver(root);
    await t.step(
      "the socket is named by its token, under the channels",
      async () => {
        const channel = await ObserverChannel.open(plugin);
        try {
          assert.match(channel.token, /^[0-9a-f]{32}$/);
          assert.equal(
            channel.path,
            `${plugin.channels}/${channel.token.slice(0, 12)}.sock`,
          );
          assert.equal(await mode(channel.path), 0o777);
        } finally {
          await channel.finish(0);
        }
        await assert.rejects(() => Deno.lstat(channel.path));
      },
    );
    await t.step("a path too long for a unix socket is refused", async () => {
      const long = `${root}/${"d".repeat(100 - root.length - 16)}`;
      await Deno.mkdir(long);
      await assert.rejects(
        () => ObserverChannel.open({ ...plugin, channels: long }),
        (e: unknown) =>
          e instanceof RangeError &&
          e.message.includes(long) &&
          /longer than a unix socket allows; use a shorter TMPDIR/.test(
            e.message,
          ),
      );
      const fits = `${root}/${"e".repeat(100 - root.length - 19)}`;
      await Deno.mkdir(fits);
      const channel = await ObserverChannel.open({ ...plugin, channels: fits });
      assert.equal(new TextEncoder().encode(channel.path).length, 100);
      await channel.finish(0);
    });
    await t.step(
      "a connection still open after the grace is cut off",
      async () => {
        const channel = await ObserverChannel.open(plugin);
        const conn = await Deno.connect({
          transport: "unix",
          path: channel.path,
        });
        await conn.write(new TextEncoder().encode("partial\n"));
        const lines = await channel.finishLines(50);
        assert.deepEqual(lines, [["<cut off>"]]);
        conn.close();
      },
    );
  });
});
