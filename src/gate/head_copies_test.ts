import assert from "node:assert/strict";
import { cloneRepository } from "../git/clone_repository.ts";
import { leaseSandboxUid } from "../sandbox/lease_uid.ts";
import { ProcessSandbox } from "../sandbox/process_sandbox.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import { headCopies } from "./head_copies.ts";
import { tempWorkspaces } from "./temp_workspace.ts";

/** Held until the test process exits; every run kills all processes of its uid. */
const UID = (await leaseSandboxUid({ range: { first: 64480, last: 64489 } }))
  .uid;

async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A repository whose one commit has data files, a package with bytecode, and a symlink. */
async function withRepo(
  fn: (
    ctx: { source: string; work: string; head: string; parent: string },
  ) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-head-copies-test-" });
  try {
    const source = `${root}/source`;
    await Deno.mkdir(`${source}/data`, { recursive: true });
    await Deno.mkdir(`${source}/pkg/__pycache__`, { recursive: true });
    await git(root, "init", "-q", "-b", "main", source);
    for (let i = 0; i < 5; i++) {
      await Deno.writeTextFile(`${source}/data/f${i}.txt`, `v = ${i}\n`);
    }
    await Deno.writeTextFile(`${source}/pkg/mod.py`, "X = 1\n");
    await Deno.writeTextFile(`${source}/pkg/__pycache__/mod.pyc`, "junk");
    await Deno.symlink("mod.py", `${source}/pkg/alias.py`);
    await git(source, "add", "-A");
    await git(source, "commit", "-q", "-m", "files");
    const head = await git(source, "rev-parse", "HEAD");
    const parent = `${root}/shm`;
    await Deno.mkdir(parent);
    await fn({ source, work: `${root}/work`, head, parent });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("headCopies() exports a small tree afresh for every run", async () => {
  await withRepo(async ({ source, work, head }) => {
    const repo = await cloneRepository(source, { dest: `${work}-clone` });
    const workspace = await tempWorkspaces()("pawl-head-copies-small");
    try {
      const sandbox = new FakeSandbox(() => ({ code: 0 }), {
        isolation: { tier: "uid", network: "inherited", notes: [] },
      });
      const copies = await headCopies(repo, head, {
        workspace,
        sandbox,
        headTree: await repo.listTree(head),
        sharedFrom: 100,
      });
      assert.equal(copies.shared, false);
      const a = await copies.copy("work-1");
      await copies.prepare(a);
      assert.equal((await Deno.stat(`${a}/data/f1.txt`)).nlink, 1);
      assert.deepEqual(sandbox.sharedDirs, []);
      assert.deepEqual(sandbox.preparedDirs, [a]);
    } finally {
      await workspace.remove();
      await repo.close?.();
    }
  });
});

Deno.test("headCopies() names a copy's directory before the export fills it, and fills that one", async () => {
  await withRepo(async ({ source, work, head }) => {
    const repo = await cloneRepository(source, { dest: `${work}-clone` });
    const workspace = await tempWorkspaces()("pawl-head-copies-made");
    try {
      const copies = await headCopies(repo, head, {
        workspace,
        sandbox: new FakeSandbox(() => ({ code: 0 })),
        headTree: await repo.listTree(head),
        sharedFrom: 100,
      });
      const seen: { dir: string; entries: number; ino: number | null }[] = [];
      const dir = await copies.copy("work-1", (made) => {
        // Read at once: the export starts writing when this returns.
        const entries = [...Deno.readDirSync(made)].length;
        const ino = Deno.statSync(made).ino;
        seen.push({ dir: made, entries, ino });
      });
      assert.deepEqual(seen.map((s) => [s.dir, s.entries]), [[dir, 0]]);
      assert.equal((await Deno.stat(dir)).ino, seen[0]!.ino);
      assert.equal(await Deno.readTextFile(`${dir}/data/f1.txt`), "v = 1\n");
    } finally {
      await workspace.remove();
      await repo.close?.();
    }
  });
});

for (const requested of ["auto", "uid"] satisfies IsolationRequest[]) {
  Deno.test(`headCopies() shares a huge tree's files read-only between runs (${requested})`, async () => {
    await withRepo(async ({ source, work, head, parent }) => {
      const repo = await cloneRepository(source, { dest: `${work}-clone` });
      const workspace = await tempWorkspaces()("pawl-head-copies-shared");
      const sandbox = await ProcessSandbox.create({
        requested,
        uid: UID,
        gid: UID,
      });
      const copies = await headCopies(repo, head, {
        workspace,
        sandbox,
        headTree: await repo.listTree(head),
        sharedFrom: 5,
        sharedParent: parent,
      });
      try {
        assert.equal(copies.shared, true);
        const first = await copies.copy("work-1");
        await copies.prepare(first);
        assert.ok(first.startsWith(`${parent}/pawl-tree-`), first);
        assert.equal((await Deno.stat(`${first}/data/f1.txt`)).nlink, 2);
        assert.equal((await Deno.stat(`${first}/data/f1.txt`)).uid, 0);
        assert.equal((await Deno.stat(`${first}/data`)).uid, UID);
        assert.equal(await Deno.readLink(`${first}/pkg/alias.py`), "mod.py");
        await assert.rejects(Deno.lstat(`${first}/pkg/__pycache__`));
        // The run writes what it can: a shared file in place (refused),
        // a new file, and a replacement of another shared file.
        const script = [
          "echo hacked > data/f1.txt && exit 9",
          "echo mine > data/new.txt || exit 8",
          "rm data/f2.txt && echo replaced > data/f2.txt || exit 7",
          "chmod 666 data/f3.txt && exit 6",
          "exit 0",
        ].join("\n");
        const result = await sandbox.run({
          argv: ["sh", "-c", script],
          cwd: first,
          env: { PATH: "/usr/bin:/bin", HOME: first },
          writable: [],
          limits: { timeoutMs: 30_000 },
        });
        assert.equal(result.code, 0, result.outputHead);
        assert.equal(
          await Deno.readTextFile(`${first}/data/f2.txt`),
          "replaced\n",
        );
        const second = await copies.copy("work-2");
        await copies.prepare(second);
        assert.equal(
          await Deno.readTextFile(`${second}/data/f1.txt`),
          "v = 1\n",
        );
        assert.equal(
          await Deno.readTextFile(`${second}/data/f2.txt`),
          "v = 2\n",
        );
        assert.equal(
          (await Deno.stat(`${second}/data/f3.txt`)).mode! & 0o777,
          0o644,
        );
        await assert.rejects(Deno.lstat(`${second}/data/new.txt`));
        // The oracle's directory is where the copies are, and the head's
        // tree is written into it as a copy.
        const oracle = await copies.mkdir("work-3");
        await copies.source.exportTree(head, oracle);
        assert.equal((await Deno.stat(`${oracle}/data/f4.txt`)).nlink, 4);
      } finally {
        await copies.remove();
        await workspace.remove();
        await repo.close?.();
      }
      assert.deepEqual(await Array.fromAsync(Deno.readDir(parent)), []);
    });
  });
}
