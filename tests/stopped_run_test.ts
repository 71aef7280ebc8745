/**
 * A run stopped at its time limit or for printing too much says which test
 * was running, in the units of the setting, and what had passed by then;
 * the properties it never got to are one finding.
 */
import assert from "node:assert/strict";
import { blocking, check, explain, type PawlResult, rules } from "./_cli.ts";
import { PYTHON } from "./_layouts.ts";
import { buildRepo, defaultBaseFiles } from "./_repo.ts";

/** Small limits so the runs stay fast. */
const SETTINGS =
  "[tests]\ntimeout_seconds = 5\nmax_output_mib = 1\nmax_processes = 64\n";

/** Six tests that pass, then `last`. */
function sixThen(last: string): string {
  const passing = Array.from(
    { length: 6 },
    (_, i) => `def test_passes_${i}():\n    assert True\n`,
  ).join("\n\n");
  return `import sys\nimport time\n\n\n${passing}\n\n${last}`;
}

const HANG = sixThen(`def test_hang():\n    time.sleep(10000)\n`);
const FLOOD = sixThen(`def test_flood(capfd):
    with capfd.disabled():
        for _ in range(5000):
            sys.stdout.write("x" * 10**6)
            sys.stdout.flush()
`);

/**
 * The sample's two plain tests and the six new ones, run before the last
 * (the registered properties run on their own, after the full run).
 */
const PASSED_BEFORE = 8;

/** What plain pytest shows of the branch when a CI job kills it after 5 s. */
async function killedPlainPytest(
  repoDir: string,
  branch: string,
): Promise<{ code: number; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-plain-pytest-" });
  try {
    const out = await new Deno.Command("/bin/sh", {
      args: [
        "-c",
        `git -C "${repoDir}" archive "${branch}" | tar -x -C "${dir}" && ` +
        `cd "${dir}" && timeout -s KILL 5 ${PYTHON} -m pytest -q -p no:cacheprovider`,
      ],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: out.code,
      output: decoder.decode(out.stdout) + decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The shape both stops share: one stop finding, one for the properties, the passes counted. */
function assertStopped(
  result: PawlResult,
  rule: "tests.timeout" | "tests.output_exceeded",
): string {
  const why = explain(result);
  assert.equal(result.code, 1, why);
  const verdict = result.verdict!;
  const stop = blocking(verdict).filter((f) => f.rule === rule);
  assert.equal(stop.length, 1, why);
  // The properties the stopped run never reported are one finding.
  assert.deepEqual(
    rules(verdict.findings).filter((r) => r === "property.not_passed"),
    ["property.not_passed"],
    why,
  );
  assert.doesNotMatch(
    verdict.findings.map((f) => f.message).join("\n"),
    /not collected or was deselected/,
    why,
  );
  assert.equal(verdict.tests?.summary["passed"], PASSED_BEFORE, why);
  assert.match(
    result.stdout,
    new RegExp(`\\n  tests: ${PASSED_BEFORE} passed, 0 failed`),
  );
  return stop[0]!.message;
}

Deno.test("a stopped run names the test that was running and counts what had passed", async (t) => {
  await using repo = await buildRepo({
    base: { ...defaultBaseFiles(), "pawl.toml": SETTINGS },
    heads: {
      "hang": { "tests/test_zz_hang.py": HANG },
      "flood": { "tests/test_zz_flood.py": FLOOD },
    },
  });

  await t.step("plain pytest killed by a CI limit names no test", async () => {
    const plain = await killedPlainPytest(repo.dir, "hang");
    assert.notEqual(plain.code, 0, plain.output);
    assert.doesNotMatch(plain.output, /test_hang|passed/, plain.output);
  });

  await t.step(
    "a test that sleeps forever after six passing tests",
    async () => {
      const result = await check(repo.dir, "hang", { quiet: false });
      const message = assertStopped(result, "tests.timeout");
      assert.match(
        message,
        new RegExp(
          `^The test run was stopped at its time limit of 5 s \\(\\[tests\\] timeout_seconds\\) while "tests/test_zz_hang\\.py::test_hang" was running, after ${PASSED_BEFORE} tests had passed`,
        ),
        explain(result),
      );
    },
  );

  await t.step(
    "a test that floods the output after six passing tests",
    async () => {
      const result = await check(repo.dir, "flood", { quiet: false });
      const message = assertStopped(result, "tests.output_exceeded");
      assert.match(
        message,
        new RegExp(
          `^The test run was stopped for printing more than the output limit of 1 MiB \\(\\[tests\\] max_output_mib\\) while "tests/test_zz_flood\\.py::test_flood" was running, after ${PASSED_BEFORE} tests had passed`,
        ),
        explain(result),
      );
    },
  );
});
