/**
 * The working copies the test stage's runs take: the head's (exported
 * ahead, one run ahead of the run that takes them), the base's oracle's
 * (the head's code with the base's test side) and the base's. A copy
 * stays root's until its run takes it: the run before must not be able to
 * write into the next run's tree. Copies made on demand get the next free
 * name, in the order they are asked for.
 *
 * @module
 */
import type { Git } from "../git/git.ts";
import { exportOracleTree } from "../run/export_oracle_tree.ts";
import { removeBytecode } from "../run/remove_bytecode.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { Workspace } from "./gate_ports.ts";
import type { HeadCopies } from "./head_copies.ts";
import type { OracleTreeOf } from "./oracle_tree.ts";
import type { WorkDirs } from "./prefetched_work_dirs.ts";
import type { Commits } from "./read_commits.ts";
import type { StageCopies } from "./run_scheduler.ts";

/** What the copies are made from. */
export interface StageCopiesInput {
  git: Git;
  commits: Commits;
  /** The head's copies' maker. */
  copies: HeadCopies;
  /** The head's planned copies, exported ahead. */
  workDirs: WorkDirs;
  /** The base's oracle tree. */
  oracle: OracleTreeOf;
  /** The judgement's temp dirs. */
  workspace: Workspace;
  /** The first sandbox: the base's copies are handed to it. */
  first: Pick<Sandbox, "prepareDir">;
  /** The next free name for a copy made on demand. */
  workName: () => string;
}

/** The test stage's copies. */
export function stageCopies(input: StageCopiesInput): StageCopies {
  const { copies, workDirs, commits, workName } = input;
  const started = new Map<string, Promise<string>>();
  const exportOracle = (name: string) => {
    const made = (async () => {
      const dir = await copies.mkdir(name);
      await exportOracleTree(
        copies.source,
        commits.head,
        dir,
        input.oracle.tree,
        {
          headBytecode: copies.bytecode,
        },
      );
      await copies.compile(dir);
      return dir;
    })();
    made.catch(() => undefined);
    started.set(name, made);
    return made;
  };
  const exportBase = async (name: string) => {
    const dir = await input.workspace.export(input.git, commits.base, name);
    await removeBytecode(dir);
    return dir;
  };
  return {
    plan: (plan) => {
      const planned = (tree: string, ahead: boolean) =>
        plan.flatMap((r) =>
          r.tree === tree && r.copy !== undefined &&
            (r.ahead === true) === ahead
            ? [r.copy]
            : []
        );
      const now = planned("head", true);
      workDirs.plan([...now, ...planned("head", false)]);
      workDirs.begin(now.length);
      for (const name of planned("oracle", true)) exportOracle(name);
    },
    take: async (tree, name, owner) => {
      if (tree === "base") {
        const dir = await exportBase(name ?? workName());
        await input.first.prepareDir(dir);
        return dir;
      }
      const dir = tree === "head"
        ? await workDirs.take(name ?? workName())
        : await (name === undefined
          ? exportOracle(workName())
          : started.get(name) ?? exportOracle(name));
      await copies.prepare(dir, owner);
      return dir;
    },
    settle: async () => {
      await workDirs.settle();
      await Promise.allSettled(started.values());
    },
  };
}
