import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  BINARY,
  catBlob,
  git,
  makeSampleRepo,
  run,
  SUBMODULE_OID,
  writeFiles,
} from "./_test_repo.ts";
import { cloneRepository } from "./clone_repository.ts";
import { GitCli } from "./git_cli.ts";
import { BlobTooLargeError, GitError } from "./git_error.ts";

const text = (s: string) => new TextEncoder().encode(s);

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("GitCli reads a cloned repository through git objects", async (t) => {
  const repo = await makeSampleRepo();
  const gitCli = await cloneRepository(repo.work, {
    dest: `${repo.root}/clone.git`,
  });
  try {
    await t.step(
      "resolveCommit() resolves branches, tags, ids and expressions",
      async () => {
        const short = repo.second.slice(0, 8);
        const cases: [string, string][] = [
          ["main", repo.second],
          ["pr-branch", repo.pr],
          ["v1", repo.first],
          ["refs/tags/v1", repo.first],
          [short, repo.second],
          [repo.first, repo.first],
          ["main~1", repo.first],
          ["HEAD~1", repo.first],
          ["HEAD", repo.second],
          ["origin/main", repo.first],
          ["pull/7/head", repo.pr],
        ];
        for (const [rev, expected] of cases) {
          equal(await gitCli.resolveCommit(rev), expected, rev);
        }
      },
    );

    await t.step("resolveCommit() names an unknown revision", async () => {
      await rejects(
        gitCli.resolveCommit("no-such-branch"),
        (error: unknown) => {
          ok(error instanceof GitError);
          equal(
            error.message,
            'Cannot resolve revision "no-such-branch": unknown revision',
          );
          return true;
        },
      );
    });

    await t.step("resolveCommit() refuses a blob as a commit", async () => {
      const readme = (await gitCli.listTree(repo.first)).get("README.md");
      await rejects(gitCli.resolveCommit(readme?.oid ?? ""), /: not a commit$/);
    });

    await t.step("resolveCommit() refuses option injection", async () => {
      const marker = `${repo.root}/injected`;
      for (
        const rev of [
          `--upload-pack=touch ${marker}`,
          `--output=${marker}`,
          "-h",
          "",
          "main\n--all",
        ]
      ) {
        await rejects(gitCli.resolveCommit(rev), GitError, JSON.stringify(rev));
      }
      await rejects(
        gitCli.resolveCommit("--upload-pack=x"),
        {
          message:
            'Cannot resolve revision "--upload-pack=x": revision starts with "-"',
        },
      );
      equal(await exists(marker), false);
    });

    await t.step(
      "resolveCommit() ignores the caller's git environment",
      async () => {
        const saved = Deno.env.get("GIT_DIR");
        Deno.env.set("GIT_DIR", `${repo.root}/not-a-repo`);
        try {
          equal(await gitCli.resolveCommit("main"), repo.second);
        } finally {
          if (saved === undefined) Deno.env.delete("GIT_DIR");
          else Deno.env.set("GIT_DIR", saved);
        }
      },
    );

    await t.step("listTree() lists every kind of entry", async () => {
      const tree = await gitCli.listTree(repo.first);
      const kinds = Object.fromEntries(
        [...tree.values()].map((e) => [e.path, e.kind]),
      );
      deepEqual(kinds, {
        ".gitattributes": "file",
        "README.md": "file",
        "bin": "tree",
        "bin/run.sh": "executable",
        "data": "tree",
        "data/binary.bin": "file",
        "dir with space": "tree",
        "dir with space/file name.txt": "file",
        "gone.txt": "file",
        "kind.txt": "file",
        "link": "symlink",
        "new\nline.txt": "file",
        "sub": "submodule",
        "subst.txt": "file",
        "tests": "tree",
        "tests/agent_contract.yaml": "file",
        "unicode": "tree",
        "unicode/ünïcødé 日本.txt": "file",
      });
      deepEqual(tree.get("sub"), {
        path: "sub",
        kind: "submodule",
        oid: SUBMODULE_OID,
        size: 0,
      });
      deepEqual(tree.get("link")?.size, "README.md".length);
      equal(tree.get("data/binary.bin")?.size, BINARY.length);
      equal(tree.get("bin")?.size, 0);
      const lsTree = await git(
        repo.work,
        "ls-tree",
        "-r",
        "-t",
        "-z",
        repo.first,
      );
      const oids = lsTree.split("\0").filter((r) => r !== "").map((r) =>
        r.split(/\s/)[2]
      );
      deepEqual([...tree.values()].map((e) => e.oid), oids);
    });

    await t.step(
      "listTree() reports the mode change of a later commit",
      async () => {
        const tree = await gitCli.listTree(repo.second);
        equal(tree.get("bin/run.sh")?.kind, "file");
        equal(tree.get("kind.txt")?.kind, "symlink");
        equal(tree.has("gone.txt"), false);
      },
    );

    await t.step("listTree() names an unknown commit", async () => {
      await rejects(
        gitCli.listTree("nope"),
        /^GitError: Cannot list tree of commit "nope": /,
      );
      await rejects(gitCli.listTree("--format=x"), /revision starts with "-"/);
    });

    const tree = await gitCli.listTree(repo.first);
    const oidOf = (path: string) => tree.get(path)?.oid ?? "";

    await t.step(
      "readBlob() returns exact bytes, text and binary",
      async () => {
        deepEqual(
          await gitCli.readBlob(oidOf("README.md")),
          text("# sample\n"),
        );
        deepEqual(await gitCli.readBlob(oidOf("data/binary.bin")), BINARY);
        deepEqual(await gitCli.readBlob(oidOf("link")), text("README.md"));
        deepEqual(
          await gitCli.readBlob(oidOf("new\nline.txt")),
          text("newline in name\n"),
        );
      },
    );

    await t.step(
      "readBlob() refuses a blob over maxBytes and stays in sync",
      async () => {
        await rejects(
          gitCli.readBlob(oidOf("data/binary.bin"), { maxBytes: 10 }),
          (error: unknown) => {
            ok(error instanceof BlobTooLargeError);
            ok(error instanceof RangeError);
            equal(error.oid, oidOf("data/binary.bin"));
            equal(error.size, BINARY.length);
            equal(
              error.message,
              `Cannot read blob "${
                oidOf("data/binary.bin")
              }": ${BINARY.length} bytes exceed the limit of 10 bytes`,
            );
            return true;
          },
        );
        deepEqual(
          await gitCli.readBlob(oidOf("README.md"), { maxBytes: 9 }),
          text("# sample\n"),
        );
        deepEqual(await gitCli.readBlob(oidOf("data/binary.bin")), BINARY);
      },
    );

    await t.step(
      "readBlob() refuses missing objects, trees and non-ids",
      async () => {
        const missing = "0123456789012345678901234567890123456789";
        await rejects(gitCli.readBlob(missing), {
          message: `Cannot read blob "${missing}": object not found`,
        });
        await rejects(gitCli.readBlob(oidOf("bin")), /object is a tree$/);
        await rejects(
          gitCli.readBlob("HEAD:README.md"),
          /not a full hexadecimal object id/,
        );
        await rejects(
          gitCli.readBlob(`${oidOf("README.md")}\n${missing}`),
          GitError,
        );
        deepEqual(
          await gitCli.readBlob(oidOf("subst.txt")),
          text("commit $Format:%H$\n"),
        );
      },
    );

    await t.step(
      "readBlob() keeps pipelined requests in sync past missing objects and trees",
      async () => {
        const missing = "0123456789012345678901234567890123456789";
        const requests = Array.from(
          { length: 40 },
          (_, i) => [oidOf("README.md"), missing, oidOf("bin")][i % 3],
        ) as string[];
        const results = await Promise.allSettled(
          requests.map((oid) => gitCli.readBlob(oid)),
        );
        for (const [i, result] of results.entries()) {
          if (i % 3 === 0) {
            deepEqual(
              result,
              { status: "fulfilled", value: text("# sample\n") },
            );
          } else {
            equal(result.status, "rejected");
            const reason = (result as PromiseRejectedResult).reason;
            ok(reason instanceof GitError);
            match(
              reason.message,
              i % 3 === 1 ? /object not found$/ : /object is a tree$/,
            );
          }
        }
      },
    );

    await t.step(
      "readBlob() answers concurrent callers correctly",
      async () => {
        const paths = [
          "README.md",
          "data/binary.bin",
          "link",
          "bin/run.sh",
          "subst.txt",
        ];
        const expected = await Promise.all(
          paths.map((p) => catBlob(repo.work, oidOf(p))),
        );
        const calls = Array.from({ length: 60 }, (_, i) => {
          const index = i % paths.length;
          const read = gitCli.readBlob(oidOf(paths[index] as string), {
            maxBytes: i % 7 === 0 ? 4 : 1 << 20,
          });
          return read.then(
            (bytes) => ({ index, bytes }),
            (error: unknown) => ({ index, error }),
          );
        });
        for (const [i, result] of (await Promise.all(calls)).entries()) {
          if ("error" in result) {
            ok(result.error instanceof BlobTooLargeError);
            equal(i % 7, 0);
          } else {
            deepEqual(result.bytes, expected[result.index]);
          }
        }
      },
    );

    await t.step(
      "sha256Blobs() matches node:crypto and sha256sum",
      async () => {
        const blobs = [...tree.values()].filter((e) =>
          e.kind !== "tree" && e.kind !== "submodule"
        );
        const digests = await gitCli.sha256Blobs([
          ...blobs.map((e) => e.oid),
          oidOf("README.md"),
        ]);
        equal(digests.size, new Set(blobs.map((e) => e.oid)).size);
        for (const entry of blobs) {
          equal(
            digests.get(entry.oid),
            sha256(await gitCli.readBlob(entry.oid)),
            entry.path,
          );
        }
        await git(repo.work, "checkout", "-q", repo.first);
        try {
          for (const path of ["README.md", "data/binary.bin"]) {
            const sum =
              (await run(repo.work, "sha256sum", "--", path)).split(" ")[0];
            equal(digests.get(oidOf(path)), sum, path);
          }
        } finally {
          await git(repo.work, "checkout", "-q", "main");
        }
        deepEqual(await gitCli.sha256Blobs([]), new Map());
      },
    );

    await t.step(
      "sha256Blobs() refuses a missing object, then works again",
      async () => {
        const missing = "0123456789012345678901234567890123456789";
        const many = [...tree.values()].filter((e) => e.kind === "file").map((
          e,
        ) => e.oid);
        await rejects(gitCli.sha256Blobs([...many, missing, ...many]), {
          message: `Cannot hash blob "${missing}": object not found`,
        });
        await rejects(gitCli.sha256Blobs([oidOf("bin")]), /object is a tree$/);
        await rejects(
          gitCli.sha256Blobs(["main"]),
          /not a full hexadecimal object id/,
        );
        equal((await gitCli.sha256Blobs(many)).size, new Set(many).size);
      },
    );

    await t.step(
      "exportTree() writes the committed bytes, symlinks and modes",
      async () => {
        const dest = await Deno.makeTempDir({
          dir: repo.root,
          prefix: "export-",
        });
        await gitCli.exportTree(repo.first, dest);
        equal(await exists(`${dest}/.git`), false);
        equal(await Deno.readLink(`${dest}/link`), "README.md");
        ok((await Deno.lstat(`${dest}/link`)).isSymlink);
        equal((await Deno.stat(`${dest}/bin/run.sh`)).mode! & 0o111, 0o111);
        equal((await Deno.stat(`${dest}/README.md`)).mode! & 0o111, 0);
        // The tree's own .gitattributes cannot hide, rewrite or re-encode files.
        deepEqual(await Deno.readFile(`${dest}/README.md`), text("# sample\n"));
        deepEqual(
          await Deno.readFile(`${dest}/subst.txt`),
          text("commit $Format:%H$\n"),
        );
        deepEqual(
          await Deno.readFile(`${dest}/new\nline.txt`),
          text("newline in name\n"),
        );
        deepEqual(await Deno.readFile(`${dest}/data/binary.bin`), BINARY);
        ok((await Deno.stat(`${dest}/unicode/ünïcødé 日本.txt`)).isFile);
        ok((await Deno.stat(`${dest}/sub`)).isDirectory);
      },
    );

    await t.step(
      "exportTree() refuses a non-empty or missing destination",
      async () => {
        const dest = await Deno.makeTempDir({
          dir: repo.root,
          prefix: "export-",
        });
        await writeFiles(dest, { "keep.txt": "mine\n" });
        await rejects(
          gitCli.exportTree(repo.first, dest),
          /destination is not empty$/,
        );
        deepEqual(await Array.fromAsync(Deno.readDir(dest), (e) => e.name), [
          "keep.txt",
        ]);
        await rejects(
          gitCli.exportTree(repo.first, `${dest}/missing`),
          GitError,
        );
        await rejects(
          gitCli.exportTree(repo.first, `${dest}/keep.txt`),
          /not a directory$/,
        );
      },
    );

    await t.step("exportTree() names an unknown commit", async () => {
      const dest = await Deno.makeTempDir({
        dir: repo.root,
        prefix: "export-",
      });
      await rejects(
        gitCli.exportTree("nope", dest),
        /^GitError: Cannot export commit "nope"/,
      );
    });

    await t.step(
      "changedPaths() reports added, modified, deleted and type-changed paths",
      async () => {
        deepEqual(await gitCli.changedPaths(repo.first, repo.second), [
          { status: "M", path: "README.md" },
          { status: "A", path: "added.txt" },
          { status: "M", path: "bin/run.sh" },
          { status: "D", path: "gone.txt" },
          { status: "T", path: "kind.txt" },
        ]);
        deepEqual(await gitCli.changedPaths("main", "pr-branch"), [
          { status: "M", path: "tests/agent_contract.yaml" },
        ]);
        deepEqual(await gitCli.changedPaths("main", "main"), []);
        await rejects(
          gitCli.changedPaths("main", "--output=x"),
          /revision starts with "-"/,
        );
        await rejects(
          gitCli.changedPaths("main", "nope"),
          /^GitError: Cannot compare "main" with "nope"/,
        );
      },
    );
  } finally {
    await gitCli.close();
    await Deno.remove(repo.root, { recursive: true });
  }
});

