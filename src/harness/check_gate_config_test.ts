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

Deno.test("isGateConfigPath() knows pawl.toml and every CI definition at its place", async (t) => {
  const gate = [
    "pawl.toml",
    ".gitlab-ci.yml",
    ".circleci/config.yml",
    "azure-pipelines.yml",
    "Jenkinsfile",
    ".buildkite/pipeline.yml",
    "bitbucket-pipelines.yml",
    ".travis.yml",
    ".drone.yml",
    ".woodpecker.yml",
    ".github/workflows/gate.yml",
    ".github/workflows/gate.yaml",
    ".gitlab/ci/gate.yml",
    ".gitlab/ci/jobs/gate.yaml",
  ];
  const other = [
    "sub/pawl.toml",
    "pawl.toml.bak",
    "docs/.gitlab-ci.yml",
    ".github/workflows/sub/gate.yml",
    ".github/workflows/gate.json",
    ".github/workflows/gate.yml.bak",
    "x/.github/workflows/gate.yml",
    ".gitlab/ci/gate.json",
    ".gitlab/ci/gate.yml.bak",
    "x/.gitlab/ci/gate.yml",
    ".github/dependabot.yml",
  ];
  for (const path of gate) {
    await t.step(`${path} is the gate's`, () => {
      assert.equal(isGateConfigPath(path), true);
    });
  }
  for (const path of other) {
    await t.step(`${path} is not`, () => {
      assert.equal(isGateConfigPath(path), false);
    });
  }
});

Deno.test("checkGateConfig() tells a CI edit that only touches comments and blank lines from a real one", async (t) => {
  const workflow = "jobs:\n  gate:\n    steps:\n      - run: pawl check\n";
  const cases: [string, string | undefined, string | undefined, string[]][] = [
    [
      "indented comments, blank lines and trailing spaces are not a change",
      workflow,
      `# gate\n\n${workflow.replace("steps:", "steps:   ")}    # note\n\r\n`,
      [],
    ],
    [
      "a changed indentation is a change",
      workflow,
      workflow.replace("  gate:", "   gate:"),
      [
        'config.ci_changed: The pull request changed ".github/workflows/ci.yml", a CI definition that runs pawl: how the gate runs is human-owned',
      ],
    ],
    [
      "a workflow that starts to run PAWL is a change",
      "jobs: {}\n",
      "jobs:\n  gate:\n    run: PAWL check\n",
      [
        'config.ci_changed: The pull request changed ".github/workflows/ci.yml", a CI definition that runs pawl: how the gate runs is human-owned',
      ],
    ],
    [
      "a new workflow that runs pawl is a change",
      undefined,
      workflow,
      [
        'config.ci_changed: The pull request changed ".github/workflows/ci.yml", a CI definition that runs pawl: how the gate runs is human-owned',
      ],
    ],
    [
      "a workflow that stopped mentioning Pawl is a change",
      "jobs:\n  gate:\n    run: Pawl check\n",
      "jobs: {}\n",
      [
        'config.ci_changed: The pull request changed ".github/workflows/ci.yml", a CI definition that runs pawl: how the gate runs is human-owned',
      ],
    ],
    [
      "a deleted workflow says so",
      workflow,
      undefined,
      [
        'config.ci_changed: The pull request deleted ".github/workflows/ci.yml", a CI definition that runs pawl: how the gate runs is human-owned',
      ],
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(judge(".github/workflows/ci.yml", base, head), want);
    });
  }
  await t.step("a file that is not the gate's is never judged", () => {
    assert.deepEqual(judge("docs/ci.yml", "pawl", "pawl check"), []);
  });
});

