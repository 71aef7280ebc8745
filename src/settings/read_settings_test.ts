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
