import { deepEqual, equal, throws } from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { DEFAULT_COVERAGE_SETTINGS } from "./coverage_settings.ts";
import { readSettings } from "./read_settings.ts";

Deno.test("readSettings() keeps changed lines no test runs advisory unless [coverage] makes them blocking", () => {
  deepEqual(readSettings("").coverage, DEFAULT_COVERAGE_SETTINGS);
  equal(DEFAULT_COVERAGE_SETTINGS.changed_lines, "advisory");
  equal(readSettings("[coverage]\n").coverage.changed_lines, "advisory");
  equal(
    readSettings('[coverage]\nchanged_lines = "blocking"\n').coverage
      .changed_lines,
    "blocking",
  );
});

Deno.test("readSettings() names the file, key and line of a bad [coverage] value", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "unknown mode",
      '[tests]\ntimeout_seconds = 60\n\n[coverage]\nchanged_lines = "strict"\n',
      "coverage.changed_lines",
      5,
    ],
    [
      "not a string",
      "[coverage]\nchanged_lines = true\n",
      "coverage.changed_lines",
      2,
    ],
    [
      "unknown key",
      '[coverage]\nbranches = "blocking"\n',
      "coverage.branches",
      2,
    ],
  ];
  for (const [name, text, key, line] of cases) {
    await t.step(name, () => {
      throws(
        () => readSettings(text, { path: "pawl.toml" }),
        (e: unknown) => {
          equal(e instanceof ContractSyntaxError, true);
          const error = e as ContractSyntaxError;
          equal(error.message.includes("pawl.toml"), true, error.message);
          equal(error.message.includes(key), true, error.message);
          equal(error.line, line, error.message);
          return true;
        },
      );
    });
  }
});
