/**
 * Start a judgement's workspace and clone on a worker thread. A command's
 * entry does this before it loads the gate's code: loading modules keeps
 * this thread's event loop busy, so a clone run here would not take its
 * next step (make the directory, start git's next process) until the
 * loading ended. On the worker the same steps run meanwhile.
 *
 * @module
 */
import { defaultPath } from "../git/_git_process.ts";
import { CLONE_DIR } from "./clone_stage.ts";
import { GitCli } from "../git/git_cli.ts";
import { GitError } from "../git/git_error.ts";
import { type FailedInWorker, fromWorker } from "../git/worker_error.ts";
import type { Progress } from "../core/progress.ts";
import type { Git } from "../git/git.ts";
import type { Workspace } from "./gate_ports.ts";
import { prefetchModuleNames } from "./read_module_names.ts";
import type { StartedClone, StartedTarget } from "./start_clone.ts";
import { tempWorkspaceAt } from "./temp_workspace.ts";

/** What the clone worker is asked. */
export interface CloneWorkerRequest {
  /** The judgement's target and clock (they name the workspace). */
  target: StartedTarget;
  /** The workspaces' parent (default `/tmp`). */
  parent: string | undefined;
}

/** A message of the clone worker. */
export type CloneWorkerMessage =
  | { workspace: string }
  | { workspaceError: FailedInWorker }
  | { step: string }
  | { detail: string }
  | { note: string }
  | { done: true }
  | { error: FailedInWorker };

/** Options for {@linkcode startCloneInWorker}. */
export interface StartCloneInWorkerOptions {
  /** The workspaces' parent (default `/tmp`). */
  tempRoot?: string | undefined;
  /** Where the clone's progress goes. */
  progress: Progress;
  /** PATH the tests will run with (see `prefetchModuleNames`). */
  sandboxPath?: string;
}

/**
 * Open the workspace of `target` and clone into it on a worker thread, as
 * `startClone` with the real ports does; the clone is then opened on this
 * thread. Nothing is awaited here; failures surface when the gate awaits
 * the returned promises, never as unhandled rejections.
 */
export function startCloneInWorker(
  target: StartedTarget,
  options: StartCloneInWorkerOptions,
): StartedClone {
  // The default test command's interpreter (python3): what the gate asks
  // first too, so its answer is cached by then.
  prefetchModuleNames({
    command: ["python3"],
    ...(options.sandboxPath === undefined ? {} : { path: options.sandboxPath }),
  });
  const { progress } = options;
  const path = defaultPath();
  const worker = new Worker(
    new URL("./_clone_worker.ts", import.meta.url),
    { type: "module" },
  );
  const workspace = Promise.withResolvers<Workspace>();
  const git = Promise.withResolvers<Git>();
  let settled = false;
  const finish = (outcome: { git: Git } | { error: Error }) => {
    if (settled) return;
    settled = true;
    worker.terminate();
    // Before the workspace was reported, it never was made.
    workspace.reject(
      "error" in outcome ? outcome.error : new GitError("Cannot clone"),
    );
    if ("git" in outcome) git.resolve(outcome.git);
    else git.reject(outcome.error);
  };
  let root: string | undefined;
  worker.onmessage = (event: MessageEvent<CloneWorkerMessage>) => {
    const message = event.data;
    if ("workspace" in message) {
      root = message.workspace;
      workspace.resolve(tempWorkspaceAt(root));
    } else if ("workspaceError" in message) {
      finish({ error: fromWorker(message.workspaceError) });
    } else if ("step" in message) progress.step(message.step);
    else if ("detail" in message) progress.detail(message.detail);
    else if ("note" in message) progress.note(message.note);
    else if ("done" in message && root !== undefined) {
      finish({ git: new GitCli(`${root}/${CLONE_DIR}`, { path }) });
    } else if ("error" in message) finish({ error: fromWorker(message.error) });
  };
  worker.onerror = (event) => {
    event.preventDefault();
    finish({
      error: new GitError(
        `Cannot clone ${
          JSON.stringify(target.repo)
        }: the clone worker failed: ${event.message}`,
      ),
    });
  };
  worker.onmessageerror = () =>
    finish({
      error: new GitError(
        `Cannot clone ${
          JSON.stringify(target.repo)
        }: unreadable answer from the clone worker`,
      ),
    });
  const request: CloneWorkerRequest = {
    target,
    parent: options.tempRoot,
  };
  worker.postMessage(request);
  workspace.promise.catch(() => {});
  git.promise.catch(() => {});
  return {
    target,
    workspace: workspace.promise,
    git: git.promise,
    get settled() {
      return settled;
    },
    abandon: () => abandon(git.promise, workspace.promise),
  };
}

/** Close the clone and remove the workspace, whichever were made. */
async function abandon(
  git: Promise<Git>,
  workspace: Promise<Workspace>,
): Promise<void> {
  const opened = await git.catch(() => undefined);
  await opened?.close?.();
  const ws = await workspace.catch(() => undefined);
  await ws?.remove();
}
