import assert from "node:assert/strict";
import { SILENT_PROGRESS } from "../core/progress.ts";
import { sampleBaseFiles } from "../demo/build_sample_repo.ts";
import { writeFakePytestRun } from "../gate/fake_pytest_run.ts";
import { FakeWorkspace } from "../gate/fake_workspace.ts";
import type { GatePorts } from "../gate/gate_ports.ts";
import { FakeGit } from "../git/fake_git.ts";
import { gitAuthEnv } from "../github/git_auth_env.ts";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import { apiPull } from "./_testing.ts";
import { readAuditRecord } from "./read_audit_record.ts";
import { runAudit, type RunAuditOptions } from "./run_audit.ts";

const BASE = "1".repeat(40);
const HONEST = "2".repeat(40);
const WEAKENING = "3".repeat(40);

// Mutation off: the fake "pytest" here answers without running the code,
// so no mutant could be killed (mutation is judged in mutation_hook_test.ts).
const base = {
  ...sampleBaseFiles(),
  "pawl.toml": "[mutation]\nenabled = false\n",
};
const git = () =>
  new FakeGit({
    commits: {
      [BASE]: base,
      [HONEST]: { ...base, "README.md": "# invoices\n\nA changelog.\n" },
      [WEAKENING]: Object.fromEntries(
        Object.entries(base).filter(([path]) =>
          path !== "tests/properties/test_codec.py"
        ),
      ),
    },
  });

function pullRequest(number: number, head: string, merged: string | null) {
  return apiPull(number, {
    "merged_at": merged,
    base: {
      ref: "main",
      sha: BASE,
      repo: { "full_name": "o/r", "clone_url": "https://github.com/o/r.git" },
    },
    head: { ref: `pr-${number}`, sha: head, repo: { "full_name": "o/r" } },
  });
}

Deno.test("runAudit() judges the selected pull requests through the gate's ports and writes records and the report", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "pawl_run_audit_" });
  try {
    const clones: { source: string; env: Record<string, string> }[] = [];
    const gate: GatePorts = {
      clone: (source, options) => {
        clones.push({ source, env: { ...options.env } });
        return Promise.resolve(git());
      },
      sandbox: () => Promise.resolve(new FakeSandbox(() => ({}))),
      workspace: (name) => FakeWorkspace.open(name),
      progress: SILENT_PROGRESS,
    };
    const options: RunAuditOptions = {
      slug: "o/r",
      repo: { owner: "o", repo: "r" },
      numbers: [{ first: 1, last: 3 }],
      plan: { source: "merged-at" },
      outDir,
      concurrency: 2,
      force: false,
      retryUndecided: false,
      runTests: false,
      isolation: "none",
      token: "t0ken",
      terminal: false,
    };
    const ports = {
      github: {
        listPullRequests: () =>
          Promise.resolve([
            pullRequest(1, HONEST, "2026-11-30T11:30:00Z"),
            pullRequest(2, WEAKENING, "2026-11-30T11:40:00Z"),
            pullRequest(3, HONEST, null),
            pullRequest(4, HONEST, "2026-11-30T11:50:00Z"),
          ]),
      },
      apiUrl: "https://api.github.com",
      progress: SILENT_PROGRESS,
      gate,
      mask: (text: string) => text.replaceAll("t0ken", "***"),
    };

    const run = await runAudit(options, ports);
    assert.deepEqual(run.selected.map((pr) => pr.number), [1, 2, 3]);
    assert.equal(run.judged, 2);
    assert.equal(run.reused, 0);
    assert.deepEqual(
      [...run.records.values()].map((r) => [r.pullRequest.number, r.decision])
        .sort(),
      [[1, "accept"], [2, "reject"], [3, "skipped"]],
    );
    // Each judged pull request was cloned from its base repository with
    // the token in git's environment only.
    assert.deepEqual(clones.map((c) => c.source), [
      "https://github.com/o/r.git",
      "https://github.com/o/r.git",
    ]);
    const auth = gitAuthEnv("https://github.com/o/r.git", "t0ken");
    assert.ok(Object.keys(auth).length > 0);
    assert.deepEqual(clones.map((c) => c.env), [auth, auth]);
    const record = readAuditRecord(
      await Deno.readTextFile(`${outDir}/pr-2.json`),
      "pr-2.json",
    );
    assert.equal(record.decision, "reject");
    assert.equal(record.verdict?.head, WEAKENING);
    assert.equal(run.report.counts.total, 3);
    assert.ok((await Deno.stat(`${outDir}/audit.html`)).isFile);

    // A second run keeps every record.
    const again = await runAudit(options, ports);
    assert.equal(again.judged, 0);
    assert.equal(again.reused, 3);
    assert.equal(clones.length, 2);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("runAudit() runs each judgement's tests in a sandbox of its own and logs its uid", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "pawl_run_audit_" });
  try {
    const steps: string[] = [];
    let made = 0;
    // Spare sandboxes run the properties beside the suite (see test_stage).
    let spares = 0;
    let closed = 0;
    const gate: GatePorts = {
      clone: () => Promise.resolve(git()),
      sandbox: (request) => {
        if (request.spare === true) spares += 1;
        else made += 1;
        const uid = request.spare === true ? 64300 + spares : 64200 + made;
        const sandbox = new FakeSandbox(async (command) => ({
          // The suite and the properties on their own both pass.
          code: await writeFakePytestRun(
            command,
            [
              ["tests.properties.test_parse", "test_empty_input_raises"],
              ["tests.properties.test_codec", "test_decode_encode_identity"],
            ].map(([classname, name]) => ({
              classname: classname!,
              name: name!,
            })),
          ),
        }), {
          isolation: {
            tier: "uid",
            network: "inherited",
            uid,
            gid: uid,
            notes: [],
          },
        });
        return Promise.resolve(Object.assign(sandbox, {
          close: () => {
            closed += 1;
            return Promise.resolve();
          },
        }));
      },
      workspace: (name) => FakeWorkspace.open(name),
      progress: SILENT_PROGRESS,
    };
    const run = await runAudit({
      slug: "o/r",
      repo: { owner: "o", repo: "r" },
      plan: { source: "merged-at" },
      numbers: [{ first: 1, last: 1 }],
      outDir,
      concurrency: 1,
      force: false,
      retryUndecided: false,
      runTests: true,
      isolation: "auto",
      token: undefined,
      terminal: false,
    }, {
      github: {
        listPullRequests: () =>
          Promise.resolve([pullRequest(1, HONEST, "2026-11-30T11:30:00Z")]),
      },
      apiUrl: "https://api.github.com",
      progress: { ...SILENT_PROGRESS, step: (label) => steps.push(label) },
      gate,
      mask: (text) => text,
    });
    assert.equal(run.records.get(1)?.decision, "accept");
    assert.equal(made, 1);
    assert.equal(closed, made + spares);
    assert.ok(
      steps.includes(
        `judged 1/1, 0 rejected, 0 undecided (#1: accept, sandbox uid${
          spares === 0 ? "" : "s"
        } 64201${spares === 0 ? "" : ", 64301"})`,
      ),
      steps.join("\n"),
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