Deno.test("checkGateConfig() allows each change to pawl.toml that only makes the gate stricter, down to equality", async (t) => {
  const base =
    '[tests]\ntimeout_seconds = 120\nmax_output_mib = 16\nmax_processes = 256\n[seeds]\nreplay_trials = 50\n[coverage]\nchanged_lines = "advisory"\n[harness]\ntest_support = ["a/", "b.py"]\n';
  const stricter: [string, string, string][] = [
    [
      "the same timeout, rewritten",
      "timeout_seconds = 120",
      "timeout_seconds = 1_20",
    ],
    ["a lower output limit", "max_output_mib = 16", "max_output_mib = 8"],
    ["a lower process limit", "max_processes = 256", "max_processes = 255"],
    [
      "the same replay trials, rewritten",
      "replay_trials = 50",
      "replay_trials = 5_0",
    ],
    ["more replay trials", "replay_trials = 50", "replay_trials = 51"],
    ["blocking changed lines", '"advisory"', '"blocking"'],
    ["one test_support entry dropped", '["a/", "b.py"]', '["b.py"]'],
    ["every test_support entry dropped", '["a/", "b.py"]', "[]"],
  ];
  for (const [name, from, to] of stricter) {
    await t.step(`${name} is allowed`, () => {
      assert.deepEqual(judge("pawl.toml", base, base.replace(from, to)), []);
    });
  }
  const looser: [string, string, string, string][] = [
    [
      "a higher output limit",
      "max_output_mib = 16",
      "max_output_mib = 17",
      '"tests.max_output_mib"',
    ],
    [
      "a higher process limit",
      "max_processes = 256",
      "max_processes = 257",
      '"tests.max_processes"',
    ],
    [
      "a higher timeout",
      "timeout_seconds = 120",
      "timeout_seconds = 121",
      '"tests.timeout_seconds"',
    ],
    [
      "fewer replay trials",
      "replay_trials = 50",
      "replay_trials = 49",
      '"seeds.replay_trials"',
    ],
    [
      "a test_support entry swapped",
      '["a/", "b.py"]',
      '["a/", "c.py"]',
      '"harness.test_support"',
    ],
  ];
  for (const [name, from, to, keys] of looser) {
    await t.step(`${name} is a settings change`, () => {
      assert.deepEqual(judge("pawl.toml", base, base.replace(from, to)), [
        `config.settings_changed: The pull request changes ${keys} in "pawl.toml" in a way pawl cannot show only makes the gate stricter; the gate's settings are human-owned`,
      ]);
    });
  }
  await t.step(
    "blocking changed lines made advisory is a settings change",
    () => {
      const blocking = base.replace('"advisory"', '"blocking"');
      assert.deepEqual(judge("pawl.toml", blocking, base), [
        `config.settings_changed: The pull request changes "coverage.changed_lines" in "pawl.toml" in a way pawl cannot show only makes the gate stricter; the gate's settings are human-owned`,
      ]);
    },
  );
  await t.step("several looser keys are named in order", () => {
    const head = base.replace("max_processes = 256", "max_processes = 300")
      .replace("replay_trials = 50", "replay_trials = 2")
      .replace("max_output_mib = 16", "max_output_mib = 20");
    assert.deepEqual(judge("pawl.toml", base, head), [
      `config.settings_changed: The pull request changes "seeds.replay_trials", "tests.max_output_mib", "tests.max_processes" in "pawl.toml" in a way pawl cannot show only makes the gate stricter; the gate's settings are human-owned`,
    ]);
  });
  await t.step("a base that does not parse leaves nothing to compare", () => {
    assert.deepEqual(judge("pawl.toml", "[tests\n", base), []);
  });
  await t.step("a head that does not parse names the parse error", () => {
    const found = judge("pawl.toml", base, "[tests\n");
    assert.equal(found.length, 1);
    assert.match(
      found[0]!,
      /^config\.settings_changed: The pull request's "pawl\.toml" does not parse \(.+\); the gate's settings are human-owned$/,
    );
  });
});

Deno.test("checkGateConfig() compares CI files line by line and names the file", async (t) => {
  const path = ".github/workflows/ci.yml";
  const judgeAt = (base: string | undefined, head: string | undefined) =>
    checkGateConfig([{
      status: base === undefined ? "A" : head === undefined ? "D" : "M",
      path,
    }], {
      base: new Map(base === undefined ? [] : [[path, base]]),
      head: new Map(head === undefined ? [] : [[path, head]]),
    }).map((f) => `${f.rule}@${f.path}`);
  await t.step("two lines joined into one are a change", () => {
    assert.deepEqual(
      judgeAt("run: pawl check\nenv: x\n", "run: pawl checkenv: x\n"),
      [`config.ci_changed@${path}`],
    );
  });
  await t.step(
    "a new CI file of comments that mention pawl is no change",
    () => {
      assert.deepEqual(judgeAt(undefined, "# runs pawl later\n"), []);
    },
  );
  await t.step(
    "a deleted CI file of comments that mention pawl is no change",
    () => {
      assert.deepEqual(judgeAt("# runs pawl later\n", undefined), []);
    },
  );
  await t.step("a settings change names pawl.toml", () => {
    assert.deepEqual(
      checkGateConfig([{ status: "M", path: "pawl.toml" }], {
        base: new Map([["pawl.toml", "[tests]\ntimeout_seconds = 60\n"]]),
        head: new Map([["pawl.toml", "[tests\n"]]),
      }).map((f) => `${f.rule}@${f.path}`),
      ["config.settings_changed@pawl.toml"],
    );
    assert.deepEqual(
      checkGateConfig([{ status: "M", path: "pawl.toml" }], {
        base: new Map([["pawl.toml", "[tests]\ntimeout_seconds = 60\n"]]),
        head: new Map([["pawl.toml", "[tests]\ntimeout_seconds = 61\n"]]),
      }).map((f) => `${f.rule}@${f.path}`),
      ["config.settings_changed@pawl.toml"],
    );
  });
});

Deno.test("checkGateConfig() takes a shorter list as stricter only for excuses and test_support", async (t) => {
  const cases: [string, string, string, string][] = [
    [
      "an argument dropped from the test command",
      '[tests]\ncommand = ["python3", "-m", "pytest", "-x"]\n',
      '[tests]\ncommand = ["python3", "-m", "pytest"]\n',
      '"tests.command"',
    ],
    [
      "a pythonpath entry dropped",
      '[environment]\npythonpath = ["a", "b"]\n',
      '[environment]\npythonpath = ["a"]\n',
      '"environment.pythonpath"',
    ],
  ];
  for (const [name, base, head, key] of cases) {
    await t.step(`${name} is a settings change`, () => {
      assert.deepEqual(judge("pawl.toml", base, head), [
        `config.settings_changed: The pull request changes ${key} in "pawl.toml" in a way pawl cannot show only makes the gate stricter; the gate's settings are human-owned`,
      ]);
    });
  }
});
