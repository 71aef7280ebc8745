/**
 * The CI reports through the real CLI: `--sarif`, `--junit`,
 * `--codequality` and `--markdown` write files that parse, the Markdown is appended to
 * `$GITHUB_STEP_SUMMARY`, and `--json` keeps stdout to the verdict alone.
 */
import assert from "node:assert/strict";
import { XMLValidator } from "fast-xml-parser";
import { parseJunit } from "../src/run/parse_junit.ts";
import { MARKDOWN_MARKER } from "../src/report/render_markdown.ts";
import { check, explain, type PawlResult, type VerdictJson } from "./_cli.ts";
import { buildRepo, type TestRepo } from "./_repo.ts";

const BRANCH = "reports/conftest";

const HEAD_FILES = {
  // A harness change (blocking) and a settings change (a note).
  "tests/conftest.py": "def pytest_configure(config):\n    pass\n",
  "pawl.toml": "[tests]\ntimeout_seconds = 120\n",
};

const SUMMARY_BEFORE = "## An earlier step\n\nIt wrote this first.\n";

interface Reports {
  result: PawlResult;
  verdict: VerdictJson;
  sarif: string;
  junit: string;
  codequality: string;
  markdown: string;
  summary: string;
}

async function runWithReports(
  repo: TestRepo,
  command: "check" | "diff",
): Promise<Reports> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-e2e-reports-" });
  try {
    const summaryPath = `${dir}/step_summary.md`;
    await Deno.writeTextFile(summaryPath, SUMMARY_BEFORE);
    const result = await check(repo.dir, BRANCH, {
      command,
      extra: [
        "--sarif",
        `${dir}/s.json`,
        "--junit",
        `${dir}/j.xml`,
        "--codequality",
        `${dir}/cq.json`,
        "--markdown",
        `${dir}/m.md`,
        "--json",
      ],
      env: { GITHUB_STEP_SUMMARY: summaryPath },
    });
    assert.equal(result.code, 1, explain(result));
    assert.ok(result.verdict !== undefined, explain(result));
    return {
      result,
      verdict: result.verdict,
      sarif: await Deno.readTextFile(`${dir}/s.json`),
      junit: await Deno.readTextFile(`${dir}/j.xml`),
      codequality: await Deno.readTextFile(`${dir}/cq.json`),
      markdown: await Deno.readTextFile(`${dir}/m.md`),
      summary: await Deno.readTextFile(summaryPath),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("pawl check writes SARIF, JUnit and Markdown reports beside the verdict", async (t) => {
  await using repo: TestRepo = await buildRepo({
    heads: { [BRANCH]: HEAD_FILES },
  });
  const head = await repo.commit(BRANCH);

  for (const command of ["check", "diff"] as const) {
    await t.step(`pawl ${command}`, async (t) => {
      const r = await runWithReports(repo, command);
      const rules = r.verdict.findings.map((f) => f.rule);

      await t.step("stdout is exactly the verdict JSON", () => {
        assert.equal(r.result.stdout, r.result.outText);
        assert.equal(
          r.result.stdout,
          JSON.stringify(JSON.parse(r.result.stdout), null, 2) + "\n",
        );
        assert.equal(r.verdict.decision, "reject");
        assert.ok(
          rules.includes("harness.conftest_changed"),
          explain(r.result),
        );
        assert.ok(rules.includes("config.settings_ignored"), explain(r.result));
      });

      await t.step(
        "the SARIF log parses and has one result per finding",
        () => {
          const log = JSON.parse(r.sarif);
          assert.equal(log.version, "2.1.0");
          assert.equal(log.runs.length, 1);
          const run = log.runs[0];
          assert.equal(run.tool.driver.name, "pawl");
          assert.equal(run.automationDetails.id, `pawl/${head}`);
          assert.equal(run.versionControlProvenance[0].revisionId, head);
          assert.equal(run.invocations[0].properties.decision, "reject");
          assert.deepEqual(
            run.results.map((x: { ruleId: string }) => x.ruleId),
            rules,
          );
          const conftest = run.results.find((x: { ruleId: string }) =>
            x.ruleId === "harness.conftest_changed"
          );
          assert.equal(conftest.level, "error");
          assert.equal(
            conftest.locations[0].physicalLocation.artifactLocation.uri,
            "tests/conftest.py",
          );
        },
      );

      await t.step(
        "the Code Quality report has one issue per finding, at its file",
        () => {
          const issues = JSON.parse(r.codequality);
          assert.deepEqual(
            issues.map((x: { check_name: string }) => x.check_name),
            rules,
          );
          const conftest = issues.find((x: { check_name: string }) =>
            x.check_name === "harness.conftest_changed"
          );
          assert.equal(conftest.severity, "blocker");
          assert.equal(conftest.location.path, "tests/conftest.py");
          assert.equal(conftest.location.lines.begin, 1);
          assert.match(conftest.fingerprint, /^[0-9a-f]{64}$/);
          const settings = issues.find((x: { check_name: string }) =>
            x.check_name === "config.settings_ignored"
          );
          assert.equal(settings.severity, "info");
        },
      );

      await t.step(
        "the JUnit report has one testcase per finding, with the time of the stage behind it",
        () => {
          assert.equal(XMLValidator.validate(r.junit), true);
          const cases = parseJunit(r.junit);
          const layers = new Set(r.verdict.findings.map((f) => f.layer));
          assert.equal(
            cases.length,
            r.verdict.findings.length + 7 - layers.size,
          );
          const harness = cases.find((c) =>
            c.name.startsWith("harness.conftest_changed tests/conftest.py")
          );
          assert.equal(harness?.classname, "pawl.harness");
          assert.equal(harness?.outcome, "failed");
          const tests = cases.find((c) => c.classname === "pawl.tests");
          assert.equal(
            tests?.outcome,
            command === "check" ? "passed" : "skipped",
          );
          // Real durations, not a zero: the static checks always ran, the
          // tests only under check.
          const time = (name: string) =>
            new RegExp(
              `name="${name.replace(/\./g, "\\.")}[^"]*"(?: time="([0-9.]+)")?`,
            )
              .exec(r.junit)?.[1];
          assert.ok(Number(time("harness.conftest_changed")) > 0, r.junit);
          const total = / time="([0-9.]+)"/.exec(
            r.junit.slice(0, r.junit.indexOf("<testsuite ")),
          )?.[1];
          assert.ok(Number(total) > 0, r.junit);
          if (command === "check") {
            assert.ok(Number(time("tests")) > 0, r.junit);
          } else {
            assert.equal(time("tests"), undefined, r.junit);
          }
        },
      );

      await t.step(
        "the Markdown leads with the marker and the decision",
        () => {
          const lines = r.markdown.split("\n");
          assert.equal(lines[0], MARKDOWN_MARKER);
          assert.equal(lines[2], "## ❌ pawl: reject");
          assert.ok(lines[4]!.includes(head.slice(0, 12)));
          assert.match(r.markdown, /`harness\.conftest_changed`/);
        },
      );

      await t.step("the step summary got the Markdown appended", () => {
        assert.equal(r.summary, SUMMARY_BEFORE + r.markdown);
      });
    });
  }
});

Deno.test("pawl in GitHub Actions without publishing prints each finding as a workflow command", async (t) => {
  await using repo: TestRepo = await buildRepo({
    heads: { [BRANCH]: HEAD_FILES },
  });
  const env = { GITHUB_ACTIONS: "true" };
  const conftest =
    /^::error file=tests\/conftest\.py,line=1,title=harness\.conftest_changed::\S.*$/m;
  const settings =
    /^::warning file=pawl\.toml,title=config\.settings_ignored::\S.*$/m;

  await t.step("on stdout beside the text report", async () => {
    const r = await check(repo.dir, BRANCH, { command: "diff", env });
    assert.equal(r.code, 1, explain(r));
    assert.match(r.stdout, conftest);
    assert.match(r.stdout, settings);
  });

  await t.step("on stderr when stdout is the verdict JSON", async () => {
    const r = await check(repo.dir, BRANCH, {
      command: "diff",
      env,
      extra: ["--json"],
    });
    assert.equal(r.code, 1, explain(r));
    assert.equal(r.stdout, r.outText);
    assert.match(r.stderr, conftest);
  });

  await t.step("one error when it cannot decide", async () => {
    const r = await check(repo.dir, BRANCH, {
      command: "diff",
      env,
      now: "yesterday",
    });
    assert.equal(r.code, 2, explain(r));
    assert.match(
      r.stdout,
      /^::error title=pawl could not decide::Cannot read --now.*$/m,
    );
  });

  await t.step("nothing outside GitHub Actions", async () => {
    const r = await check(repo.dir, BRANCH, { command: "diff" });
    assert.equal(r.code, 1, explain(r));
    assert.doesNotMatch(r.stdout + r.stderr, /^::/m);
  });
});
