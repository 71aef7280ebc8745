import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { BINARY, git, SUBMODULE_OID } from "./_test_repo.ts";
import { type FakeCommitFiles, FakeGit } from "./fake_git.ts";
import { GitCli } from "./git_cli.ts";
import { BlobTooLargeError, GitError } from "./git_error.ts";

const BASE: FakeCommitFiles = {
  "README.md": "# fake\n",
  "a.txt": "a\n",
  "a/b.txt": "nested\n",
  "a-b/c.txt": "dash\n",
  "bin/run.sh": { executable: "#!/bin/sh\n" },
  "data/binary.bin": BINARY,
  "link": { symlink: "README.md" },
  "sub": { submodule: SUBMODULE_OID },
  "kind.txt": "file for now\n",
  "gone.txt": "bye\n",
  "dir with space/ünï.txt": "odd path\n",
};

const HEAD: FakeCommitFiles = {
  ...Object.fromEntries(Object.entries(BASE).filter(([p]) => p !== "gone.txt")),
  "README.md": "# fake, changed\n",
  "bin/run.sh": "#!/bin/sh\n",
  "kind.txt": { symlink: "a.txt" },
  "added.txt": "new\n",
};

/** Commit `files` in the real repository at `work` (replacing its tree). */
async function commitReal(
  work: string,
  files: FakeCommitFiles,
): Promise<string> {
  await git(work, "rm", "-r", "-q", "--cached", "--ignore-unmatch", ".");
  for (const [path, entry] of Object.entries(files)) {
    let mode = "100644";
    let body: Uint8Array;
    if (typeof entry === "string") body = new TextEncoder().encode(entry);
    else if (entry instanceof Uint8Array) body = entry;
    else if ("symlink" in entry) {
      [mode, body] = ["120000", new TextEncoder().encode(entry.symlink)];
    } else if ("executable" in entry) {
      mode = "100755";
      body = typeof entry.executable === "string"
        ? new TextEncoder().encode(entry.executable)
        : entry.executable;
    } else {
      await git(
        work,
        "update-index",
        "--add",
        "--cacheinfo",
        `160000,${entry.submodule},${path}`,
      );
      continue;
    }
    const tmp = `${work}/.git/blob.tmp`;
    await Deno.writeFile(tmp, body);
    const oid = (await git(work, "hash-object", "-w", "--", tmp)).trim();
    await git(
      work,
      "update-index",
      "--add",
      "--cacheinfo",
      `${mode},${oid},${path}`,
    );
  }
  await git(work, "commit", "-q", "--allow-empty", "-m", "commit");
  return (await git(work, "rev-parse", "HEAD")).trim();
}

