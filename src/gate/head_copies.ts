/**
 * The head tree's working copies, one per test run. A tree of ordinary
 * size is exported afresh for every run: a run may write anywhere in its
 * copy. A huge one is exported once, its bytecode removed, into a
 * directory only root can enter, and each run gets a copy of its
 * directories whose files are hard links into that export: a copy then
 * costs a link per file instead of every file's bytes. The sandbox is
 * handed only a shared copy's directories, so a run may add, remove,
 * rename or replace files in its own copy, but the bytes every copy shares
 * stay root's, read-only to the test uid.
 *
 * Creating files is what an export costs (on a busy disk, minutes for
 * 100,000 files; a link is a tenth of that), so the shared export and its
 * copies go to a memory-backed file system (`/dev/shm`) when the tree fits
 * in a small share of the free memory, and into the workspace otherwise.
 *
 * @module
 */
import type { Git, Tree } from "../git/git.ts";
import type { TreeSource } from "../run/export_oracle_tree.ts";
import { isBytecodePath, removeBytecode } from "../run/remove_bytecode.ts";
import type { BytecodeCompiler } from "../run/bytecode_compiler.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { Workspace } from "./gate_ports.ts";

/** Head trees with at least this many files get shared copies. */
export const SHARED_COPIES_MIN_FILES = 20_000;

/** Options for {@linkcode headCopies}. */
export interface HeadCopiesOptions {
  /** Where the copies go. */
  workspace: Workspace;
  /**
   * The sandbox the copies are handed to; while it is still being made,
   * a small tree's copies are exported meanwhile (only a huge tree's kind
   * of copy depends on the sandbox).
   */
  sandbox:
    | Pick<Sandbox, "isolation" | "prepareDir">
    | Promise<Pick<Sandbox, "isolation" | "prepareDir">>;
  /** The head tree (its size decides between fresh and shared copies). */
  headTree: Tree;
  /** Smallest number of files that gets shared copies (default {@linkcode SHARED_COPIES_MIN_FILES}). */
  sharedFrom?: number;
  /**
   * Parent directory of shared copies, or null for the workspace; by
   * default `/dev/shm` when it is a tmpfs without noexec and the tree (a
   * page per file at least) takes at most an eighth of the available
   * memory and a quarter of the tmpfs, capped at
   * {@linkcode MEMORY_COPY_MAX_BYTES}.
   */
  sharedParent?: string | null;
  /**
   * pawl's bytecode compiler for the copies (`src/run/bytecode_compiler.ts`),
   * or undefined to leave compiling to the runs; each fresh copy waits for
   * it before it is whole. Shared copies are left to the runs: a file
   * written over a linked one (the oracle's) could match a linked
   * bytecode file's size and second.
   */
  bytecode?: Promise<BytecodeCompiler | undefined>;
}

/** Largest tree (bytes, a page per file at least) exported to `/dev/shm`. */
export const MEMORY_COPY_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** Makes the working copies of one judgement's head tree. */
export interface HeadCopies {
  /** Whether the copies share their files (see the module doc). */
  readonly shared: boolean;
  /**
   * A fresh copy of the head tree called `name`, bytecode removed, not yet
   * handed to the sandbox. `made` is told its path as soon as the empty
   * directory exists: the copy is written into that same directory, never
   * a replacement for it.
   */
  copy(name: string, made?: (dir: string) => void): Promise<string>;
  /** A fresh empty directory called `name` where copies are (for the oracle tree). */
  mkdir(name: string): Promise<string>;
  /** Hand a copy (from `copy`, or exported from `source`) to the sandbox (or to `other`). */
  prepare(dir: string, other?: Pick<Sandbox, "prepareDir">): Promise<void>;
  /** Git's trees and blobs, with the head's tree written as a copy. */
  readonly source: TreeSource;
  /** Whether the head's tree has bytecode paths (a copy of it then needs stripping). */
  readonly bytecode: boolean;
  /**
   * Write pawl's bytecode into a copy made otherwise (the oracle's), once
   * it is whole and before it is handed over; a no-op without a compiler.
   */
  compile(dir: string): Promise<void>;
  /** Remove what lies outside the workspace; never throws. */
  remove(): Promise<void>;
}

/**
 * The copies of `head` for one judgement. Shared copies are used only
 * when the tree is huge and the tests run as a uid of their own (at tier
 * `none` they run as pawl's user, who could write the shared files).
 */
export async function headCopies(
  git: Git,
  head: string,
  options: HeadCopiesOptions,
): Promise<HeadCopies> {
  let files = 0;
  let bytes = 0;
  // An export holds exactly the tree's paths: without a bytecode path in
  // the tree there is none to remove, and no walk of every copy.
  let bytecode = false;
  for (const entry of options.headTree.values()) {
    if (isBytecodePath(entry.path)) bytecode = true;
    if (entry.kind === "tree" || entry.kind === "submodule") continue;
    files++;
    bytes += Math.max(entry.size, PAGE_BYTES);
  }
  const stripped = async (dir: string) => {
    if (bytecode) await removeBytecode(dir);
  };
  const huge = files >= (options.sharedFrom ?? SHARED_COPIES_MIN_FILES);
  const shared = huge && (await options.sandbox).isolation.tier !== "none";
  const tree = { git, head, bytecode, stripped };
  return shared
    ? sharedCopies(tree, bytes, options)
    : freshCopies(tree, options);
}

