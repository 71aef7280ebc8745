/**
 * The example alert rules in deploy/prometheus/ are a Prometheus rule file
 * whose every expression names series `pawl serve` exports, with label
 * values it exports.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { z } from "zod";
import { emptyCounts } from "../src/serve/_rows.ts";
import { Metrics } from "../src/serve/metrics.ts";
import { readProcessStats } from "../src/serve/process_stats.ts";
import { parsePrometheusText, type Sample } from "./_prometheus.ts";

const RULES = new URL("../deploy/prometheus/pawl-alerts.yaml", import.meta.url);

const duration = z.string().regex(/^\d+[smhd]$/);
const ruleFile = z.strictObject({
  groups: z.array(z.strictObject({
    name: z.string().min(1),
    interval: duration.optional(),
    rules: z.array(z.strictObject({
      alert: z.string().regex(/^[A-Z][A-Za-z0-9]+$/),
      expr: z.string().min(1),
      for: duration.optional(),
      labels: z.strictObject({ severity: z.enum(["warning", "critical"]) }),
      annotations: z.strictObject({
        summary: z.string().min(1),
        description: z.string().min(1),
        "runbook_url": z.string().url().optional(),
      }),
    })).min(1),
  })).min(1),
});

/** Every series pawl exports, each sample name with its samples. */
async function exported(): Promise<Map<string, Sample[]>> {
  const text = new Metrics().render({
    queue: { depth: emptyCounts(), oldestAgeSeconds: {} },
    process: await readProcessStats(),
  });
  const byName = new Map<string, Sample[]>();
  for (const family of parsePrometheusText(text).values()) {
    for (const sample of family.samples) {
      byName.set(sample.name, [...byName.get(sample.name) ?? [], sample]);
    }
  }
  return byName;
}

/** The metric names an expression reads, with their label matchers. */
function selectors(expr: string): { name: string; matchers: string }[] {
  const found: { name: string; matchers: string }[] = [];
  const selector = /\b((?:pawl|process)_[a-z0-9_]+)\s*(?:\{([^}]*)\})?/g;
  for (const match of expr.matchAll(selector)) {
    found.push({ name: match[1]!, matchers: match[2] ?? "" });
  }
  return found;
}

/** What is wrong with the rule file `text`, given the series pawl exports. */
function problems(text: string, series: Map<string, Sample[]>): string[] {
  const found: string[] = [];
  const file = ruleFile.safeParse(parse(text));
  if (!file.success) return [`not a rule file: ${file.error.message}`];
  const names = new Set<string>();
  for (const rule of file.data.groups.flatMap((g) => g.rules)) {
    if (names.has(rule.alert)) found.push(`${rule.alert} twice`);
    names.add(rule.alert);
    const count = (c: string) => [...rule.expr].filter((x) => x === c).length;
    if (count("(") !== count(")")) {
      found.push(`${rule.alert}: unbalanced parentheses`);
    }
    const used = selectors(rule.expr);
    if (used.length === 0) found.push(`${rule.alert} names no pawl metric`);
    for (const { name, matchers } of used) {
      const samples = series.get(name);
      if (samples === undefined) {
        found.push(`${rule.alert}: pawl exports no "${name}"`);
        continue;
      }
      for (const matcher of matchers.split(",").filter((m) => m.trim())) {
        const [, label, op, value] =
          /^\s*([a-z_]+)\s*(=~|!~|!=|=)\s*"([^"]*)"\s*$/.exec(matcher) ?? [];
        if (label === undefined || value === undefined) {
          found.push(`${rule.alert}: unreadable matcher "${matcher}"`);
          continue;
        }
        const values = samples.flatMap((s) =>
          s.labels[label] === undefined ? [] : [s.labels[label]]
        );
        const regex = op === "=~" || op === "!~";
        const hits = values.filter((v) =>
          regex ? new RegExp(`^(?:${value})$`).test(v) : v === value
        );
        // Every alternative of a regular expression is a value pawl exports.
        const wanted = regex ? value.split("|").length : 1;
        if (hits.length !== wanted) {
          found.push(
            `${rule.alert}: ${name}{${label}${op}"${value}"} matches ${hits.length} exported series`,
          );
        }
      }
    }
  }
  return found;
}

Deno.test("the example alert rules are a Prometheus rule file naming only series pawl exports", async () => {
  const text = await Deno.readTextFile(RULES);
  assert.deepEqual(problems(text, await exported()), []);
});

Deno.test("the alert rule check refuses rules pawl's metrics cannot satisfy", async (t) => {
  const series = await exported();
  const rule = (expr: string, extra = "") =>
    `groups:\n  - name: g\n    rules:\n      - alert: Alert\n        expr: '${expr}'\n        labels: {severity: warning}\n        annotations: {summary: s, description: d}\n${extra}`;
  const cases: [string, string, RegExp][] = [
    [
      "a misspelt metric",
      rule("rate(pawl_serve_jobs_totl[5m]) > 0"),
      /exports no "pawl_serve_jobs_totl"/,
    ],
    [
      "a label value pawl never sets",
      rule('pawl_serve_jobs_total{outcome="maybe"} > 0'),
      /matches 0/,
    ],
    [
      "a label pawl does not use",
      rule('pawl_serve_queue_depth{queue="x"} > 0'),
      /matches 0/,
    ],
    ["no pawl metric at all", rule("up == 0"), /names no pawl metric/],
    [
      "unbalanced parentheses",
      rule("sum(pawl_serve_queue_depth > 0"),
      /unbalanced/,
    ],
    [
      "an unknown key",
      rule("pawl_build_info", "        severity: critical\n"),
      /not a rule file/,
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      assert.match(problems(text, series).join("\n"), expected);
    });
  }
});
