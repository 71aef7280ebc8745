import { deepEqual, equal, throws } from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { DEFAULT_MUTATION_SETTINGS } from "./mutation_settings.ts";
import { readSettings } from "./read_settings.ts";

Deno.test("readSettings() turns mutation on with a count cap and a time budget unless [mutation] says otherwise", () => {
  deepEqual(readSettings("").mutation, DEFAULT_MUTATION_SETTINGS);
  deepEqual(readSettings("[mutation]\n").mutation, DEFAULT_MUTATION_SETTINGS);
  equal(DEFAULT_MUTATION_SETTINGS.enabled, true);
  equal(DEFAULT_MUTATION_SETTINGS.max_mutants, 50);
  equal(DEFAULT_MUTATION_SETTINGS.budget_seconds, 180);
  equal(readSettings("[mutation]\nenabled = false\n").mutation.enabled, false);
  const s = readSettings(
    '[mutation]\nenabled = true\nbudget_seconds = 120\nmax_mutants = 40\noperators = ["comparison", "slice"]\n',
  );
  deepEqual(s.mutation, {
    enabled: true,
    budget_seconds: 120,
    max_mutants: 40,
    operators: ["comparison", "slice"],
  });
});

Deno.test("readSettings() names the key and line of a bad [mutation] value", async (t) => {
  const cases: [string, string, string, number][] = [
    [
      "unknown key",
      "[mutation]\nenabled = true\nrate = 2\n",
      "mutation.rate",
      3,
    ],
    [
      "unknown operator",
      '[mutation]\noperators = ["comparison", "swap"]\n',
      "mutation.operators",
      2,
    ],
    [
      "zero budget",
      "[mutation]\nbudget_seconds = 0\n",
      "mutation.budget_seconds",
      2,
    ],
  ];
  for (const [name, text, key, line] of cases) {
    await t.step(name, () => {
      throws(() => readSettings(text), (e: unknown) => {
        equal(e instanceof ContractSyntaxError, true);
        const error = e as ContractSyntaxError;
        equal(error.message.includes(key), true, error.message);
        equal(error.line, line, error.message);
        return true;
      });
    });
  }
});
