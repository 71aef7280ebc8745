import assert from "node:assert/strict";
import type { ChangedPath } from "../git/git.ts";
import { checkGateConfig, isGateConfigPath } from "./check_gate_config.ts";

function judge(
  path: string,
  base: string | undefined,
  head: string | undefined,
): string[] {
  const status: ChangedPath["status"] = base === undefined
    ? "A"
    : head === undefined
    ? "D"
    : "M";
  const texts = {
    base: new Map(base === undefined ? [] : [[path, base]]),
    head: new Map(head === undefined ? [] : [[path, head]]),
  };
  return checkGateConfig([{ status, path }], texts).map((f) =>
    `${f.rule}: ${f.message}`
  );
}

Deno.test("checkGateConfig() rejects pawl.toml edits unless they only tighten the gate", async (t) => {
  const base = "[tests]\ntimeout_seconds = 120\nmax_processes = 256\n";
  const cases: [string, string | undefined, RegExp | null][] = [
    [
      "a lower timeout",
      "[tests]\ntimeout_seconds = 60\nmax_processes = 256\n",
      null,
    ],
    [
      "a comment",
      "# tuned\n[tests]\ntimeout_seconds = 120\nmax_processes = 256\n",
      null,
    ],
    ["more replay trials", `${base}[seeds]\nreplay_trials = 80\n`, null],
    [
      "changed lines no test runs made blocking",
      `${base}[coverage]\nchanged_lines = "blocking"\n`,
      null,
    ],
    [
      "a longer timeout",
      "[tests]\ntimeout_seconds = 600\nmax_processes = 256\n",
      /"tests\.timeout_seconds"/,
    ],
    [
      "a new command",
      `${base}command = ["python3", "-m", "pytest", "-k", "not slow"]\n`,
      /"tests\.command"/,
    ],
    [
      "a test_support entry",
      `${base}[harness]\ntest_support = ["src/pkg/"]\n`,
      /"harness\.test_support"/,
    ],
    [
      "fewer replay trials",
      `${base}[seeds]\nreplay_trials = 5\n`,
      /"seeds\.replay_trials"/,
    ],
    [
      "an interpreter of its own",
      `${base}[environment]\npython = "/home/agent/venv/bin/python"\n`,
      /"environment\.python"/,
    ],
    [
      "another import path",
      `${base}[environment]\npythonpath = ["vendor"]\n`,
      /"environment\.pythonpath"/,
    ],
    [
      "an extra variable",
      `${base}[environment.env]\nAPP_MODE = "lenient"\n`,
      /"environment\.env"/,
    ],
    ["a file that does not parse", "[tests\n", /does not parse/],
    [
      "a deleted file (defaults are looser)",
      undefined,
      /"tests\.max_processes", "tests\.timeout_seconds"/,
    ],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      const found = judge("pawl.toml", base, head);
      if (want === null) assert.deepEqual(found, []);
      else {
        assert.equal(found.length, 1, JSON.stringify(found));
        assert.match(found[0]!, /^config\.settings_changed: /);
        assert.match(found[0]!, want);
      }
    });
  }
});

Deno.test("checkGateConfig() rejects changes to CI that runs pawl, beyond comments", async (t) => {
  const workflow =
    "on: pull_request\njobs:\n  gate:\n    steps:\n      - run: deno task pawl check --now $NOW\n";
  const cases: [
    string,
    string,
    string | undefined,
    string | undefined,
    number,
  ][] = [
    [
      "a comment in the pawl workflow",
      ".github/workflows/pawl.yml",
      workflow,
      `# gate\n${workflow}`,
      0,
    ],
    [
      "a changed step",
      ".github/workflows/pawl.yml",
      workflow,
      workflow.replace("check", "diff"),
      1,
    ],
    [
      "a deleted workflow",
      ".github/workflows/pawl.yml",
      workflow,
      undefined,
      1,
    ],
    [
      "a workflow that does not run pawl",
      ".github/workflows/lint.yml",
      "jobs: {}\n",
      "jobs: {a: 1}\n",
      0,
    ],
    [
      "gitlab CI that runs pawl",
      ".gitlab-ci.yml",
      "gate:\n  script: pawl check\n",
      "gate:\n  script: echo ok\n",
      1,
    ],
  ];
  for (const [name, path, base, head, count] of cases) {
    await t.step(name, () => {
      assert.ok(isGateConfigPath(path));
      const found = judge(path, base, head);
      assert.equal(found.length, count, JSON.stringify(found));
      if (count > 0) assert.match(found[0]!, /^config\.ci_changed: /);
    });
  }
});

Deno.test("checkGateConfig() treats a new or extended excuse as a settings change and a dropped one as stricter", () => {
  const excuse = (test: string, expires = "2026-12-31T00:00:00Z") =>
    `[[excuses]]\ntest = "${test}"\nowner = "platform"\nexpires = "${expires}"\nreason = "no locale here"\n`;
  const base = excuse("tests/a.py::t");
  assert.deepEqual(
    judge("pawl.toml", base, base + excuse("tests/b.py::t")).map((m) =>
      m.split(":")[0]
    ),
    ["config.settings_changed"],
  );
  assert.match(
    judge("pawl.toml", undefined, excuse("tests/b.py::t"))[0] ?? "",
    /"excuses"/,
  );
  assert.deepEqual(
    judge("pawl.toml", base, excuse("tests/a.py::t", "2027-12-31T00:00:00Z"))
      .map((m) => m.split(":")[0]),
    ["config.settings_changed"],
  );
  assert.deepEqual(
    judge("pawl.toml", base + excuse("tests/b.py::t"), excuse("tests/b.py::t")),
    [],
  );
  assert.deepEqual(judge("pawl.toml", base, "[tests]\n"), []);
});
