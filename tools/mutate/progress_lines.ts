// A Stryker reporter for CI logs: one plain line every 20 seconds while the
// mutants run (how many have run, how many no test detected, the time so
// far), and nothing else. On a terminal, Stryker's own progress bar is used.

import { declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";
import { type MutantResult, PlanKind } from "@stryker-mutator/api/core";
import type {
  MutationTestingPlanReadyEvent,
  Reporter,
} from "@stryker-mutator/api/report";

const INTERVAL_MS = 20_000;

/** The line a CI log shows: "mutate: 120 of 940 mutants run, 12 undetected, 1m 05s". */
export function progressLine(
  run: number,
  total: number,
  undetected: number,
  seconds: number,
): string {
  const minutes = Math.floor(seconds / 60);
  const time = minutes > 0
    ? `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, "0")}s`
    : `${Math.floor(seconds)}s`;
  return `mutate: ${run} of ${total} mutants run, ${undetected} undetected, ${time}`;
}

export class ProgressLines implements Reporter {
  #total = 0;
  #run = 0;
  #undetected = 0;
  #start = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  onMutationTestingPlanReady(event: MutationTestingPlanReadyEvent): void {
    this.#total =
      event.mutantPlans.filter((plan) => plan.plan === PlanKind.Run).length;
    this.#start = performance.now();
    if (this.#total > 0) {
      this.#timer = setInterval(() => this.#print(), INTERVAL_MS);
    }
  }

  onMutantTested(result: Readonly<MutantResult>): void {
    // A mutant left out with a reason is reported too, but was never run.
    if (result.status === "Ignored") return;
    this.#run++;
    if (result.status === "Survived" || result.status === "NoCoverage") {
      this.#undetected++;
    }
  }

  onMutationTestReportReady(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The line as it stands now. */
  line(): string {
    return progressLine(
      this.#run,
      this.#total,
      this.#undetected,
      (performance.now() - this.#start) / 1000,
    );
  }

  #print(): void {
    Deno.stdout.writeSync(new TextEncoder().encode(`${this.line()}\n`));
  }
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.Reporter, "pawl-progress-lines", ProgressLines),
];
