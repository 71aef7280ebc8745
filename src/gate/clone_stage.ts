/**
 * Stage 1: a private clone of the repository in the workspace.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Progress } from "../core/progress.ts";
import type { Git } from "../git/git.ts";
import { formatBytes } from "./_format_bytes.ts";
import type { CloneRepository, Workspace } from "./gate_ports.ts";
import type { JudgeTarget } from "./judge_options.ts";

/** The clone's directory inside the workspace (hidden from the sandbox). */
export const CLONE_DIR = "repo.git";

/** Clone `target` into the workspace, fetching its base and head. */
export async function cloneStage(
  target: Pick<
    JudgeTarget,
    "repo" | "base" | "head" | "shallow" | "refs" | "gitEnv"
  >,
  ports: { clone: CloneRepository; workspace: Workspace; progress: Progress },
): Promise<Git> {
  const { progress } = ports;
  progress.step(`cloning ${target.repo}`);
  return await ports.clone(target.repo, {
    dest: `${ports.workspace.root}/${CLONE_DIR}`,
    revisions: [target.base, target.head],
    onProgress: (line) => progress.detail(line),
    ...(target.shallow === undefined ? {} : { shallow: target.shallow }),
    ...(target.refs === undefined ? {} : { refs: target.refs }),
    ...(target.gitEnv === undefined ? {} : { env: target.gitEnv }),
    onFetched: (stats) =>
      progress.step(
        `fetched ${plural(stats.objects, "object")} (${
          formatBytes(stats.bytes)
        })${stats.shallow ? ", one commit deep" : ""}`,
      ),
  });
}
