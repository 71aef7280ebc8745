import assert from "node:assert/strict";
import { parseNow } from "../core/parse_now.ts";
import { SILENT_PROGRESS } from "../core/progress.ts";
import { sampleBaseFiles } from "../demo/build_sample_repo.ts";
import { type FakeCommitFiles, FakeGit } from "../git/fake_git.ts";
import { GitError } from "../git/git_error.ts";
import type { ReadBlobOptions } from "../git/git.ts";
import { FakeWorkspace } from "./fake_workspace.ts";
import type { GatePorts } from "./gate_ports.ts";
import { judgePullRequest } from "./judge_pull_request.ts";

const NOW = parseNow("2026-11-30T12:00:00Z");

/** A head with a contract finding and a harness finding. */
function twoKindsOfFinding(): FakeCommitFiles {
  const head = { ...sampleBaseFiles() } as Record<string, string>;
  delete head["tests/properties/test_codec.py"];
  head["pytest.ini"] = "[pytest]\naddopts = -p no:randomly\n";
  return head;
}

/** Hashing that ends only after `delayMs`, and may fail then. */
class SlowHashGit extends FakeGit {
  delayMs = 40;
  hashError: Error | undefined;
  /** Blob reads that fail, by oid. */
  failingReads = new Set<string>();

  override async sha256Blobs(
    oids: readonly string[],
  ): Promise<Map<string, string>> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.hashError !== undefined) throw this.hashError;
    return await super.sha256Blobs(oids);
  }

  override readBlob(
    oid: string,
    options?: ReadBlobOptions,
  ): Promise<Uint8Array> {
    if (this.failingReads.has(oid)) {
      return Promise.reject(new GitError(`Cannot read blob "${oid}": broken`));
    }
    return super.readBlob(oid, options);
  }
}

function ports(git: FakeGit): GatePorts {
  return {
    clone: () => Promise.resolve(git),
    sandbox: () => Promise.reject(new Error("nothing may run")),
    workspace: (name) => FakeWorkspace.open(name),
    progress: SILENT_PROGRESS,
  };
}

const OPTIONS = {
  repo: "https://example.test/shop.git",
  base: "main",
  head: "pr-head",
  now: NOW,
  allowFixtureRotate: false,
  isolation: "auto" as const,
  runTests: false,
};

Deno.test("staticStage() gives the same verdict, findings in the same order, when the hashing ends after the harness rules", async () => {
  const commits = { main: sampleBaseFiles(), "pr-head": twoKindsOfFinding() };
  const quick = await judgePullRequest(
    OPTIONS,
    ports(new FakeGit({ commits })),
  );
  const slow = await judgePullRequest(
    OPTIONS,
    ports(new SlowHashGit({ commits })),
  );
  const rules = quick.verdict.findings.map((f) => f.rule);
  assert.ok(rules.includes("property.module_missing"), rules.join());
  assert.ok(rules.some((r) => r.startsWith("harness.")), rules.join());
  assert.equal(JSON.stringify(slow.verdict), JSON.stringify(quick.verdict));
});

Deno.test("staticStage() reports the hashing's failure, not a harness read's that failed meanwhile", async () => {
  const head = twoKindsOfFinding();
  const git = new SlowHashGit({
    commits: { main: sampleBaseFiles(), "pr-head": head },
  });
  git.hashError = new GitError("Cannot hash blobs: the object store broke");
  const tree = await git.listTree(await git.resolveCommit("pr-head"));
  const config = tree.get("pytest.ini");
  assert.ok(config !== undefined);
  git.failingReads.add(config.oid);
  await assert.rejects(
    judgePullRequest(OPTIONS, ports(git)),
    /the object store broke/,
  );
});
