import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import {
  fingerprint,
  git,
  makeSampleRepo,
  type SampleRepo,
  writeFiles,
} from "./_test_repo.ts";
import { cloneRepository } from "./clone_repository.ts";
import type { GitCli } from "./git_cli.ts";
import { GitError } from "./git_error.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every revision of the sample repository resolves in `gitCli`. */
async function assertAllRefs(gitCli: GitCli, repo: SampleRepo): Promise<void> {
  equal(await gitCli.resolveCommit("main"), repo.second);
  equal(await gitCli.resolveCommit("pr-branch"), repo.pr);
  equal(await gitCli.resolveCommit("v1"), repo.first);
  equal(await gitCli.resolveCommit("origin/main"), repo.first);
  equal(await gitCli.resolveCommit("refs/pull/7/head"), repo.pr);
  equal(await gitCli.resolveCommit("HEAD"), repo.second);
}

/** Exercise every read the gate does, so any trap in the source would fire. */
async function readEverything(
  gitCli: GitCli,
  exportDir: string,
): Promise<void> {
  const head = await gitCli.resolveCommit("pr-branch");
  const tree = await gitCli.listTree(head);
  const blobs = [...tree.values()].filter((e) =>
    e.kind === "file" || e.kind === "executable"
  );
  for (const entry of blobs) await gitCli.readBlob(entry.oid);
  await gitCli.sha256Blobs(blobs.map((e) => e.oid));
  await gitCli.changedPaths("main", head);
  await Deno.mkdir(exportDir);
  await gitCli.exportTree(head, exportDir);
}

Deno.test("cloneRepository() copies every ref without changing the source", async (t) => {
  const repo = await makeSampleRepo();
  const bare = `${repo.root}/bare.git`;
  await git(repo.root, "clone", "-q", "--bare", repo.work, bare);
  await git(bare, "update-ref", "refs/remotes/origin/main", repo.first);
  await git(bare, "update-ref", "refs/pull/7/head", repo.pr);
  try {
    await t.step(
      "from a work tree path, including an unreachable commit",
      async () => {
        const before = await fingerprint(repo.work);
        const progress: string[] = [];
        const gitCli = await cloneRepository(repo.work, {
          dest: `${repo.root}/from-work`,
          revisions: ["main", "origin/main", repo.dangling],
          onProgress: (line) => progress.push(line),
        });
        try {
          await assertAllRefs(gitCli, repo);
          equal(await gitCli.resolveCommit(repo.dangling), repo.dangling);
          await readEverything(gitCli, `${repo.root}/export-work`);
        } finally {
          await gitCli.close();
        }
        ok(progress.length > 0);
        equal(await fingerprint(repo.work), before);
        const config = await Deno.readTextFile(`${repo.root}/from-work/config`);
        ok(config.includes("bare = true"), config);
        equal(await exists(`${repo.root}/from-work/hooks`), false);
      },
    );

    await t.step("from a relative path to a bare repository", async () => {
      const before = await fingerprint(bare, bare);
      const gitCli = await cloneRepository(pathRelativeToCwd(bare), {
        dest: `${repo.root}/from-bare`,
      });
      try {
        await assertAllRefs(gitCli, repo);
      } finally {
        await gitCli.close();
      }
      equal(await fingerprint(bare, bare), before);
    });

    await t.step(
      "from a file:// URL, fetching a commit named by id",
      async () => {
        await git(repo.work, "config", "uploadpack.allowAnySHA1InWant", "true");
        const before = await fingerprint(repo.work);
        const gitCli = await cloneRepository(`file://${repo.work}`, {
          dest: `${repo.root}/from-url`,
          revisions: ["pr-branch", repo.dangling],
        });
        try {
          await assertAllRefs(gitCli, repo);
          equal(await gitCli.resolveCommit(repo.dangling), repo.dangling);
        } finally {
          await gitCli.close();
        }
        equal(await fingerprint(repo.work), before);
      },
    );

    await t.step(
      "fetches a ref outside the usual namespaces by name",
      async () => {
        await git(
          repo.work,
          "update-ref",
          "refs/merge-requests/3/head",
          repo.pr,
        );
        const gitCli = await cloneRepository(`file://${repo.work}`, {
          dest: `${repo.root}/from-url-mr`,
          revisions: ["refs/merge-requests/3/head", "merge-requests/3/head"],
        });
        try {
          equal(await gitCli.resolveCommit("merge-requests/3/head"), repo.pr);
        } finally {
          await gitCli.close();
        }
      },
    );

    await t.step("refuses a revision that does not resolve", async () => {
      await rejects(
        cloneRepository(repo.work, {
          dest: `${repo.root}/bad-rev`,
          revisions: ["main", "nope"],
        }),
        {
          name: "GitError",
          message: 'Cannot resolve revision "nope": unknown revision',
        },
      );
    });

    await t.step(
      "refuses a non-empty destination and leaves it alone",
      async () => {
        const dest = `${repo.root}/busy`;
        await writeFiles(dest, { "mine.txt": "keep\n" });
        await rejects(
          cloneRepository(repo.work, { dest }),
          /destination is not empty$/,
        );
        deepEqual(await Array.fromAsync(Deno.readDir(dest), (e) => e.name), [
          "mine.txt",
        ]);
      },
    );

    await t.step(
      "refuses missing sources, option-like sources and helper transports",
      async () => {
        await Deno.mkdir(`${repo.root}/plain`);
        await Deno.mkdir(`${repo.work}/subdirectory`);
        const notRepository =
          /: the directory exists but is not a git repository; give the top of a work tree/;
        const cases: [string, RegExp][] = [
          [`${repo.root}/missing`, /: no such directory$/],
          [`${repo.root}/plain`, notRepository],
          [`${repo.work}/subdirectory`, notRepository],
          ["--upload-pack=touch /tmp/pawl-injected", /source starts with "-"/],
          [
            "ext::sh -c touch% /tmp/pawl-injected",
            /remote helper transports are not supported$/,
          ],
          [`${repo.work}/README.md`, /: not a directory$/],
          ["", /source is empty$/],
        ];
        for (const [source, message] of cases) {
          await rejects(
            cloneRepository(source, { dest: `${repo.root}/refused` }),
            (error: unknown) =>
              error instanceof GitError && message.test(error.message),
            source,
          );
        }
        equal(await exists("/tmp/pawl-injected"), false);
      },
    );

    await t.step("masks credentials of a URL in errors", async () => {
      await rejects(
        cloneRepository("file://user:s3cret@localhost/nonexistent/repo", {
          dest: `${repo.root}/secret`,
        }),
        (error: unknown) => {
          ok(error instanceof GitError);
          ok(!error.message.includes("s3cret"), error.message);
          ok(!error.stderr.includes("s3cret"), error.stderr);
          ok(!error.args.join(" ").includes("s3cret"));
          return true;
        },
      );
    });
  } finally {
    await Deno.remove(repo.root, { recursive: true });
  }
});

