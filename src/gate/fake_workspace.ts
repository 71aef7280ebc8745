/**
 * A workspace for tests that records what the gate asked of it.
 *
 * @module
 */
import type { Git } from "../git/git.ts";
import type { Workspace } from "./gate_ports.ts";

/**
 * A {@linkcode Workspace} in a fresh temp dir (test runs read and write
 * real files there) that records every directory made and exported, and
 * whether it was removed. Permissions are left as the temp dir has them.
 *
 * @example
 * ```ts
 * import { FakeWorkspace } from "./fake_workspace.ts";
 * const workspace = await FakeWorkspace.open("pawl-job");
 * await workspace.mkdir("reports");
 * await workspace.remove();
 * console.assert(workspace.made[0] === "reports" && workspace.removed);
 * ```
 */
export class FakeWorkspace implements Workspace {
  /** The directory. */
  readonly root: string;
  /** The name the gate asked for. */
  readonly name: string;
  /** Every directory made (exports included), by name, in order. */
  readonly made: string[] = [];
  /** Every export, in order. */
  readonly exports: { commit: string; name: string }[] = [];
  /** Whether {@linkcode FakeWorkspace.remove} was called. */
  removed = false;

  private constructor(root: string, name: string) {
    this.root = root;
    this.name = name;
  }

  /** Make a fake in a fresh temp dir; `name` is only recorded. */
  static async open(name: string): Promise<FakeWorkspace> {
    return new FakeWorkspace(
      await Deno.makeTempDir({ prefix: "pawl-fake-workspace-" }),
      name,
    );
  }

  /** Create `root/name`. */
  async mkdir(name: string): Promise<string> {
    const dir = `${this.root}/${name}`;
    await Deno.mkdir(dir);
    this.made.push(name);
    return dir;
  }

  /** Create `root/name` and export `commit` into it. */
  async export(git: Git, commit: string, name: string): Promise<string> {
    const dir = await this.mkdir(name);
    this.exports.push({ commit, name });
    await git.exportTree(commit, dir);
    return dir;
  }

  /** Remove the directory. */
  async remove(): Promise<void> {
    this.removed = true;
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}
