import assert from "node:assert/strict";
import { parsePrometheusText } from "../../tests/_prometheus.ts";
import { VERSION } from "../version.ts";
import { emptyCounts } from "./_rows.ts";
import { escapeLabelValue, Metrics } from "./metrics.ts";
import { readProcessStats } from "./process_stats.ts";

Deno.test("Metrics shows every labelled counter at zero before its first event", () => {
  const families = parsePrometheusText(new Metrics().render());
  const series = (name: string) =>
    families.get(name)?.samples.map((s) =>
      `${Object.values(s.labels).join()}=${s.value}`
    );
  assert.deepEqual(series("pawl_serve_jobs_total"), [
    "accept=0",
    "reject=0",
    "undecided=0",
    "discarded=0",
    "retried=0",
  ]);
  assert.deepEqual(series("pawl_serve_webhook_rejections_total"), [
    "signature=0",
    "too_large=0",
    "invalid=0",
    "unavailable=0",
    "method=0",
  ]);
  assert.deepEqual(series("pawl_serve_webhook_deliveries_total"), [
    "queued=0",
    "duplicate=0",
    "requeued=0",
    "stale=0",
    "ignored=0",
  ]);
  assert.deepEqual(series("pawl_serve_publish_failures_total"), ["=0"]);
  // Without the queue's answer its gauges are NaN, never a false zero.
  assert.ok(
    families.get("pawl_serve_queue_depth")!.samples.every((s) =>
      Number.isNaN(s.value)
    ),
  );
});

Deno.test("Metrics.value() reads a counter, and zero for a series never counted", () => {
  const metrics = new Metrics();
  metrics.job("accept");
  metrics.job("accept");
  assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="accept"'), 2);
  assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="reject"'), 0);
  assert.equal(metrics.value("pawl_serve_jobs_total", 'outcome="other"'), 0);
  assert.equal(metrics.value("pawl_serve_unknown_total"), 0);
  assert.equal(metrics.value("pawl_serve_publish_failures_total"), 0);
});

Deno.test("Metrics renders Prometheus text with the build, the process, the queue and both histograms", async () => {
  const metrics = new Metrics();
  metrics.job("accept");
  metrics.delivery("queued");
  metrics.duration(3);
  metrics.published(42);
  metrics.published(4000);
  metrics.waited(7);
  const text = metrics.render({
    queue: {
      depth: { ...emptyCounts(), queued: 2, judged: 1 },
      oldestAgeSeconds: { queued: 90 },
    },
    process: await readProcessStats(),
  });
  const families = parsePrometheusText(text);
  assert.deepEqual(families.get("pawl_build_info")?.samples, [
    { name: "pawl_build_info", labels: { version: VERSION }, value: 1 },
  ]);
  for (
    const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "process_open_fds",
    ]
  ) {
    assert.ok((families.get(name)?.samples[0]?.value ?? 0) > 0, name);
  }
  assert.equal(families.get("process_cpu_seconds_total")?.type, "counter");
  const gauge = (name: string, state: string) =>
    families.get(name)?.samples.find((s) => s.labels["state"] === state)
      ?.value;
  assert.equal(gauge("pawl_serve_queue_depth", "queued"), 2);
  assert.equal(gauge("pawl_serve_queue_depth", "judged"), 1);
  assert.equal(gauge("pawl_serve_queue_oldest_age_seconds", "queued"), 90);
  assert.equal(gauge("pawl_serve_queue_oldest_age_seconds", "judged"), 0);
  const publication = families.get(
    "pawl_serve_delivery_to_publication_seconds",
  );
  assert.equal(publication?.type, "histogram");
  const bucket = (le: string) =>
    publication?.samples.find((s) => s.labels["le"] === le)?.value;
  assert.equal(bucket("30"), 0);
  assert.equal(bucket("60"), 1);
  assert.equal(bucket("7200"), 2);
  assert.equal(bucket("+Inf"), 2);
  assert.match(text, /^pawl_serve_delivery_to_publication_seconds_sum 4042$/m);
  assert.match(text, /^pawl_serve_jobs_total\{outcome="accept"\} 1$/m);
  assert.equal(
    families.get("pawl_serve_queue_wait_seconds")?.type,
    "histogram",
  );
  assert.match(text, /^pawl_serve_queue_wait_seconds_bucket\{le="10"\} 1$/m);
});

