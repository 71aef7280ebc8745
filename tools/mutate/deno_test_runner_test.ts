import assert from "node:assert/strict";
import type { StrykerOptions } from "@stryker-mutator/api/core";
import type { MutantRunOptions } from "@stryker-mutator/api/test-runner";
import {
  afterTimeout,
  DenoTestRunner,
  mutantStages,
} from "./deno_test_runner.ts";

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

Deno.test("afterTimeout() runs a mutant again only under a longer limit, and leaves it undecided when its tests alone no longer pass", async (t) => {
  const cases: [string, number, number | undefined, string | number][] = [
    ["the tests alone take as long as before", 30, 30, "timeout"],
    ["the tests alone got quicker", 30, 22, "timeout"],
    ["the machine got busier", 30, 31, 31],
    ["the tests alone ran past their ceiling", 30, undefined, "undecided"],
  ];
  for (const [name, seconds, remeasured, want] of cases) {
    await t.step(
      name,
      () => assert.equal(afterTimeout(seconds, remeasured), want),
    );
  }
});

Deno.test("a mutant past its time limit is a timeout only while its tests without it still pass within theirs", async (t) => {
  // The test file hangs on every run after the first (`later`) or only with a
  // mutant switched on (`mutant`); the first run is the one without a mutant
  // that sets the limit.
  const run = async (hangs: "later" | "mutant") => {
    const dir = await Deno.makeTempDir({ prefix: "pawl-runner-" });
    try {
      await Deno.writeTextFile(
        `${dir}/hang_test.ts`,
        `const runs = new URL("./runs", import.meta.url);
Deno.test("hangs when told to", async () => {
  const before = Deno.readTextFileSync(runs).length;
  Deno.writeTextFileSync(runs, "x", { append: true });
  const mutant = (Deno.env.get("__STRYKER_ACTIVE_MUTANT__") ?? "") !== "";
  if (${JSON.stringify(hangs)} === "later" ? before > 0 : mutant) {
    await new Promise((done) => setTimeout(done, 3_600_000));
  }
});
`,
      );
      await Deno.writeTextFile(`${dir}/runs`, "");
      const runner = new DenoTestRunner(
        {
          pawlMutate: {
            root: dir,
            tests: { "a.ts": { unit: [`${dir}/hang_test.ts`], e2e: [] } },
            unitTimeoutSeconds: 10,
            e2eTimeoutSeconds: 10,
          },
        } as unknown as StrykerOptions,
      );
      try {
        const result = await runner.mutantRun(
          {
            activeMutant: { id: "1", fileName: `${dir}/a.ts` },
          } as MutantRunOptions,
        );
        return [result.status, (await Deno.readTextFile(`${dir}/runs`)).length];
      } finally {
        await runner.dispose();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  };
  await t.step(
    "the tests without the mutant pass when timed again: a timeout, after three runs",
    async () => assert.deepEqual(await run("mutant"), ["timeout", 3]),
  );
  await t.step(
    "the tests without the mutant hang too: undecided",
    async () => assert.deepEqual(await run("later"), ["error", 3]),
  );
});
