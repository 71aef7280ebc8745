import { deepEqual, equal, throws } from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { readSettings } from "./read_settings.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";

Deno.test("readSettings() gives an empty [environment] when the file has none", () => {
  deepEqual(DEFAULT_SETTINGS.environment, { pythonpath: [], env: {} });
  deepEqual(readSettings("[tests]\n").environment, {
    pythonpath: [],
    env: {},
  });
});

Deno.test("readSettings() reads the interpreter, the import path and extra variables", () => {
  const s = readSettings(
    [
      "[environment]",
      'python = "/opt/venv/bin/python"',
      'pythonpath = ["src/", ".", "lib/vendored"]',
      "",
      "[environment.env]",
      'APP_MODE = "test"',
      'EMPTY = ""',
      "",
    ].join("\n"),
  );
  deepEqual(s.environment, {
    python: "/opt/venv/bin/python",
    pythonpath: ["src", ".", "lib/vendored"],
    env: { APP_MODE: "test", EMPTY: "" },
  });
  equal(
    readSettings('[environment]\npython = "python3.11"\n').environment.python,
    "python3.11",
  );
});

Deno.test("readSettings() does not repeat the value of a variable named like a credential", () => {
  throws(
    () => readSettings('[environment.env]\nAPI_TOKEN = "s3cr3t-value"\n'),
    (e: unknown) =>
      e instanceof ContractSyntaxError && e.line === 2 &&
      e.message.includes('key "environment.env.API_TOKEN"') &&
      !e.message.includes("s3cr3t-value"),
  );
});

Deno.test("readSettings() refuses [environment] values naming the file, the key and the line", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "a relative interpreter (a file the pull request could replace)",
      '[environment]\npython = ".venv/bin/python"\n',
      'key "environment.python" at line 2 must be an absolute path',
      2,
    ],
    [
      "an interpreter path with ..",
      '[environment]\npython = "/opt/../tmp/python"\n',
      'key "environment.python" at line 2 must be a canonical absolute path',
      2,
    ],
    [
      "an interpreter with a space",
      '[environment]\npython = "python3 -I"\n',
      'key "environment.python" at line 2 must be a path without NUL',
      2,
    ],
    [
      "a pythonpath outside the repository",
      '[environment]\n\npythonpath = ["src", "../other"]\n',
      'key "environment.pythonpath.1" at line 3 must stay inside the repository',
      3,
    ],
    [
      "an absolute pythonpath",
      '[environment]\npythonpath = ["/usr/lib/python3"]\n',
      "must be relative to the repository root",
      2,
    ],
    [
      "a pythonpath with the separator",
      '[environment]\npythonpath = ["src:lib"]\n',
      'without NUL, newlines or ":"',
      2,
    ],
    [
      "a pythonpath that is not a list",
      '[environment]\npythonpath = "src"\n',
      'key "environment.pythonpath" at line 2 must be a list, got a string',
      2,
    ],
    [
      "an unknown key",
      "[environment]\npthonpath = []\n",
      'unknown key "environment.pthonpath" at line 2',
      2,
    ],
    [
      "PYTHONPATH through env",
      '[environment.env]\nPYTHONPATH = "src"\n',
      'key "environment.env.PYTHONPATH" at line 2 must not override the sandbox\'s own environment',
      2,
    ],
    [
      "the sandbox's PATH",
      '[environment.env]\nA = "1"\nPATH = "/opt/bin"\n',
      'key "environment.env.PATH" at line 3 must not override',
      3,
    ],
    [
      "Hypothesis' example database",
      '[environment.env]\nHYPOTHESIS_STORAGE_DIRECTORY = "db"\n',
      "must not override the sandbox's own environment",
      2,
    ],
    [
      "a runner's token",
      '[environment.env]\nGITHUB_TOKEN = "x"\n',
      'key "environment.env.GITHUB_TOKEN" at line 2 must not be set: "GITHUB_TOKEN" starts with "GITHUB_"',
      2,
    ],
    [
      "a credential by its name",
      'environment.env.DB_PASSWORD = "x"\n',
      'key "environment.env.DB_PASSWORD" at line 1 must not be set: "DB_PASSWORD" names a credential',
      1,
    ],
    [
      "the seed variable",
      '[environment]\nenv = { CONTRACT_TRIALS = "5" }\n',
      'key "environment.env.CONTRACT_TRIALS" at line 2 must not be set: pawl injects the seed or trial count',
      2,
    ],
    [
      "a lower-case name",
      '[environment.env]\napp_mode = "x"\n',
      'key "environment.env.app_mode" at line 2 must be named in upper case',
      2,
    ],
    [
      "a value that is not a string",
      "[environment.env]\nWORKERS = 4\n",
      'key "environment.env.WORKERS" at line 2 must be a string, got a number',
      2,
    ],
  ];
  for (const [name, text, fragment, line] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        if (!(e instanceof ContractSyntaxError)) return false;
        equal(e.path, "pawl.toml");
        equal(e.line, line);
        if (!e.message.includes(fragment)) {
          throw new Error(`${JSON.stringify(fragment)} not in: ${e.message}`);
        }
        return true;
      });
    });
  }
});
