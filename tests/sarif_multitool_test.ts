/**
 * The SARIF files `pawl diff` writes, validated by Microsoft's SARIF
 * Multitool (npm `@microsoft/sarif-multitool-linux`, pinned): its SARIF
 * rules and its GitHub code-scanning rules find no error and no warning.
 * What it still notes (message ids instead of text, snippets, rule id
 * style, a `$schema` or `helpUri` it cannot reach without network) is
 * advice, not a defect.
 */
import assert from "node:assert/strict";
import { relative } from "node:path";
import type { Verdict } from "../src/core/verdict.ts";
import { renderSarif } from "../src/report/render_sarif.ts";
import { check, explain, NOW, pawl, ROOT } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

const MULTITOOL =
  `${ROOT}/tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool`;

interface MultitoolResult {
  ruleId: string;
  level?: string;
  message: { text?: string; id?: string; arguments?: string[] };
}

/** Run `Sarif.Multitool validate` on `files`; its findings. */
async function multitool(
  dir: string,
  files: readonly string[],
): Promise<MultitoolResult[]> {
  // npm's postinstall would make it executable; Deno does not run it.
  const tool = `${dir}/Sarif.Multitool`;
  await Deno.copyFile(MULTITOOL, tool);
  await Deno.chmod(tool, 0o755);
  // It looks for its schema and configuration beside itself.
  for (const name of ["sarif-2.1.0.json", "default.configuration.xml"]) {
    await Deno.copyFile(
      `${ROOT}/tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/${name}`,
      `${dir}/${name}`,
    );
  }
  const output = `${dir}/validation.sarif`;
  const run = await new Deno.Command(tool, {
    args: [
      "validate",
      ...files,
      "--level",
      "Error;Warning;Note",
      "--rule-kind",
      "Sarif;Gh",
      "--output",
      output,
      "--log",
      "ForceOverwrite",
    ],
    env: { DOTNET_CLI_TELEMETRY_OPTOUT: "1", HOME: dir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(run.stdout) +
    new TextDecoder().decode(run.stderr);
  assert.equal(run.code, 0, text);
  const log = JSON.parse(await Deno.readTextFile(output));
  return log.runs[0].results as MultitoolResult[];
}

Deno.test("the SARIF Multitool finds no error or warning in pawl's SARIF", async () => {
  await using repo: TestRepo = await buildRepo({
    heads: {
      "sarif/conftest": {
        "tests/conftest.py": "def pytest_configure(config):\n    pass\n",
      },
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-multitool-" });
  try {
    // A relative --repo (the case that once gave `file:.`), an absolute
    // one, and a run that could not decide.
    const reject = await check(relative(ROOT, repo.dir), "sarif/conftest", {
      command: "diff",
      extra: ["--sarif", `${dir}/reject.sarif`],
    });
    assert.equal(reject.code, 1, explain(reject));
    const accept = await check(repo.dir, "main", {
      command: "diff",
      extra: ["--sarif", `${dir}/accept.sarif`],
    });
    assert.equal(accept.code, 0, explain(accept));
    const undecided = await pawl([
      "diff",
      "--repo",
      repo.dir,
      "--base",
      "main",
      "--head",
      "main",
      "--now",
      NOW.replace("-11-", "-13-"),
      "--sarif",
      `${dir}/undecided.sarif`,
    ]);
    assert.equal(undecided.code, 2, explain(undecided));
    const undecidedLog = JSON.parse(
      await Deno.readTextFile(`${dir}/undecided.sarif`),
    );
    assert.equal(undecidedLog.runs[0].results[0].level, "error");

    // The reject again, with the URIs a caller can give.
    const rejected = reject.verdict as unknown as Verdict;
    await Deno.writeTextFile(
      `${dir}/with-uris.sarif`,
      renderSarif(rejected, {
        repositoryUri: "https://github.com/octo/widgets",
        informationUri: "https://github.com/octo/pawl#reports-for-any-ci",
      }),
    );
    // And with what a failed test showed, and no contract file to show a
    // pathless finding at: the repository is its only location.
    await Deno.writeTextFile(
      `${dir}/failure.sarif`,
      renderSarif({
        ...rejected,
        contract: { ...rejected.contract, files: [] },
        findings: [
          ...rejected.findings,
          {
            layer: "seed",
            rule: "seed.fresh_failed",
            message: "test_roundtrip failed on seed 7",
            blocking: true,
            failure: {
              test: "tests/test_codec.py::test_roundtrip",
              example: "Falsifying example: test_roundtrip(data=b'')",
              exception: "AssertionError: assert 1 == 2",
              traceback: ["E   assert 1 == 2"],
              reproduce:
                "python -m pytest tests/test_codec.py::test_roundtrip --hypothesis-seed=7",
            },
          },
        ],
      }),
    );

    const findings = await multitool(dir, [
      `${dir}/reject.sarif`,
      `${dir}/accept.sarif`,
      `${dir}/undecided.sarif`,
      `${dir}/with-uris.sarif`,
      `${dir}/failure.sarif`,
    ]);
    const serious = findings.filter((f) =>
      f.level === undefined || f.level === "error" || f.level === "warning"
    );
    assert.deepEqual(
      serious.map((f) => `${f.ruleId}: ${JSON.stringify(f.message)}`),
      [],
    );
    // It did check the files: its advice notes are there.
    assert.ok(findings.some((f) => f.ruleId === "SARIF2009"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