Deno.test("FakeGit agrees with GitCli over the same files", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "pawl-fake-git-test-" });
  const work = `${root}/work`;
  await Deno.mkdir(work);
  await git(work, "init", "-q");
  const base = await commitReal(work, BASE);
  const head = await commitReal(work, HEAD);
  const real = new GitCli(`${work}/.git`);
  const fake = new FakeGit({ commits: { base: BASE, head: HEAD } });
  try {
    await t.step(
      "listTree() gives the same entries, ids and order",
      async () => {
        deepEqual([...(await fake.listTree("base")).values()], [
          ...(await real.listTree(base)).values(),
        ]);
        deepEqual([...(await fake.listTree("head")).values()], [
          ...(await real.listTree(head)).values(),
        ]);
      },
    );

    await t.step("changedPaths() gives the same changes", async () => {
      deepEqual(
        await fake.changedPaths("base", "head"),
        await real.changedPaths(base, head),
      );
      deepEqual(
        await fake.changedPaths("head", "base"),
        await real.changedPaths(head, base),
      );
      deepEqual(await fake.changedPaths("base", "base"), []);
    });

    await t.step(
      "readBlob() and sha256Blobs() give the same bytes and digests",
      async () => {
        const blobs = [...(await fake.listTree("base")).values()].filter((e) =>
          e.kind !== "tree" && e.kind !== "submodule"
        );
        const oids = blobs.map((e) => e.oid);
        deepEqual(await fake.sha256Blobs(oids), await real.sha256Blobs(oids));
        for (const oid of oids) {
          deepEqual(await fake.readBlob(oid), await real.readBlob(oid));
        }
        const bytes = await fake.readBlob(oids[0] as string);
        equal(
          (await fake.sha256Blobs([oids[0] as string])).get(oids[0] as string),
          createHash("sha256").update(bytes).digest("hex"),
        );
      },
    );

    await t.step("exportTree() writes the same files as GitCli", async () => {
      const fakeDir = `${root}/fake-export`;
      const realDir = `${root}/real-export`;
      await Deno.mkdir(fakeDir);
      await Deno.mkdir(realDir);
      await fake.exportTree("head", fakeDir);
      await real.exportTree(head, realDir);
      deepEqual(await snapshot(fakeDir), await snapshot(realDir));
      await rejects(
        fake.exportTree("head", fakeDir),
        /destination is not empty$/,
      );
    });
  } finally {
    await real.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** Every path under `dir` with its kind, mode bits and content or target. */
async function snapshot(
  dir: string,
  prefix = "",
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    const full = `${dir}/${path}`;
    if (entry.isSymlink) out[path] = `link ${await Deno.readLink(full)}`;
    else if (entry.isDirectory) {
      out[path] = "dir";
      Object.assign(out, await snapshot(dir, `${path}/`));
    } else {
      const mode = ((await Deno.stat(full)).mode ?? 0) & 0o111
        ? "exec"
        : "file";
      out[path] = `${mode} ${
        createHash("sha256").update(await Deno.readFile(full)).digest("hex")
      }`;
    }
  }
  return out;
}

Deno.test("FakeGit resolves names and ids and refuses what git would", async () => {
  const id = "0123456789abcdef0123456789abcdef01234567";
  const fake = new FakeGit({
    commits: { main: { "a.txt": "hello\n" }, [id]: {} },
  });
  const main = await fake.resolveCommit("main");
  ok(/^[0-9a-f]{40}$/.test(main));
  equal(await fake.resolveCommit(main), main);
  equal(await fake.resolveCommit(id), id);
  equal((await fake.listTree(id)).size, 0);
  await rejects(fake.resolveCommit("nope"), {
    name: "GitError",
    message: 'Cannot resolve revision "nope": unknown revision',
  });
  const oid = (await fake.listTree("main")).get("a.txt")?.oid ?? "";
  equal(oid, "ce013625030ba8dba906f756967f9e9ca394464a");
  await rejects(fake.readBlob(oid, { maxBytes: 3 }), BlobTooLargeError);
  await rejects(fake.readBlob("f".repeat(40)), GitError);
  await rejects(fake.sha256Blobs(["f".repeat(40)]), GitError);
  await fake.close();
  await rejects(fake.listTree("main"), /the repository is closed$/);
  await rejects(fake.readBlob(oid), /the repository is closed$/);
});

Deno.test("FakeGit refuses data no git tree can hold", async (t) => {
  const cases: [string, FakeCommitFiles][] = [
    ["a path that is both file and directory", { "a": "x", "a/b": "y" }],
    ["a directory that is also a file", { "a/b": "y", "a": "x" }],
    ["a path with a dot-dot segment", { "a/../b": "x" }],
    ["an absolute path", { "/etc/passwd": "x" }],
    ["an empty path", { "": "x" }],
    ["a path with an empty segment", { "a//b": "x" }],
  ];
  for (const [name, files] of cases) {
    await t.step(name, () => {
      let threw = false;
      try {
        new FakeGit({ commits: { main: files } });
      } catch (error) {
        threw = error instanceof TypeError;
      }
      ok(threw);
    });
  }
});
