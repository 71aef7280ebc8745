import assert from "node:assert/strict";
import { mutantStages } from "./deno_test_runner.ts";

const LIMITS = { unitTimeoutSeconds: 120, e2eTimeoutSeconds: 900 };

Deno.test("mutantStages() runs each unit test file on its own, in the chosen order, then the end-to-end tests together", async (t) => {
  const cases: [
    string,
    { unit: string[]; e2e: string[] },
    [string[], number][],
  ][] = [
    ["unit tests only", { unit: ["src/a_test.ts", "src/b_test.ts"], e2e: [] }, [
      [["src/a_test.ts"], 120],
      [["src/b_test.ts"], 120],
    ]],
    [
      "unit and end-to-end tests",
      { unit: ["src/a_test.ts"], e2e: ["tests/x_test.ts", "tests/y_test.ts"] },
      [
        [["src/a_test.ts"], 120],
        [["tests/x_test.ts", "tests/y_test.ts"], 900],
      ],
    ],
    ["end-to-end tests only", { unit: [], e2e: ["tests/x_test.ts"] }, [
      [["tests/x_test.ts"], 900],
    ]],
    ["nothing chosen", { unit: [], e2e: [] }, []],
  ];
  for (const [name, chosen, want] of cases) {
    await t.step(
      name,
      () => assert.deepEqual(mutantStages(chosen, LIMITS), want),
    );
  }
});
