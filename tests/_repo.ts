/**
 * Real git repositories for the end-to-end tests: one base commit on `main`
 * and one head branch per scenario, each a single commit on top of the base.
 * Author, committer and dates are fixed, so the same spec always gives the
 * same commit ids.
 *
 * @module
 */
import { commitAll, FIXED_GIT_ENV, fixedGit } from "../src/demo/fixed_git.ts";
import { createHash } from "node:crypto";
import { sampleBaseFiles } from "../src/demo/build_sample_repo.ts";

/** A symlink to create instead of a regular file. */
export interface Symlink {
  /** The link target, written as is. */
  symlink: string;
}

/** One file of a commit: text, a symlink, or deleted (`null`, heads only). */
export type FileEdit =
  | string
  | null
  | Symlink
  | ((base: string) => string);

/** What {@linkcode buildRepo} builds. */
export interface RepoSpec {
  /** The base tree; {@linkcode sampleBaseFiles} when left out. */
  base?: Record<string, string | Symlink>;
  /** Head branches: name → edits on top of the base. */
  heads?: Record<string, Record<string, FileEdit>>;
  /** Parent directory for the repository (default: the system temp dir). */
  tempRoot?: string;
}

/** A repository on disk; dispose of it to remove it. */
export interface TestRepo extends AsyncDisposable {
  /** The work tree (a normal, non-bare repository). */
  dir: string;
  /** The base branch, `main`. */
  base: string;
  /** The base tree's text files. */
  baseFiles: Readonly<Record<string, string>>;
  /** Text of `path` at head `branch` (or at base for `main`). */
  text(branch: string, path: string): string;
  /** Full commit id of `rev`. */
  commit(rev: string): Promise<string>;
}

/** The environment every git command of the helpers runs with. */
export const GIT_ENV: Readonly<Record<string, string>> = FIXED_GIT_ENV;

/** The sample base with its contract, as the default base of the tests. */
export function defaultBaseFiles(): Record<string, string> {
  return sampleBaseFiles();
}

/**
 * Create a repository in a fresh temp dir: `main` holds `spec.base`, and
 * each head branch is one commit on `main` with its edits applied.
 */
export async function buildRepo(spec: RepoSpec = {}): Promise<TestRepo> {
  const parent = await Deno.makeTempDir({
    prefix: "pawl-e2e-",
    ...(spec.tempRoot === undefined ? {} : { dir: spec.tempRoot }),
  });
  await Deno.chmod(parent, 0o755);
  const dir = `${parent}/repo`;
  try {
    await Deno.mkdir(dir);
    await git(dir, ["init", "-q", "-b", "main"]);
    const base = spec.base ?? defaultBaseFiles();
    const baseTexts: Record<string, string> = {};
    for (const [path, content] of Object.entries(base)) {
      if (typeof content === "string") baseTexts[path] = content;
    }
    await writeFiles(dir, base);
    await commitAll(dir, "Base: a human-owned contract");
    const texts = new Map<string, Record<string, string>>([[
      "main",
      baseTexts,
    ]]);
    for (const [branch, edits] of Object.entries(spec.heads ?? {})) {
      await git(dir, ["checkout", "-q", "-b", branch, "main"]);
      const resolved: Record<string, string | null | Symlink> = {};
      const headTexts = { ...baseTexts };
      for (const [path, edit] of Object.entries(edits)) {
        const value = typeof edit === "function"
          ? edit(baseTexts[path] ?? "")
          : edit;
        resolved[path] = value;
        if (typeof value === "string") headTexts[path] = value;
        else delete headTexts[path];
      }
      await writeFiles(dir, resolved);
      await commitAll(dir, `Head: ${branch}`);
      texts.set(branch, headTexts);
      await git(dir, ["checkout", "-q", "main"]);
    }
    return {
      dir,
      base: "main",
      baseFiles: baseTexts,
      text(branch, path) {
        const text = texts.get(branch)?.[path];
        if (text === undefined) {
          throw new Error(`No text file "${path}" at "${branch}"`);
        }
        return text;
      },
      async commit(rev) {
        return (await git(dir, ["rev-parse", "--verify", `${rev}^{commit}`]))
          .trim();
      },
      async [Symbol.asyncDispose]() {
        await Deno.remove(parent, { recursive: true });
      },
    };
  } catch (error) {
    await Deno.remove(parent, { recursive: true }).catch(() => {});
    throw error;
  }
}

/** Replace `from` by `to` in `text`; throws when `from` is absent, so no edit silently does nothing. */
export function replaceOnce(
  text: string,
  from: string | RegExp,
  to: string,
): string {
  const found = typeof from === "string"
    ? text.includes(from)
    : from.test(text);
  if (!found) {
    throw new Error(`Cannot edit: ${String(from)} not found in:\n${text}`);
  }
  return text.replace(from, to);
}

/** An edit function for {@linkcode FileEdit}: `replaceOnce` on the base text. */
export function edit(
  from: string | RegExp,
  to: string,
): (base: string) => string {
  return (base) => replaceOnce(base, from, to);
}

/** The 1-based line of the first line of `text` containing `needle`; throws when absent. */
export function lineOf(text: string, needle: string): number {
  const index = text.split("\n").findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`No line contains ${JSON.stringify(needle)}`);
  return index + 1;
}

/** Lowercase hex SHA-256 of a text's UTF-8 bytes. */
export function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * A digest of everything under `dir` (`.git` included): every path with its
 * kind, mode and bytes (or link target), so any write shows up.
 */
export async function hashDir(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (rel: string): Promise<void> => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(`${dir}/${rel}`)) {
      entries.push(entry);
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const info = await Deno.lstat(`${dir}/${path}`);
      hash.update(`${path}\0${info.mode}\0${info.uid}\0`);
      if (info.isSymlink) {
        hash.update(`link\0${await Deno.readLink(`${dir}/${path}`)}\0`);
      } else if (info.isDirectory) {
        hash.update("dir\0");
        await walk(path);
      } else {
        hash.update(`file\0${info.size}\0`);
        hash.update(await Deno.readFile(`${dir}/${path}`));
      }
    }
  };
  await walk("");
  return hash.digest("hex");
}

async function writeFiles(
  dir: string,
  files: Record<string, string | null | Symlink>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.remove(full).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    if (content === null) continue;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.symlink(content.symlink, full);
  }
}

/** Run git in `dir` with the fixed identity and no user configuration; returns stdout. */
export function git(dir: string, args: readonly string[]): Promise<string> {
  return fixedGit(dir, args);
}
