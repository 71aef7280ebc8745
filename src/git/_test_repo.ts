/**
 * Test helpers: real git repositories in temporary directories, built with
 * real `git` commands. Only this folder's tests import it.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** Environment for building test repositories: deterministic, no user config. */
function testEnv(): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_AUTHOR_DATE: "2024-01-02T03:04:05Z",
    GIT_COMMITTER_NAME: "Test Committer",
    GIT_COMMITTER_EMAIL: "committer@example.com",
    GIT_COMMITTER_DATE: "2024-01-02T03:04:05Z",
  };
}

/**
 * Run `git` in `cwd` (hooks and fsmonitor off, so only the code under test
 * can trip a hostile repository's traps); returns stdout, throws on failure.
 */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args: [
      "-c",
      "core.hooksPath=/dev/null",
      "-c",
      "core.fsmonitor=false",
      "-c",
      "init.defaultBranch=main",
      "-c",
      "protocol.file.allow=always",
      ...args,
    ],
    cwd,
    clearEnv: true,
    env: testEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(
      `Test git ${JSON.stringify(args)} failed: ${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  return text;
}

/** `git cat-file blob <oid>` in `cwd`, as bytes. */
export async function catBlob(cwd: string, oid: string): Promise<Uint8Array> {
  const output = await new Deno.Command("git", {
    args: ["cat-file", "blob", oid],
    cwd,
    clearEnv: true,
    env: testEnv(),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(`Test git cat-file blob ${oid} failed`);
  return output.stdout;
}

/** Run any command, returning stdout; throws on failure. */
export async function run(
  cwd: string,
  program: string,
  ...args: string[]
): Promise<string> {
  const output = await new Deno.Command(program, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(
      `Test ${program} ${JSON.stringify(args)} failed: ${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  return new TextDecoder().decode(output.stdout);
}

/** Write `files` (text or bytes) under `dir`, creating parent directories. */
export async function writeFiles(
  dir: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), {
      recursive: true,
    });
    if (typeof content === "string") await Deno.writeTextFile(target, content);
    else await Deno.writeFile(target, content);
  }
}

/** Every byte value once, then some text: a binary blob. */
export const BINARY: Uint8Array = new Uint8Array([
  ...Array.from({ length: 256 }, (_, i) => i),
  ...new TextEncoder().encode("\r\n\0tail\n"),
]);

/** The sample repository the adapter tests read. */
export interface SampleRepo {
  /** Temp directory holding everything (remove it when done). */
  root: string;
  /** The work tree (with `.git`). */
  work: string;
  /** First commit on `main` (tagged `v1`, annotated). */
  first: string;
  /** Second commit on `main`. */
  second: string;
  /** Commit on branch `pr-branch`, child of `second`. */
  pr: string;
  /** A commit no ref reaches. */
  dangling: string;
}

/** The submodule commit id used for the gitlink entry `sub`. */
export const SUBMODULE_OID = "1234567890abcdef1234567890abcdef12345678";

/**
 * Build a repository with every entry kind and awkward paths:
 * `main` = first → second, `pr-branch` = second → pr, tag `v1` on first,
 * `refs/remotes/origin/main`, `refs/pull/7/head`, one dangling commit.
 */
export async function makeSampleRepo(): Promise<SampleRepo> {
  const root = await Deno.makeTempDir({ prefix: "pawl-git-test-" });
  const work = `${root}/work`;
  await Deno.mkdir(work);
  await git(work, "init", "-q");
  await writeFiles(work, {
    "README.md": "# sample\n",
    "bin/run.sh": "#!/bin/sh\necho run\n",
    "dir with space/file name.txt": "spaced\n",
    "new\nline.txt": "newline in name\n",
    "unicode/ünïcødé 日本.txt": "unicode\n",
    "data/binary.bin": BINARY,
    "tests/agent_contract.yaml": "version: 1\n",
    "subst.txt": "commit $Format:%H$\n",
    "kind.txt": "becomes a symlink\n",
    "gone.txt": "deleted later\n",
    ".gitattributes":
      "README.md export-ignore\nsubst.txt export-subst\n*.txt text eol=crlf\n",
  });
  await Deno.chmod(`${work}/bin/run.sh`, 0o755);
  await Deno.symlink("README.md", `${work}/link`);
  await git(work, "add", "-A");
  await git(
    work,
    "update-index",
    "--add",
    "--cacheinfo",
    `160000,${SUBMODULE_OID},sub`,
  );
  await git(work, "commit", "-q", "-m", "first");
  const first = (await git(work, "rev-parse", "HEAD")).trim();
  await git(work, "tag", "-a", "-m", "version 1", "v1");

  await writeFiles(work, {
    "README.md": "# sample, changed\n",
    "added.txt": "new\n",
  });
  await Deno.remove(`${work}/gone.txt`);
  await Deno.remove(`${work}/kind.txt`);
  await Deno.symlink("README.md", `${work}/kind.txt`);
  await Deno.chmod(`${work}/bin/run.sh`, 0o644);
  await git(work, "add", "-A");
  // The gitlink has no directory in the work tree, so `add -A` dropped it.
  await git(
    work,
    "update-index",
    "--add",
    "--cacheinfo",
    `160000,${SUBMODULE_OID},sub`,
  );
  await git(work, "commit", "-q", "-m", "second");
  const second = (await git(work, "rev-parse", "HEAD")).trim();

  await git(work, "checkout", "-q", "-b", "pr-branch");
  await writeFiles(work, {
    "tests/agent_contract.yaml": "version: 1\nproperties: []\n",
  });
  await git(work, "add", "tests/agent_contract.yaml");
  await git(work, "commit", "-q", "-m", "pr");
  const pr = (await git(work, "rev-parse", "HEAD")).trim();

  await git(work, "checkout", "-q", "-b", "doomed");
  await writeFiles(work, { "doomed.txt": "unreachable\n" });
  await git(work, "add", "doomed.txt");
  await git(work, "commit", "-q", "-m", "doomed");
  const dangling = (await git(work, "rev-parse", "HEAD")).trim();
  await git(work, "checkout", "-q", "main");
  await git(work, "branch", "-q", "-D", "doomed");

  await git(work, "update-ref", "refs/remotes/origin/main", first);
  await git(work, "update-ref", "refs/pull/7/head", pr);
  return { root, work, first, second, pr, dangling };
}

/**
 * A fingerprint of a repository's `.git` directory: every path with its
 * type, size, mode and modification time, hashed, plus `for-each-ref`.
 */
export async function fingerprint(
  work: string,
  gitDir = `${work}/.git`,
): Promise<string> {
  const listing = await run(
    gitDir,
    "find",
    ".",
    "-printf",
    "%P %y %s %m %T@ %l\\n",
  );
  const lines = listing.split("\n").sort().join("\n");
  const refs = await git(
    work,
    "for-each-ref",
    "--format=%(refname) %(objectname)",
  );
  return createHash("sha256").update(lines).update(refs).digest("hex");
}
