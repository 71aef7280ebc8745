import { deepEqual, equal, throws } from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "./read_settings.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";

Deno.test("readSettings() fills defaults for an empty file", () => {
  deepEqual(readSettings(""), DEFAULT_SETTINGS);
  equal(DEFAULT_SETTINGS.tests.timeout_seconds, 600);
  equal(DEFAULT_SETTINGS.tests.command, undefined);
});

Deno.test("readSettings() reads the test command and limits", () => {
  const s = readSettings(
    '[tests]\ncommand = ["python3", "-m", "pytest", "tests"]\ntimeout_seconds = 30\nmax_output_mib = 2\n',
  );
  deepEqual(s.tests.command, ["python3", "-m", "pytest", "tests"]);
  equal(s.tests.timeout_seconds, 30);
  equal(s.tests.max_output_mib, 2);
});

Deno.test("readSettings() names the file, the key and the line of a problem", async (t) => {
  const cases: [string, string, string, number | undefined][] = [
    [
      "unknown key",
      '[tests]\nrunner = "pytest"\nnotes = "x"\n',
      'unknown key "tests.notes"',
      3,
    ],
    ["unknown table", "[tests]\n[extra]\nx = 1\n", 'unknown key "extra"', 2],
    [
      "wrong type",
      '[tests]\ntimeout_seconds = "soon"\n',
      'key "tests.timeout_seconds"',
      2,
    ],
    ["syntax error", "[tests\n", "pawl.toml", 1],
    [
      "wrong type after a multi-line string that holds a key line",
      '[tests]\ncommand = ["""\ntimeout_seconds = 1\n"""]\ntimeout_seconds = "soon"\n',
      'key "tests.timeout_seconds"',
      5,
    ],
  ];
  for (const [name, text, fragment, line] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(e.path, "pawl.toml");
        equal(e.line, line);
        return e.message.includes(fragment) &&
          e.message.includes('"pawl.toml"');
      });
    });
  }
});

Deno.test("readSettings() calls its problems settings problems, in words for people", async (t) => {
  const cases: [string, string, string][] = [
    [
      "a string where a number goes",
      '[seeds]\nreplay_trials = 5\n[tests]\ntimeout_seconds = "60"\n',
      'Cannot read settings "pawl.toml": key "tests.timeout_seconds" at line 4 must be a number, got a string',
    ],
    [
      "a fraction",
      "[tests]\ntimeout_seconds = 1.5\n",
      'Cannot read settings "pawl.toml": key "tests.timeout_seconds" at line 2 must be a whole number, got 1.5',
    ],
    [
      "too small",
      "[tests]\nmax_processes = 2\n",
      'Cannot read settings "pawl.toml": key "tests.max_processes" at line 2 must be at least 8, got 2',
    ],
    [
      "too big",
      "[tests]\ntimeout_seconds = 90000\n",
      'Cannot read settings "pawl.toml": key "tests.timeout_seconds" at line 2 must be at most 86400, got 90000',
    ],
    [
      "an unknown runner",
      '[tests]\nrunner = "jest"\n',
      'Cannot read settings "pawl.toml": key "tests.runner" at line 2 must be "pytest" or "deno", got "jest"',
    ],
    [
      "a bad variable name",
      '[seeds]\nenv_seed = "1SEED"\n',
      'Cannot read settings "pawl.toml": key "seeds.env_seed" at line 2 must be an upper-case environment variable name (A-Z, digits and "_", not starting with a digit), got "1SEED"',
    ],
    [
      "a misspelt key",
      "[tests]\ntimout_seconds = 60\n",
      'Cannot read settings "pawl.toml": unknown key "tests.timout_seconds" at line 2; did you mean "timeout_seconds"?',
    ],
    [
      "a misspelt table",
      "[test]\ntimeout_seconds = 60\n",
      'Cannot read settings "pawl.toml": unknown key "test" at line 1; did you mean "tests"?',
    ],
    [
      "an unrelated key",
      '[tests]\ncolour = "red"\n',
      'Cannot read settings "pawl.toml": unknown key "tests.colour" at line 2',
    ],
    [
      "broken TOML",
      "[tests\n",
      'Cannot read settings "pawl.toml": not valid TOML: ',
    ],
  ];
  for (const [name, text, message] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        if (name === "broken TOML") return e.message.startsWith(message);
        equal(e.message, message);
        return true;
      });
    });
  }
});