Deno.test("GitCli.close() ends the reader and later calls fail", async () => {
  const repo = await makeSampleRepo();
  try {
    const gitCli = await cloneRepository(repo.work, {
      dest: `${repo.root}/clone.git`,
    });
    const readme = (await gitCli.listTree("main")).get("README.md")?.oid ?? "";
    const pending = gitCli.readBlob(readme);
    await gitCli.close();
    deepEqual(await pending, text("# sample, changed\n"));
    await gitCli.close();
    await rejects(gitCli.readBlob(readme), /the repository is closed$/);
    await rejects(gitCli.resolveCommit("main"), /the repository is closed$/);
  } finally {
    await Deno.remove(repo.root, { recursive: true });
  }
});

Deno.test("GitCli.sha256Blobs() streams large blobs across chunk boundaries", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl-git-test-" });
  try {
    const work = `${root}/work`;
    await Deno.mkdir(work);
    await git(work, "init", "-q");
    const sizes = [
      0,
      1,
      65535,
      65536,
      65537,
      (1 << 20) - 1,
      (1 << 20) + 1,
      3 * (1 << 20) + 7,
    ];
    const files: Record<string, Uint8Array> = {};
    for (const [i, size] of sizes.entries()) {
      const bytes = new Uint8Array(size);
      for (let j = 0; j < size; j++) {
        bytes[j] = (j * 31 + i * 7 + (j >> 9)) & 0xff;
      }
      files[`f${i}.bin`] = bytes;
    }
    await writeFiles(work, files);
    await git(work, "add", "-A");
    await git(work, "commit", "-q", "-m", "sizes");
    // Loose objects first, then the same blobs packed.
    for (
      const [threads, pack] of [[1, false], [3, false], [2, true]] as const
    ) {
      if (pack) await git(work, "repack", "-a", "-d", "-q");
      await using gitCli = new GitCli(`${work}/.git`, { hashThreads: threads });
      const tree = await gitCli.listTree("HEAD");
      const oids = Object.keys(files).map((path) => tree.get(path)?.oid ?? "");
      const digests = await gitCli.sha256Blobs(oids);
      for (const [path, bytes] of Object.entries(files)) {
        equal(
          digests.get(tree.get(path)?.oid ?? ""),
          sha256(bytes),
          `${path} with ${threads} threads${pack ? ", packed" : ""}`,
        );
        deepEqual(await gitCli.readBlob(tree.get(path)?.oid ?? ""), bytes);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("GitCli.listTree() refuses a path that is not UTF-8", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl-git-test-" });
  try {
    await git(root, "init", "-q");
    await writeFiles(root, { "ok.txt": "ok\n" });
    const oid = (await git(root, "hash-object", "-w", "ok.txt")).trim();
    const child = new Deno.Command("git", {
      args: ["update-index", "--index-info"],
      cwd: root,
      stdin: "piped",
      env: { GIT_CONFIG_GLOBAL: "/dev/null" },
    }).spawn();
    const line = new Uint8Array([
      ...text(`100644 ${oid}\tbad-`),
      0xff,
      0xfe,
      10,
    ]);
    const writer = child.stdin.getWriter();
    await writer.write(line);
    await writer.close();
    ok((await child.status).success);
    await git(root, "commit", "-q", "-m", "latin-1 name");
    await using gitCli = new GitCli(`${root}/.git`);
    await rejects(
      gitCli.listTree("HEAD"),
      /^GitError: Cannot list tree of commit "HEAD": path "bad-\uFFFD\uFFFD" is not valid UTF-8$/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("GitCli rejects cleanly when git cannot start", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "pawl-git-test-" });
  try {
    await git(root, "init", "-q", "--bare");
    const oids = ["a".repeat(40), "b".repeat(40)];
    await t.step("with git missing from PATH", async () => {
      await using gitCli = new GitCli(root, { path: `${root}/no-bin` });
      const missing = /^GitError: Cannot run "(git|tar)" in "[^"]+": /;
      await rejects(gitCli.resolveCommit("HEAD"), missing);
      await rejects(gitCli.readBlob(oids[0] as string), missing);
      await rejects(gitCli.sha256Blobs(oids), missing);
      const dest = await Deno.makeTempDir({ dir: root });
      await rejects(gitCli.exportTree("HEAD", dest), missing);
    });
    await t.step("with a git directory that does not exist", async () => {
      await using gitCli = new GitCli(`${root}/missing.git`);
      await rejects(gitCli.readBlob(oids[0] as string), /missing\.git/);
      await rejects(gitCli.listTree("HEAD"), GitError);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("GitCli refuses crafted trees git would not check out", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "pawl-git-test-" });
  /** Run git with `input` on stdin; returns trimmed stdout. */
  async function gitInput(input: string, ...args: string[]): Promise<string> {
    const child = new Deno.Command("git", {
      args,
      cwd: root,
      stdin: "piped",
      stdout: "piped",
      env: { GIT_CONFIG_GLOBAL: "/dev/null" },
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(text(input));
    await writer.close();
    const output = await child.output();
    ok(output.success);
    return new TextDecoder().decode(output.stdout).trim();
  }
  try {
    await git(root, "init", "-q", "--bare");
    const blob = await gitInput("evil\n", "hash-object", "-w", "--stdin");
    const inner = await gitInput(`100644 blob ${blob}\tpwn\n`, "mktree");
    const trees: [string, string][] = [
      [
        "a dot-dot directory",
        `040000 tree ${inner}\t..\n100644 blob ${blob}\tok\n`,
      ],
      ["a .git directory", `040000 tree ${inner}\t.git\n`],
      [
        "a duplicate name",
        `100644 blob ${blob}\tdup\n120000 blob ${blob}\tdup\n`,
      ],
    ];
    await using gitCli = new GitCli(root);
    for (const [name, listing] of trees) {
      await t.step(name, async () => {
        const tree = await gitInput(listing, "mktree");
        const commit = (await git(root, "commit-tree", "-m", name, tree))
          .trim();
        await rejects(
          gitCli.listTree(commit),
          /^GitError: Cannot list tree of commit/,
        );
        const dest = await Deno.makeTempDir({ dir: root, prefix: "export-" });
        await rejects(gitCli.exportTree(commit, dest), GitError);
        equal(await exists(`${root}/pwn`), false);
        equal(await exists(`${dest}/.git`), false);
      });
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
