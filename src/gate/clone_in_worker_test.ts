import assert from "node:assert/strict";
import { makeSampleRepo } from "../git/_test_repo.ts";
import { GitError } from "../git/git_error.ts";
import type { Progress } from "../core/progress.ts";
import { startCloneInWorker } from "./clone_in_worker.ts";
import { cloneStage } from "./clone_stage.ts";
import { cloneWithGit } from "./clone_with_git.ts";
import { jobDirName } from "./job_dir_name.ts";
import { tempWorkspaces } from "./temp_workspace.ts";

const NOW = { text: "2026-12-01T00:00:00Z", epochMs: 1796083200000 };

function recording(): { progress: Progress; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    progress: {
      step: (label) => lines.push(`step ${label}`),
      detail: () => {},
      note: (text) => lines.push(`note ${text}`),
      end: () => {},
    },
  };
}

Deno.test("startCloneInWorker() makes the clone the gate would, in the workspace the gate would name", async () => {
  const repo = await makeSampleRepo();
  const parent = await Deno.makeTempDir({ prefix: "pawl-clone-worker-test-" });
  try {
    const target = {
      repo: repo.work,
      base: "main",
      head: "pr-branch",
      now: NOW,
    };
    const worker = recording();
    const started = startCloneInWorker(target, {
      tempRoot: parent,
      progress: worker.progress,
    });
    const workspace = await started.workspace;
    assert.equal(workspace.root, `${parent}/${await jobDirName(target)}`);
    const git = await started.git;
    assert.equal(started.settled, true);
    assert.equal(await git.resolveCommit("pr-branch"), repo.pr);
    assert.equal(await git.resolveCommit("v1"), repo.first);
    assert.equal(
      (await Deno.stat(`${workspace.root}/repo.git`)).mode! & 0o777,
      0o700,
    );
    // The same steps as the clone stage on this thread.
    const other = await Deno.makeTempDir({ prefix: "pawl-clone-worker-test-" });
    try {
      const here = recording();
      const open = tempWorkspaces({ parent: other });
      const direct = await cloneStage(target, {
        clone: cloneWithGit,
        workspace: await open("w"),
        progress: here.progress,
      });
      await direct.close?.();
      assert.deepEqual(worker.lines, here.lines);
      assert.match(worker.lines.join("\n"), /fetched \d+ objects/);
    } finally {
      await Deno.remove(other, { recursive: true });
    }
    await git.close?.();
    await workspace.remove();
  } finally {
    await Deno.remove(repo.root, { recursive: true });
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("startCloneInWorker() fails as the clone stage does, and abandon() removes the workspace", async () => {
  const parent = await Deno.makeTempDir({ prefix: "pawl-clone-worker-test-" });
  try {
    const missing = `${parent}/no-such-repo`;
    const target = { repo: missing, base: "main", head: "pr", now: NOW };
    const started = startCloneInWorker(target, {
      tempRoot: parent,
      progress: recording().progress,
    });
    const expected = await cloneWithGit(missing, {
      dest: `${parent}/direct`,
    }).then(() => undefined, (error: unknown) => error);
    assert.ok(expected instanceof GitError);
    await assert.rejects(started.git, (error: unknown) => {
      assert.ok(error instanceof GitError);
      assert.equal(error.message, expected.message);
      return true;
    });
    const root = (await started.workspace).root;
    await started.abandon();
    await assert.rejects(Deno.stat(root), Deno.errors.NotFound);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("startCloneInWorker() reports a workspace it cannot open from both promises", async () => {
  const parent = await Deno.makeTempDir({ prefix: "pawl-clone-worker-test-" });
  try {
    await Deno.writeTextFile(`${parent}/file`, "");
    const target = { repo: parent, base: "main", head: "pr", now: NOW };
    const started = startCloneInWorker(target, {
      tempRoot: `${parent}/file`,
      progress: recording().progress,
    });
    await assert.rejects(started.workspace);
    await assert.rejects(started.git);
    await started.abandon();
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
