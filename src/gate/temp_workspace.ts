/**
 * The real workspace: a directory under the system temp dir (or `TMPDIR`).
 *
 * @module
 */
import type { Git } from "../git/git.ts";
import type { OpenWorkspace, Workspace } from "./gate_ports.ts";

/** Options for {@linkcode tempWorkspaces}. */
export interface TempWorkspacesOptions {
  /** Parent directory (default `/tmp`). */
  parent?: string;
}

/**
 * Open workspaces under `parent`. A name already taken (a concurrent run,
 * or anything planted there) falls back to a random `pawl-*` name. The
 * directory is mode 0711: the sandbox uid may traverse it to reach its run
 * directories, and list nothing.
 */
export function tempWorkspaces(
  options: TempWorkspacesOptions = {},
): OpenWorkspace {
  const parent = (options.parent ?? "/tmp").replace(/(.)\/+$/, "$1");
  return async (name) => {
    let root = `${parent}/${name}`;
    try {
      await Deno.mkdir(root, { mode: 0o700 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      root = await Deno.makeTempDir({ dir: parent, prefix: "pawl-" });
    }
    const workspace = new TempWorkspace(root);
    try {
      await Deno.chmod(root, 0o711);
    } catch (error) {
      await workspace.remove();
      throw error;
    }
    return workspace;
  };
}

class TempWorkspace implements Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  async mkdir(name: string): Promise<string> {
    const dir = `${this.root}/${name}`;
    await Deno.mkdir(dir);
    return dir;
  }

  async export(git: Git, commit: string, name: string): Promise<string> {
    const dir = await this.mkdir(name);
    await git.exportTree(commit, dir);
    return dir;
  }

  async remove(): Promise<void> {
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}

/**
 * The workspace at `root`, a directory {@linkcode tempWorkspaces} opened
 * (on another thread: see `clone_in_worker.ts`).
 */
export function tempWorkspaceAt(root: string): Workspace {
  return new TempWorkspace(root);
}
