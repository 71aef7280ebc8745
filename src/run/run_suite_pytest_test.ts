import assert from "node:assert/strict";
import type {
  Sandbox,
  SandboxCommand,
  SandboxResult,
} from "../sandbox/sandbox.ts";
import { evaluateProperty } from "./evaluate_property.ts";
import { runSuite, type RunSuiteOptions } from "./run_suite.ts";

/** Runs commands as plain child processes: only for trusted test projects. */
class LocalSandbox implements Sandbox {
  readonly isolation = {
    tier: "none" as const,
    network: "inherited" as const,
    notes: ["local processes, test only"],
  };
  readonly calls: SandboxCommand[] = [];

  prepareDir(): Promise<void> {
    return Promise.resolve();
  }

  async run(command: SandboxCommand): Promise<SandboxResult> {
    this.calls.push(command);
    const [program = "", ...args] = command.argv;
    let output: Deno.CommandOutput;
    try {
      output = await new Deno.Command(program, {
        args,
        cwd: command.cwd,
        env: { ...command.env },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      const text = `${program}: No such file or directory`;
      return result(127, text);
    }
    const text = new TextDecoder().decode(output.stdout) +
      new TextDecoder().decode(output.stderr);
    return result(output.code, text);
  }
}

function result(code: number, text: string): SandboxResult {
  return {
    code,
    signal: null,
    timedOut: false,
    outputExceeded: false,
    outputHead: text.slice(0, 4096),
    outputTail: text.slice(-4096),
    outputBytes: text.length,
  };
}

const PROJECT: Record<string, string> = {
  "tests/__init__.py": "",
  "tests/test_r.py": `import os
import pytest
from hypothesis import given, settings, strategies as st


def test_steady():
    assert 1 + 1 == 2


def test_report_render_flaky():
    # Fails the first two times: the counter lives outside the (fresh) tree.
    path = os.environ["FLAKY_COUNTER"]
    count = int(open(path).read()) if os.path.exists(path) else 0
    with open(path, "w") as f:
        f.write(str(count + 1))
    assert count >= 2, "clock skew"


@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    assert n == 1, "two is not one"


class TestThing:
    def test_method(self, tmp_path):
        (tmp_path / "x").write_text("x")
        assert os.environ["HOME"] in str(tmp_path)


@settings(max_examples=30, deadline=None, database=None)
@given(st.integers())
def test_prop(x):
    assert x - x == 0
`,
};

async function writeProject(dir: string): Promise<void> {
  for (const [path, text] of Object.entries(PROJECT)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, {
      recursive: true,
    });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
}

Deno.test("runSuite() runs real pytest and reruns a frozen flaky test in fresh trees", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_suite_pytest_" });
  try {
    await Deno.mkdir(`${root}/report`);
    await writeProject(`${root}/work`);
    let fresh = 0;
    const sandbox = new LocalSandbox();
    const options: RunSuiteOptions = {
      workDir: `${root}/work`,
      reportDir: `${root}/report`,
      env: { FLAKY_COUNTER: `${root}/report/counter` },
      freezes: [{
        id: "test_report_render_flaky",
        test: "test_report_render_flaky",
        remainingReruns: 2,
      }],
      freshWorkDir: async () => {
        const dir = `${root}/fresh-${fresh++}`;
        await writeProject(dir);
        return dir;
      },
    };
    const outcome = await runSuite(sandbox, options);

    assert.deepEqual(
      outcome.findings.map((f) => [f.rule, f.path, f.message, f.blocking]),
      [
        [
          "freeze.rerun_used",
          "tests/test_r.py",
          'Frozen test "tests/test_r.py::test_report_render_flaky" failed and passed on rerun 2 of 2 (freeze "test_report_render_flaky"): the contract\'s remaining_reruns should be lowered by 2',
          false,
        ],
        [
          "tests.failed",
          "tests/test_r.py",
          'Test "tests/test_r.py::test_param[2]" failed: AssertionError: two is not one',
          true,
        ],
      ],
    );
    assert.deepEqual(outcome.summary, {
      total: 6,
      passed: 4,
      failed: 2,
      errors: 0,
      skipped: 0,
      xfailed: 0,
    });
    assert.equal(fresh, 2);
    assert.deepEqual(
      sandbox.calls.slice(1).map((c) => c.argv.at(-1)),
      [
        "tests/test_r.py::test_report_render_flaky",
        "tests/test_r.py::test_report_render_flaky",
      ],
    );
    assert.equal(
      evaluateProperty(outcome.cases, {
        module: "tests.test_r",
        name: "test_prop",
      }),
      "passed",
    );
    assert.equal(
      evaluateProperty(outcome.cases, {
        module: "tests.test_r",
        name: "TestThing.test_method",
      }),
      "passed",
      "tmp_path lives under the run's HOME",
    );
    assert.equal(
      evaluateProperty(outcome.cases, {
        module: "tests.test_r",
        name: "test_param",
      }),
      "failed",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runSuite() reports a real pytest run that collects nothing as tests.run_failed", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl_suite_pytest_" });
  try {
    await Deno.mkdir(`${root}/report`);
    await Deno.mkdir(`${root}/work`);
    const outcome = await runSuite(new LocalSandbox(), {
      workDir: `${root}/work`,
      reportDir: `${root}/report`,
      freshWorkDir: () => Promise.reject(new Error("No rerun expected")),
    });
    assert.deepEqual(outcome.findings.map((f) => f.rule), ["tests.run_failed"]);
    assert.match(
      outcome.findings[0]?.message ?? "",
      /^The test run collected no tests \(exit code 5\): output ends with:\n.*no tests ran in <duration>/s,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