Deno.test("the Prometheus text reader of the tests refuses what Prometheus refuses", async (t) => {
  const cases: [string, string][] = [
    ["a TYPE after its family's samples", "x 1\n# TYPE x gauge\n"],
    ["a bad metric name", "# TYPE 1x gauge\n1x 1\n"],
    ["an unquoted label value", "# TYPE x gauge\nx{a=b} 1\n"],
    ["a bad value", "# TYPE x gauge\nx one\n"],
    ["the same series twice", '# TYPE x gauge\nx{a="1"} 1\nx{a="1"} 2\n'],
    ["no final newline", "# TYPE x gauge\nx 1"],
    [
      "a histogram without +Inf",
      '# TYPE h histogram\nh_bucket{le="1"} 0\nh_sum 0\nh_count 0\n',
    ],
    [
      "buckets that fall",
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="2"} 1\nh_bucket{le="+Inf"} 2\nh_sum 0\nh_count 2\n',
    ],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => {
      assert.throws(() => parsePrometheusText(text));
    });
  }
  await t.step("while it reads a well-formed text", () => {
    const families = parsePrometheusText(
      '# HELP x An x.\n# TYPE x gauge\nx{a="q\\"uote",b="2",} 1.5e3\n\n',
    );
    assert.deepEqual(families.get("x")?.samples[0]?.labels, {
      a: 'q\\"uote',
      b: "2",
    });
  });
});

Deno.test("Metrics counts a value equal to a bucket's bound in that bucket, as Prometheus's le means", () => {
  const metrics = new Metrics();
  metrics.published(60);
  const families = parsePrometheusText(
    metrics.render({ queue: undefined, process: undefined }),
  );
  const bucket = (le: string) =>
    families.get("pawl_serve_delivery_to_publication_seconds")?.samples.find((
      s,
    ) => s.labels["le"] === le)?.value;
  assert.equal(bucket("30"), 0);
  assert.equal(bucket("60"), 1);
  assert.equal(bucket("+Inf"), 1);
});

Deno.test("Metrics counts a value above every bound only in the +Inf bucket, the sum and the count", () => {
  const metrics = new Metrics();
  metrics.duration(601);
  metrics.duration(2);
  const families = parsePrometheusText(metrics.render());
  const sample = (name: string, le?: string) =>
    families.get("pawl_serve_judgement_duration_seconds")?.samples.find((s) =>
      s.name === name && s.labels["le"] === le
    )?.value;
  const bucket = "pawl_serve_judgement_duration_seconds_bucket";
  assert.equal(sample(bucket, "2.5"), 1);
  assert.equal(sample(bucket, "600"), 1);
  assert.equal(sample(bucket, "+Inf"), 2);
  assert.equal(sample("pawl_serve_judgement_duration_seconds_sum"), 603);
  assert.equal(sample("pawl_serve_judgement_duration_seconds_count"), 2);
});

Deno.test("Metrics shows the queue's oldest ages as NaN without its answer, and never below zero", () => {
  const without = parsePrometheusText(new Metrics().render());
  const ages = without.get("pawl_serve_queue_oldest_age_seconds")!.samples;
  assert.equal(ages.length, 3);
  assert.ok(ages.every((s) => Number.isNaN(s.value)));
  // A job queued by a replica whose clock runs ahead.
  const ahead = parsePrometheusText(
    new Metrics().render({
      queue: { depth: emptyCounts(), oldestAgeSeconds: { queued: -5 } },
    }),
  );
  assert.equal(
    ahead.get("pawl_serve_queue_oldest_age_seconds")?.samples.find((s) =>
      s.labels["state"] === "queued"
    )?.value,
    0,
  );
});

