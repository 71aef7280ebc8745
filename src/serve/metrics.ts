/**
 * The server's metrics in the Prometheus text exposition format: counters
 * (every known label value present from the start, at zero), histograms,
 * the build, the process's own figures and gauges read from the queue at
 * each scrape.
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { JOB_STATES, type JobState } from "./job.ts";
import type { ProcessStats } from "./process_stats.ts";

/** Judgement-duration bucket bounds, seconds. */
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

/** Delivery-to-publication bucket bounds, seconds (an outage delays to hours). */
export const PUBLICATION_BUCKETS: readonly number[] = [
  1,
  2.5,
  5,
  10,
  30,
  60,
  120,
  300,
  600,
  1800,
  3600,
  7200,
];

/** What a delivery the server accepted came to. */
export type DeliveryResult =
  | "queued"
  | "duplicate"
  | "requeued"
  | "stale"
  | "ignored";

/** Why a delivery was refused. */
export type RejectionReason =
  | "signature"
  | "too_large"
  | "invalid"
  | "unavailable"
  | "method";

/** How a job ended in this process. */
export type JobOutcome =
  | "accept"
  | "reject"
  | "undecided"
  | "discarded"
  | "retried";

/** Every label value of each labelled counter, shown from the start. */
const COUNTERS: Record<string, { help: string; label?: [string, string[]] }> = {
  "pawl_serve_webhook_deliveries_total": {
    help: "Webhook deliveries accepted, by result.",
    label: ["result", ["queued", "duplicate", "requeued", "stale", "ignored"]],
  },
  "pawl_serve_webhook_rejections_total": {
    help: "Webhook deliveries refused, by reason.",
    label: ["reason", [
      "signature",
      "too_large",
      "invalid",
      "unavailable",
      "method",
    ]],
  },
  "pawl_serve_jobs_total": {
    help: "Jobs finished by this process, by outcome.",
    label: ["outcome", [
      "accept",
      "reject",
      "undecided",
      "discarded",
      "retried",
    ]],
  },
  "pawl_serve_publish_failures_total": {
    help: "Publishing attempts that failed.",
  },
};

/** The queue's figures at a scrape (absent: the queue did not answer). */
export interface QueueSnapshot {
  /** Jobs in each state. */
  depth: Record<JobState, number>;
  /** Per unfinished state, seconds since its oldest job was queued. */
  oldestAgeSeconds: Partial<Record<JobState, number>>;
}

/** What {@linkcode Metrics.render} shows beside the counters. */
export interface RenderOptions {
  /** The queue's figures, or undefined when it did not answer. */
  queue?: QueueSnapshot | undefined;
  /** The process's figures, or undefined without `/proc`. */
  process?: ProcessStats | undefined;
}

/** The states of a job still owed a publication. */
export const UNFINISHED_STATES: readonly JobState[] = [
  "queued",
  "running",
  "judged",
];

/** Counters and histograms, in memory (per process). */
export class Metrics {
  #counters = new Map<string, Map<string, number>>();
  #duration = new Histogram(DURATION_BUCKETS);
  #publication = new Histogram(PUBLICATION_BUCKETS);
  #wait = new Histogram(PUBLICATION_BUCKETS);

  /** Every counter at zero. */
  constructor() {
    for (const [name, { label }] of Object.entries(COUNTERS)) {
      const series = new Map<string, number>();
      if (label === undefined) series.set("", 0);
      else {for (const value of label[1]) {
          series.set(`${label[0]}="${value}"`, 0);
        }}
      this.#counters.set(name, series);
    }
  }

  /** Count one webhook delivery that was accepted (`result` as answered). */
  delivery(result: DeliveryResult): void {
    this.#add("pawl_serve_webhook_deliveries_total", `result="${result}"`);
  }

  /** Count one refused delivery. */
  rejection(reason: RejectionReason): void {
    this.#add("pawl_serve_webhook_rejections_total", `reason="${reason}"`);
  }

  /** Count one finished job. */
  job(outcome: JobOutcome): void {
    this.#add("pawl_serve_jobs_total", `outcome="${outcome}"`);
  }

  /** Count a publishing attempt that failed. */
  publishFailure(): void {
    this.#add("pawl_serve_publish_failures_total", "");
  }

  /** Record one judgement's duration. */
  duration(seconds: number): void {
    this.#duration.observe(seconds);
  }

  /** Record how long a job waited in the queue before its first judgement. */
  waited(seconds: number): void {
    this.#wait.observe(seconds);
  }

