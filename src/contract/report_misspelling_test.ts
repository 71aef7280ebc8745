import assert from "node:assert/strict";
import { reportMisspelling } from "./report_misspelling.ts";

Deno.test("reportMisspelling() drops only the missing key a misspelt one was meant to be", async (t) => {
  const cases: [string, Parameters<typeof reportMisspelling>[0], string[]][] = [
    ["a misspelling and the key it meant", [
      { key: "tests.command", missing: true },
      { key: "tests.comand", meant: "tests.command" },
    ], ["tests.comand"]],
    ["a missing key no misspelling meant", [
      { key: "tests.timeout", missing: true },
      { key: "tests.comand", meant: "tests.command" },
    ], ["tests.timeout", "tests.comand"]],
    [
      "a problem of the meant key that is not its absence (a wrong type) stays",
      [
        { key: "tests.command" },
        { key: "tests.comand", meant: "tests.command" },
      ],
      ["tests.command", "tests.comand"],
    ],
    ["two misspellings of one key", [
      { key: "a.b", missing: true },
      { key: "a.bb", meant: "a.b" },
      { key: "a.c", meant: "a.b" },
    ], ["a.bb", "a.c"]],
    ["no problems", [], []],
  ];
  for (const [name, problems, left] of cases) {
    await t.step(name, () => {
      assert.deepEqual(reportMisspelling(problems).map((p) => p.key), left);
    });
  }
});