Deno.test("Metrics leaves out a process figure it does not have", () => {
  const text = new Metrics().render({
    process: {
      cpuSeconds: 1,
      residentBytes: 2,
      startTimeSeconds: 3,
      openFds: 4,
    },
  });
  const families = parsePrometheusText(text);
  assert.equal(families.get("process_open_fds")?.samples[0]?.value, 4);
  assert.equal(families.has("process_max_fds"), false);
  assert.doesNotMatch(text, /undefined/);
});

Deno.test("Metrics shows each histogram with its own bucket bounds", () => {
  const families = parsePrometheusText(new Metrics().render());
  const bounds = (name: string) =>
    families.get(name)?.samples.filter((s) => s.name === `${name}_bucket`)
      .map((s) => s.labels["le"]);
  const publication = [
    "1",
    "2.5",
    "5",
    "10",
    "30",
    "60",
    "120",
    "300",
    "600",
    "1800",
    "3600",
    "7200",
    "+Inf",
  ];
  assert.deepEqual(bounds("pawl_serve_judgement_duration_seconds"), [
    "0.5",
    "1",
    "2.5",
    "5",
    "10",
    "30",
    "60",
    "120",
    "300",
    "600",
    "+Inf",
  ]);
  assert.deepEqual(bounds("pawl_serve_queue_wait_seconds"), publication);
  assert.deepEqual(
    bounds("pawl_serve_delivery_to_publication_seconds"),
    publication,
  );
});

Deno.test("Metrics counts a failed publishing attempt in its own series, without labels", () => {
  const metrics = new Metrics();
  metrics.publishFailure();
  metrics.publishFailure();
  assert.equal(metrics.value("pawl_serve_publish_failures_total"), 2);
  const text = metrics.render();
  assert.match(text, /^pawl_serve_publish_failures_total 2$/m);
  const jobs = parsePrometheusText(text).get("pawl_serve_jobs_total");
  assert.ok(jobs?.samples.every((s) => s.value === 0));
});

Deno.test("Metrics shows every family docs/serve.md lists, each with its help, and the label values the docs name", async () => {
  const docs = await Deno.readTextFile(
    new URL("../../docs/serve.md", import.meta.url),
  );
  const section = docs.slice(
    docs.indexOf("- `GET /metrics`"),
    docs.indexOf("Example alert rules"),
  );
  const listed = [
    ...section.matchAll(
      /`([a-z_]+)(?:\{([a-z]+)\})?`(?:\s*\(([a-z_,\s]+)[):])?/g,
    ),
  ].map(([, name, label, values]) => ({
    name: name!,
    label,
    values: label === undefined || values === undefined
      ? undefined
      : values.split(",").map((v) => v.trim()).sort(),
  }));
  assert.equal(listed.length, 15, JSON.stringify(listed));
  const metrics = new Metrics();
  const families = parsePrometheusText(metrics.render({
    queue: { depth: emptyCounts(), oldestAgeSeconds: {} },
    process: await readProcessStats(),
  }));
  assert.deepEqual(
    [...families.keys()].sort(),
    listed.map((l) => l.name).sort(),
    "every family shown is documented, and every documented one shown",
  );
  for (const { name, label, values } of listed) {
    const family = families.get(name)!;
    assert.notEqual(family.help.trim(), "", `${name} says what it counts`);
    if (label === undefined) continue;
    const shown = family.samples.map((s) => s.labels[label]);
    assert.ok(shown.every((v) => v !== undefined && v !== ""), name);
    if (values !== undefined) assert.deepEqual(shown.sort(), values, name);
  }
});

Deno.test("escapeLabelValue() escapes a backslash, a double quote and a newline, and nothing else", () => {
  assert.equal(escapeLabelValue("0.1.0"), "0.1.0");
  assert.equal(
    escapeLabelValue('a\\b"c\nd\te'),
    'a\\\\b\\"c\\nd\te',
  );
  // The strict reader takes the escaped value as one label, whole.
  const escaped = escapeLabelValue('q"\\\n');
  const families = parsePrometheusText(
    `# HELP x x\n# TYPE x gauge\nx{v="${escaped}"} 1\n`,
  );
  assert.equal(families.get("x")?.samples[0]?.labels["v"], escaped);
});