  /** Record the time from a job's delivery to its publication. */
  published(seconds: number): void {
    this.#publication.observe(seconds);
  }

  /** A counter's value (tests). */
  value(name: string, labels = ""): number {
    return this.#counters.get(name)?.get(labels) ?? 0;
  }

  /** The exposition text. */
  render(options: RenderOptions = {}): string {
    const lines: string[] = [];
    const family = (name: string, type: string, help: string) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family("pawl_build_info", "gauge", "The running pawl, by version.");
    lines.push(`pawl_build_info{version="${escapeLabelValue(VERSION)}"} 1`);
    for (const [name, { help }] of Object.entries(COUNTERS)) {
      family(name, "counter", help);
      for (const [labels, value] of this.#counters.get(name)!) {
        lines.push(`${name}${labels === "" ? "" : `{${labels}}`} ${value}`);
      }
    }
    const { queue, process } = options;
    family("pawl_serve_queue_depth", "gauge", "Jobs in the queue, by state.");
    for (const state of JOB_STATES) {
      lines.push(
        `pawl_serve_queue_depth{state="${state}"} ${
          queue?.depth[state] ?? "NaN"
        }`,
      );
    }
    family(
      "pawl_serve_queue_oldest_age_seconds",
      "gauge",
      "Seconds since the oldest job in each unfinished state was queued (0: none).",
    );
    for (const state of UNFINISHED_STATES) {
      const age = queue === undefined
        ? "NaN"
        : Math.max(queue.oldestAgeSeconds[state] ?? 0, 0);
      lines.push(
        `pawl_serve_queue_oldest_age_seconds{state="${state}"} ${age}`,
      );
    }
    this.#duration.render(
      "pawl_serve_judgement_duration_seconds",
      "Time to judge one pull request.",
      family,
      lines,
    );
    this.#wait.render(
      "pawl_serve_queue_wait_seconds",
      "Time a job waited from its delivery to its first judgement.",
      family,
      lines,
    );
    this.#publication.render(
      "pawl_serve_delivery_to_publication_seconds",
      "Time from a job's delivery to its publication, retries and outages included.",
      family,
      lines,
    );
    if (process !== undefined) renderProcess(process, family, lines);
    return lines.join("\n") + "\n";
  }

  #add(name: string, labels: string): void {
    const series = this.#counters.get(name) ?? new Map<string, number>();
    series.set(labels, (series.get(labels) ?? 0) + 1);
    this.#counters.set(name, series);
  }
}

type Family = (name: string, type: string, help: string) => void;

class Histogram {
  #bounds: readonly number[];
  #buckets: number[];
  #sum = 0;
  #count = 0;

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.#buckets = bounds.map(() => 0);
  }

  observe(value: number): void {
    this.#sum += value;
    this.#count++;
    this.#bounds.forEach((bound, i) => {
      if (value <= bound) this.#buckets[i]!++;
    });
  }

  render(name: string, help: string, family: Family, lines: string[]): void {
    family(name, "histogram", help);
    this.#bounds.forEach((bound, i) => {
      lines.push(`${name}_bucket{le="${bound}"} ${this.#buckets[i]}`);
    });
    lines.push(
      `${name}_bucket{le="+Inf"} ${this.#count}`,
      `${name}_sum ${this.#sum}`,
      `${name}_count ${this.#count}`,
    );
  }
}

function renderProcess(
  process: ProcessStats,
  family: Family,
  lines: string[],
): void {
  const gauges: [string, string, string, number | undefined][] = [
    [
      "process_cpu_seconds_total",
      "counter",
      "User and system CPU time spent, seconds.",
      process.cpuSeconds,
    ],
    [
      "process_resident_memory_bytes",
      "gauge",
      "Resident memory size, bytes.",
      process.residentBytes,
    ],
    [
      "process_start_time_seconds",
      "gauge",
      "Start time of the process since the epoch, seconds.",
      process.startTimeSeconds,
    ],
    [
      "process_open_fds",
      "gauge",
      "Open file descriptors.",
      process.openFds,
    ],
    [
      "process_max_fds",
      "gauge",
      "The open file descriptor limit.",
      process.maxFds,
    ],
  ];
  for (const [name, type, help, value] of gauges) {
    if (value === undefined) continue;
    family(name, type, help);
    lines.push(`${name} ${value}`);
  }
}

/** A label value as the exposition format writes it: `\`, `"` and a newline escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(
    /\n/g,
    "\\n",
  );
}
