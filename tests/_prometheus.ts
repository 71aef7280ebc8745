/**
 * A strict reader of the Prometheus text exposition format (0.0.4) for the
 * tests: it throws on any line Prometheus would refuse, and on a family
 * whose samples disagree with its `# TYPE` (a histogram's buckets must be
 * cumulative and end in `+Inf` equal to `_count`).
 *
 * @module
 */

/** One sample. */
export interface Sample {
  /** The sample's own name (`x_bucket` for a histogram's bucket). */
  name: string;
  /** Its labels. */
  labels: Record<string, string>;
  /** Its value. */
  value: number;
}

/** One metric family. */
export interface Family {
  /** `counter`, `gauge`, `histogram`, `summary` or `untyped`. */
  type: string;
  /** Its `# HELP` text. */
  help: string;
  /** Its samples, in order. */
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"\s*(,|$)/y;
const TYPES = ["counter", "gauge", "histogram", "summary", "untyped"];
const SUFFIXES: Record<string, string[]> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["", "_sum", "_count"],
};

/** Parse `text`; throws an Error naming the line on anything malformed. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: string | undefined;
  const fail = (n: number, why: string): never => {
    throw new Error(`Line ${n + 1} is not Prometheus text format: ${why}`);
  };
  if (!text.endsWith("\n")) {
    fail(text.split("\n").length - 1, "no final newline");
  }
  text.slice(0, -1).split("\n").forEach((line, n) => {
    if (line.trim() === "") return;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta !== null) {
      const [, kind, name, rest] = meta as unknown as string[];
      if (!NAME.test(name!)) fail(n, `bad metric name "${name}"`);
      const family = families.get(name!) ??
        { type: "untyped", help: "", samples: [] };
      if (family.samples.length > 0) {
        fail(n, `${kind} after samples of "${name}"`);
      }
      if (kind === "TYPE") {
        if (!TYPES.includes(rest!)) fail(n, `unknown type "${rest}"`);
        family.type = rest!;
      } else family.help = rest!;
      families.set(name!, family);
      current = name;
      return;
    }
    if (line.startsWith("#")) return;
    const match = SAMPLE.exec(line) ?? fail(n, `unreadable sample "${line}"`);
    const [, name, labelText, valueText] = match as unknown as string[];
    const value = valueText === "+Inf"
      ? Infinity
      : valueText === "-Inf"
      ? -Infinity
      : valueText === "NaN"
      ? NaN
      : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(valueText!)
      ? Number(valueText)
      : fail(n, `bad value "${valueText}"`);
    const labels: Record<string, string> = {};
    if (labelText !== undefined && labelText !== "") {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < labelText.length) {
        const label = LABEL.exec(labelText) ??
          fail(n, `bad labels "${labelText}"`);
        if (label[1]! in labels) fail(n, `label "${label[1]}" twice`);
        labels[label[1]!] = label[2]!;
        if (label[3] === "") break;
      }
    }
    const family = current === undefined ? undefined : families.get(current);
    const suffixes = SUFFIXES[family?.type ?? ""] ?? [""];
    if (
      family === undefined ||
      !suffixes.some((suffix) => name === `${current}${suffix}`)
    ) {
      fail(n, `sample "${name}" outside its family's # TYPE block`);
    }
    const key = `${name}{${JSON.stringify(Object.entries(labels).sort())}}`;
    if (seen.has(key)) fail(n, `series "${line}" twice`);
    seen.add(key);
    family!.samples.push({ name: name!, labels, value: value as number });
  });
  for (const [name, family] of families) {
    if (family.type === "histogram") checkHistogram(name, family);
  }
  return families;
}

function checkHistogram(name: string, family: Family): void {
  const buckets = family.samples.filter((s) => s.name === `${name}_bucket`);
  const count = family.samples.find((s) => s.name === `${name}_count`);
  const last = buckets.at(-1);
  if (
    count === undefined ||
    family.samples.find((s) => s.name === `${name}_sum`) === undefined ||
    last?.labels["le"] !== "+Inf" || last.value !== count.value
  ) {
    throw new Error(
      `Histogram "${name}" lacks _sum, _count or a +Inf bucket equal to _count`,
    );
  }
  buckets.forEach((bucket, i) => {
    const previous = buckets[i - 1];
    if (
      previous !== undefined &&
      (bucket.value < previous.value || le(bucket) <= le(previous))
    ) {
      throw new Error(`Histogram "${name}" buckets are not cumulative`);
    }
  });
}

function le(sample: Sample): number {
  const bound = sample.labels["le"];
  return bound === "+Inf" ? Infinity : Number(bound);
}
