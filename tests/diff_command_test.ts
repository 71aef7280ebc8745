/**
 * `pawl diff` is `pawl check` without the test run: the same static
 * findings, and nothing from the repository executed.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { check, explain, type FindingJson, mapPool } from "./_cli.ts";
import { buildRepo, edit, type FileEdit, type TestRepo } from "./_repo.ts";

/** Rules only the test run can produce. */
const RUN_RULES = new Set([
  "tests.failed",
  "tests.frozen_failed",
  "tests.timeout",
  "tests.output_exceeded",
  "tests.no_report",
  "tests.run_failed",
  "property.not_passed",
  "property.oracle_failed",
  "property.examples_not_executed",
  "freeze.rerun_used",
  "harness.report_tampered",
  "harness.observer_missing",
  "harness.hypothesis_reconfigured",
  "tests.collection_error",
  "seed.not_used",
  "seed.fresh_failed",
  "seed.replay_failed",
  // The mutation kill sets, on by default.
  "property.oracle_weakened",
  "property.oracle_blinded",
  "property.mutants_survived",
  "property.mutants_cut",
  // What the suite's run traced of the changed code.
  "tests.changed_code_unexecuted",
  "tests.changed_code_survivors",
  "tests.changed_code_untraced",
]);

function weakening(): Record<string, Record<string, FileEdit>> {
  const heads: Record<string, Record<string, FileEdit>> = {};
  for (const patch of SAMPLE_PATCHES) {
    if (patch.branch !== "agent/honest-fix") heads[patch.branch] = patch.files;
  }
  heads["agent/skip-and-raise-budget"] = {
    "tests/properties/test_codec.py": (base) =>
      edit("@settings(", '@pytest.mark.skip(reason="later")\n@settings(')(
        `import pytest\n${base}`,
      ),
    "tests/agent_contract.yaml": edit(
      "remaining_reruns: 2",
      "remaining_reruns: 4",
    ),
  };
  return heads;
}

function markerHead(marker: string): Record<string, FileEdit> {
  const write = `import pathlib\npathlib.Path(${
    JSON.stringify(marker)
  }).write_text(__name__)\n`;
  return {
    "tests/conftest.py": write,
    "tests/test_marker.py": `${write}\n\ndef test_marker():\n    assert True\n`,
    "setup.py": write,
  };
}

Deno.test("pawl diff reports the same static findings as pawl check", async (t) => {
  const heads = weakening();
  await using repo: TestRepo = await buildRepo({ heads });
  const branches = Object.keys(heads);
  const diffs = await mapPool(
    branches,
    3,
    (b) => check(repo.dir, b, { command: "diff" }),
  );
  for (const [i, branch] of branches.entries()) {
    await t.step(branch, async () => {
      const diff = diffs[i]!;
      const full = await check(repo.dir, branch);
      assert.equal(diff.code, 1, explain(diff));
      assert.equal(diff.verdict?.decision, "reject", explain(diff));
      assert.equal(diff.verdict?.tests, null);
      assert.equal(diff.verdict?.isolation, null);
      const statics = (f: FindingJson) => !RUN_RULES.has(f.rule);
      assert.deepEqual(
        diff.verdict?.findings,
        full.verdict?.findings.filter(statics),
        `${explain(diff)}\n${explain(full)}`,
      );
      assert.ok(diff.verdict!.findings.some((f) => f.blocking));
      assert.equal(diff.verdict?.base, full.verdict?.base);
      assert.equal(diff.verdict?.head, full.verdict?.head);
    });
  }
});

Deno.test("pawl diff executes nothing from the repository", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-marker-" });
  try {
    const marker = `${dir}/executed`;
    await using repo: TestRepo = await buildRepo({
      heads: { "agent/marker": markerHead(marker) },
    });
    await t.step("pawl diff leaves no marker", async () => {
      const result = await check(repo.dir, "agent/marker", { command: "diff" });
      assert.equal(result.code, 1, explain(result));
      assert.ok(
        result.verdict!.findings.some((f) =>
          f.rule === "harness.conftest_changed"
        ),
      );
      await assert.rejects(Deno.lstat(marker), Deno.errors.NotFound);
    });
    await t.step(
      "the control: running the tests unsandboxed does write it",
      async () => {
        const result = await check(repo.dir, "agent/marker", {
          extra: ["--isolation", "none"],
        });
        assert.equal(result.verdict?.isolation?.tier, "none", explain(result));
        assert.ok((await Deno.lstat(marker)).isFile, explain(result));
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
