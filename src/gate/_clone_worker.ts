/**
 * The worker side of `startCloneInWorker`: opens the judgement's workspace
 * and makes the clone in it, as the gate would, posting the workspace,
 * git's progress, the clone's size and the outcome.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { toWorker } from "../git/worker_error.ts";
import { cloneStage } from "./clone_stage.ts";
import { cloneWithGit } from "./clone_with_git.ts";
import type {
  CloneWorkerMessage,
  CloneWorkerRequest,
} from "./clone_in_worker.ts";
import { jobDirName } from "./job_dir_name.ts";
import { tempWorkspaces } from "./temp_workspace.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: CloneWorkerMessage) => scope.postMessage(message);

scope.onmessage = async (event: MessageEvent<CloneWorkerRequest>) => {
  scope.onmessage = null;
  const { target, parent } = event.data;
  try {
    const open = tempWorkspaces(parent === undefined ? {} : { parent });
    const workspace = await open(await jobDirName(target)).catch(
      (error) => {
        post({ workspaceError: toWorker(error) });
        throw undefined;
      },
    );
    post({ workspace: workspace.root });
    const git = await cloneStage(target, {
      clone: cloneWithGit,
      workspace,
      progress: {
        step: (label) => post({ step: label }),
        detail: (text) => post({ detail: text }),
        note: (text) => post({ note: text }),
        end: () => {},
      },
    });
    await git.close?.();
    post({ done: true });
  } catch (error) {
    if (error !== undefined) post({ error: toWorker(error) });
  }
  scope.close();
};
