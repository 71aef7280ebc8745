/**
 * The server's counters and the judgement-duration histogram, rendered in
 * the Prometheus text exposition format.
 *
 * @module
 */
import { JOB_STATES, type JobState } from "./job.ts";

/** Histogram bucket bounds, seconds. */
export const DURATION_BUCKETS: readonly number[] = [
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  120,
  300,
  600,
];

/** Counters and a histogram, in memory (per process). */
export class Metrics {
  #counters = new Map<string, Map<string, number>>();
  #buckets = DURATION_BUCKETS.map(() => 0);
  #sum = 0;
  #count = 0;

  /** Count one webhook delivery that was accepted (`result` as answered). */
  delivery(result: string): void {
    this.#add("pawl_serve_webhook_deliveries_total", `result="${result}"`);
  }

  /** Count one refused delivery. */
  rejection(
    reason: "signature" | "too_large" | "invalid" | "unavailable" | "method",
  ): void {
    this.#add("pawl_serve_webhook_rejections_total", `reason="${reason}"`);
  }

  /** Count one finished job. */
  job(
    outcome: "accept" | "reject" | "undecided" | "discarded" | "retried",
  ): void {
    this.#add("pawl_serve_jobs_total", `outcome="${outcome}"`);
  }

  /** Count a publishing attempt that failed. */
  publishFailure(): void {
    this.#add("pawl_serve_publish_failures_total", "");
  }

  /** Record one judgement's duration. */
  duration(seconds: number): void {
    this.#sum += seconds;
    this.#count++;
    DURATION_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) this.#buckets[i]!++;
    });
  }

  /** A counter's value (tests). */
  value(name: string, labels = ""): number {
    return this.#counters.get(name)?.get(labels) ?? 0;
  }

  /** The exposition text, with the queue depth by state. */
  render(depth: Record<JobState, number> | undefined): string {
    const lines: string[] = [];
    const help: Record<string, [string, string]> = {
      "pawl_serve_webhook_deliveries_total": [
        "counter",
        "Webhook deliveries accepted, by result.",
      ],
      "pawl_serve_webhook_rejections_total": [
        "counter",
        "Webhook deliveries refused, by reason.",
      ],
      "pawl_serve_jobs_total": [
        "counter",
        "Jobs finished by this process, by outcome.",
      ],
      "pawl_serve_publish_failures_total": [
        "counter",
        "Publishing attempts that failed.",
      ],
    };
    for (const [name, [type, text]] of Object.entries(help)) {
      lines.push(`# HELP ${name} ${text}`, `# TYPE ${name} ${type}`);
      const series = this.#counters.get(name) ?? new Map([["", 0]]);
      for (const [labels, value] of series) {
        lines.push(`${name}${labels === "" ? "" : `{${labels}}`} ${value}`);
      }
    }
    lines.push(
      "# HELP pawl_serve_queue_depth Jobs in the queue, by state.",
      "# TYPE pawl_serve_queue_depth gauge",
    );
    for (const state of JOB_STATES) {
      lines.push(
        `pawl_serve_queue_depth{state="${state}"} ${depth?.[state] ?? "NaN"}`,
      );
    }
    const h = "pawl_serve_judgement_duration_seconds";
    lines.push(
      `# HELP ${h} Time to judge one pull request.`,
      `# TYPE ${h} histogram`,
    );
    DURATION_BUCKETS.forEach((bound, i) => {
      lines.push(`${h}_bucket{le="${bound}"} ${this.#buckets[i]}`);
    });
    lines.push(
      `${h}_bucket{le="+Inf"} ${this.#count}`,
      `${h}_sum ${this.#sum}`,
      `${h}_count ${this.#count}`,
    );
    return lines.join("\n") + "\n";
  }

  #add(name: string, labels: string): void {
    const series = this.#counters.get(name) ?? new Map<string, number>();
    series.set(labels, (series.get(labels) ?? 0) + 1);
    this.#counters.set(name, series);
  }
}
