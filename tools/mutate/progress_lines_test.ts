import assert from "node:assert/strict";
import { type MutantResult, PlanKind } from "@stryker-mutator/api/core";
import type { MutationTestingPlanReadyEvent } from "@stryker-mutator/api/report";
import { progressLine, ProgressLines } from "./progress_lines.ts";

Deno.test("a CI progress line says how many mutants ran of how many, how many went undetected, and the time so far", () => {
  assert.equal(
    progressLine(0, 940, 0, 4.6),
    "mutate: 0 of 940 mutants run, 0 undetected, 4s",
  );
  assert.equal(
    progressLine(120, 940, 12, 65.2),
    "mutate: 120 of 940 mutants run, 12 undetected, 1m 05s",
  );
  assert.equal(
    progressLine(940, 940, 206, 3600),
    "mutate: 940 of 940 mutants run, 206 undetected, 60m 00s",
  );
});

Deno.test("the progress counts the mutants run, not those left out with a reason, so it never passes the total", () => {
  const progress = new ProgressLines();
  progress.onMutationTestingPlanReady({
    mutantPlans: [
      { plan: PlanKind.Run },
      { plan: PlanKind.Run },
      { plan: PlanKind.EarlyResult },
    ],
  } as unknown as MutationTestingPlanReadyEvent);
  for (const status of ["Killed", "Ignored", "Survived"] as const) {
    progress.onMutantTested({ status } as MutantResult);
  }
  progress.onMutationTestReportReady();
  assert.match(progress.line(), /^mutate: 2 of 2 mutants run, 1 undetected, /);
});