/** The head's tree, and how bytecode is stripped from a copy of it. */
interface HeadTree {
  git: Git;
  head: string;
  /** Whether the tree has bytecode paths. */
  bytecode: boolean;
  /** Remove the bytecode from a copy. */
  stripped: (dir: string) => Promise<void>;
}

/** Copies each exported afresh. */
function freshCopies(tree: HeadTree, options: HeadCopiesOptions): HeadCopies {
  const { git, head, bytecode, stripped } = tree;
  const { workspace } = options;
  const compile = async (dir: string) => {
    await (await options.bytecode?.catch(() => undefined))?.compile(dir);
  };
  return {
    shared: false,
    compile,
    copy: async (name, made) => {
      const dir = made === undefined
        ? await workspace.export(git, head, name)
        : await (async () => {
          const empty = await workspace.mkdir(name);
          made(empty);
          await git.exportTree(head, empty);
          return empty;
        })();
      await stripped(dir);
      await compile(dir);
      return dir;
    },
    mkdir: (name) => workspace.mkdir(name),
    prepare: async (dir, other) =>
      await (other ?? await options.sandbox).prepareDir(dir),
    source: git,
    bytecode,
    remove: () => Promise.resolve(),
  };
}

/**
 * Copies whose files are hard links into one export of the tree (in
 * memory when it fits), which only root can enter.
 */
function sharedCopies(
  tree: HeadTree,
  bytes: number,
  options: HeadCopiesOptions,
): HeadCopies {
  const { git, head, bytecode, stripped } = tree;
  const { workspace } = options;
  let root: Promise<{ mkdir(name: string): Promise<string> }> | undefined;
  let outside: string | undefined;
  const place = () =>
    root ??= (async () => {
      const parent = options.sharedParent === undefined
        ? await memoryParent(bytes)
        : options.sharedParent;
      if (parent === null) return workspace;
      outside = await Deno.makeTempDir({ dir: parent, prefix: "pawl-tree-" });
      await Deno.chmod(outside, 0o711);
      const dir = outside;
      return {
        mkdir: async (name: string) => {
          await Deno.mkdir(`${dir}/${name}`);
          return `${dir}/${name}`;
        },
      };
    })();
  const mkdir = async (name: string) => await (await place()).mkdir(name);
  let exported: Promise<string> | undefined;
  const original = (): Promise<string> =>
    exported ??= (async () => {
      const dir = await mkdir("head-tree");
      await Deno.chmod(dir, 0o700);
      await git.exportTree(head, dir);
      await stripped(dir);
      return dir;
    })();
  const linkInto = async (dest: string) => {
    await linkTree(await original(), dest);
  };
  return {
    shared: true,
    copy: async (name, made) => {
      const dir = await mkdir(name);
      made?.(dir);
      await linkInto(dir);
      return dir;
    },
    mkdir,
    prepare: async (dir, other) =>
      await (other ?? await options.sandbox).prepareDir(dir, {
        sharedFiles: true,
      }),
    bytecode,
    compile: () => Promise.resolve(),
    source: {
      exportTree: (commit, dest) =>
        commit === head ? linkInto(dest) : git.exportTree(commit, dest),
      readBlob: (oid, blobOptions) => git.readBlob(oid, blobOptions),
    },
    remove: async () => {
      await root?.catch(() => undefined);
      if (outside === undefined) return;
      await Deno.remove(outside, { recursive: true }).catch(() => undefined);
    },
  };
}

/** What a small file takes in a tmpfs. */
const PAGE_BYTES = 4096;

/**
 * `/dev/shm` when it is a tmpfs (not noexec) with room for `bytes` within
 * an eighth of the available memory, a quarter of its own size and
 * {@linkcode MEMORY_COPY_MAX_BYTES}; else null.
 */
async function memoryParent(bytes: number): Promise<string | null> {
  try {
    // The last mount of /dev/shm is the one in force.
    const line = (await Deno.readTextFile("/proc/mounts")).split("\n")
      .filter((l) => l.split(" ")[1] === "/dev/shm").at(-1);
    const [, , type, flags = ""] = line?.split(" ") ?? [];
    const mountOptions = flags.split(",");
    // A container's /dev/shm is often small and noexec (scripts in the
    // tree would then not run): only a tmpfs without noexec, with room.
    if (type !== "tmpfs" || mountOptions.includes("noexec")) return null;
    const size = mountOptions.find((o) => /^size=\d+k$/.test(o));
    const capacity = size === undefined
      ? Infinity
      : Number(size.slice(5, -1)) * 1024 / 4;
    const meminfo = await Deno.readTextFile("/proc/meminfo");
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(meminfo);
    if (match === null) return null;
    const available = Number(match[1]) * 1024;
    return bytes <= Math.min(available / 8, capacity, MEMORY_COPY_MAX_BYTES)
      ? "/dev/shm"
      : null;
  } catch {
    return null;
  }
}

/**
 * Copy the directories of `src` into the empty directory `dest` and hard
 * link every file and symlink (`cp -a -l`: modes and root's ownership
 * kept).
 */
async function linkTree(src: string, dest: string): Promise<void> {
  const out = await new Deno.Command("cp", {
    args: ["-a", "-l", "--", `${src}/.`, dest],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `Cannot copy the head tree to "${dest}": cp exited with code ${out.code}: ${
        new TextDecoder().decode(out.stderr).slice(0, 500).trim()
      }`,
    );
  }
}