/** `path` relative to the current directory (exercises relative sources). */
function pathRelativeToCwd(path: string): string {
  const from = Deno.cwd().split("/").filter((p) => p !== "");
  const to = path.split("/").filter((p) => p !== "");
  let common = 0;
  while (common < from.length && from[common] === to[common]) common++;
  return [...Array(from.length - common).fill(".."), ...to.slice(common)].join(
    "/",
  );
}

Deno.test("cloneRepository() never runs a hostile source's hooks or fsmonitor", async (t) => {
  const repo = await makeSampleRepo();
  const marker = `${repo.root}/marker`;
  const trap = `${repo.root}/trap.sh`;
  await Deno.writeTextFile(
    trap,
    `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`,
  );
  await Deno.chmod(trap, 0o755);
  const hookNames = [
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "fsmonitor-watchman",
    "post-index-change",
  ];
  for (const dir of [`${repo.root}/hooks`, `${repo.work}/.git/hooks`]) {
    await Deno.mkdir(dir, { recursive: true });
    for (const name of hookNames) await Deno.copyFile(trap, `${dir}/${name}`);
    for (const name of hookNames) await Deno.chmod(`${dir}/${name}`, 0o755);
  }
  const config: [string, string][] = [
    ["core.fsmonitor", trap],
    ["core.hooksPath", `${repo.root}/hooks`],
    ["uploadpack.packObjectsHook", trap],
    ["core.sshCommand", trap],
    ["filter.trap.smudge", trap],
    ["filter.trap.process", trap],
    ["diff.external", trap],
    ["core.alternateRefsCommand", trap],
    ["uploadpack.hideRefs", "refs/heads/nothing"],
  ];
  for (const [key, value] of config) await git(repo.work, "config", key, value);
  await git(repo.work, "config", "core.bare", "false");
  try {
    const sources: [string, string][] = [["path", repo.work], [
      "file:// URL",
      `file://${repo.work}`,
    ]];
    for (const [label, source] of sources) {
      await t.step(`through a ${label}`, async () => {
        const dest = `${repo.root}/clone-${label.replace(/\W/g, "")}`;
        const gitCli = await cloneRepository(source, {
          dest,
          revisions: ["main", "pr-branch", repo.dangling],
        });
        try {
          await readEverything(gitCli, `${dest}-export`);
        } finally {
          await gitCli.close();
        }
        equal(await exists(marker), false, "a trap in the source ran");
      });
    }

    if (Deno.uid() === 0) {
      await t.step("when the source is owned by another user", async () => {
        await new Deno.Command("chown", {
          args: ["-R", "4242:4242", repo.work],
        }).output();
        const gitCli = await cloneRepository(repo.work, {
          dest: `${repo.root}/clone-owned`,
        });
        try {
          await assertAllRefs(gitCli, repo);
          await readEverything(gitCli, `${repo.root}/clone-owned-export`);
        } finally {
          await gitCli.close();
        }
        equal(await exists(marker), false, "a trap in the source ran");
      });
    }

    await t.step("while the traps are armed for ordinary git use", async () => {
      // Control: plain `git status` in the source does run the fsmonitor trap.
      await new Deno.Command("git", {
        args: ["-c", "safe.directory=*", "status", "--short"],
        cwd: repo.work,
        clearEnv: true,
        env: {
          PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          GIT_CONFIG_NOSYSTEM: "1",
        },
        stdout: "null",
        stderr: "null",
      }).output();
      ok(await exists(marker), "the control did not trip the trap");
    });
  } finally {
    await Deno.remove(repo.root, { recursive: true });
  }
});