Deno.test("readSettings() names the line of a wrong item in the test command", async (t) => {
  const cases: [string, string, number][] = [
    ["one line", "[tests]\ncommand = [1, 2]\n", 2],
    ["a dotted key at the top", "tests.command = [1]\n", 1],
    ["a quoted dotted key in its table", '[tests]\n"command" = ["a", 2]\n', 2],
  ];
  for (const [name, text, line] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(e.line, line);
        equal(e.path, "pawl.toml");
        return /key "tests\.command\.\d" at line \d+ must be a string, got a number$/
          .test(e.message);
      });
    });
  }
});

Deno.test("readSettings() refuses seed and trial variables that would override the sandbox's environment", async (t) => {
  const reserved = [
    "PATH",
    "HOME",
    "TMPDIR",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "PYTHONHASHSEED",
    "PYTHONSTARTUP",
    "PYTEST_ADDOPTS",
    "PAWL_SANDBOX_UIDS",
    "TZ",
  ];
  for (const key of ["env_seed", "env_trials"]) {
    for (const name of reserved) {
      await t.step(`${key} = "${name}"`, () => {
        throws(
          () => readSettings(`# seeds\n[seeds]\n${key} = "${name}"\n`),
          (e: unknown) => {
            if (!(e instanceof ContractSyntaxError)) return false;
            equal(e.line, 3);
            equal(
              e.message.startsWith(
                `Cannot read settings "pawl.toml": key "seeds.${key}" at line 3 must not override the sandbox's own environment: "${name}" `,
              ),
              true,
              e.message,
            );
            return true;
          },
        );
      });
    }
    for (
      const name of ["path", "Contract_Seed", "1SEED", "SEED-1", "SEED X", ""]
    ) {
      await t.step(`${key} = ${JSON.stringify(name)}`, () => {
        throws(
          () => readSettings(`[seeds]\n${key} = ${JSON.stringify(name)}\n`),
          (e: unknown) =>
            e instanceof ContractSyntaxError && e.line === 2 &&
            e.message.includes(`key "seeds.${key}" at line 2 must be`),
        );
      });
    }
  }
  await t.step("names of its own are kept", () => {
    const s = readSettings(
      '[seeds]\nenv_seed = "MY_SEED"\nenv_trials = "_TRIALS2"\n',
    );
    equal(s.seeds.env_seed, "MY_SEED");
    equal(s.seeds.env_trials, "_TRIALS2");
  });
  await t.step("env_seed and env_trials must differ", () => {
    throws(
      () => readSettings('[seeds]\nenv_seed = "SEED"\nenv_trials = "SEED"\n'),
      (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(
          e.message,
          'Cannot read settings "pawl.toml": key "seeds.env_trials" at line 3 must differ from "seeds.env_seed" (both are "SEED"): the trial count would overwrite the seed, got "SEED"',
        );
        return true;
      },
    );
    throws(
      () => readSettings('[seeds]\nenv_trials = "CONTRACT_SEED"\n'),
      /must differ from "seeds\.env_seed"/,
    );
  });
});

Deno.test("readSettings() answers a misspelt key with the known one, naming the file, the key and the line", async (t) => {
  const excuse = [
    "[[excuses]]",
    'tests = "tests/test_slow.py"',
    'owner = "Ada Lovelace"',
    'expires = "2026-12-31T00:00:00Z"',
    'reason = "needs a GPU"',
  ].join("\n");
  const cases: [string, string, string, number, string][] = [
    ["a table", "[test]\ntimeout_seconds = 5\n", "test", 1, "tests"],
    [
      "a key of [tests]",
      "[tests]\ntimeout_secnds = 5\n",
      "tests.timeout_secnds",
      2,
      "timeout_seconds",
    ],
    [
      "a key of [seeds]",
      '[seeds]\nenv_sed = "X"\n',
      "seeds.env_sed",
      2,
      "env_seed",
    ],
    [
      "a key of [mutation]",
      "[mutation]\nenabeld = false\n",
      "mutation.enabeld",
      2,
      "enabled",
    ],
    // A required key misspelt is also missing: the misspelling is reported.
    [
      "a required key of [environment.setup]",
      '[environment.setup]\ncomand = ["make"]\n',
      "environment.setup.comand",
      2,
      "command",
    ],
    ["a required key of [[excuses]]", excuse, "excuses.0.tests", 2, "test"],
  ];
  for (const [name, text, key, line, known] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(
          e.message,
          `Cannot read settings "pawl.toml": unknown key "${key}" at line ${line}; did you mean "${known}"?`,
        );
        return true;
      });
    });
  }
});
