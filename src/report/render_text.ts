/**
 * The terminal report: decision first, then each finding with file:line,
 * readable in ten seconds.
 *
 * @module
 */
import type {
  EnvironmentRecord,
  SetupRecord,
  Verdict,
} from "../core/verdict.ts";
import type { FailureDetail, Finding } from "../core/finding.ts";
import { mutationSummary } from "./mutation_summary.ts";
import { failureKey } from "./failure_lines.ts";
import { testCounts } from "./test_counts.ts";
import { plural } from "../core/plural.ts";

/** Options for {@linkcode renderText}. */
export interface RenderTextOptions {
  /** Use ANSI colours. */
  color?: boolean;
}

/**
 * Render a verdict for people.
 *
 * @example
 * ```ts
 * import { renderText } from "./render_text.ts";
 * const text = renderText({
 *   pawl: { version: "0" }, decision: "accept", now: "2026-11-30T12:00:00Z", repo: ".",
 *   base: "b".repeat(40), head: "h".repeat(40), contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null,
 *   findings: [], tests: null,
 * });
 * if (!text.startsWith("ACCEPT")) throw new Error("unexpected");
 * ```
 */
export function renderText(
  verdict: Verdict,
  options: RenderTextOptions = {},
): string {
  const paint = options.color === true ? ansi : plain;
  const lines: string[] = [];
  const blocking = verdict.findings.filter((f) => f.blocking);
  const notes = verdict.findings.filter((f) => !f.blocking);
  const head = verdict.decision === "accept"
    ? paint("ACCEPT", "32")
    : paint("REJECT", "31");
  const why = verdict.decision === "accept"
    ? verdict.tests === null
      ? "the contract held in the static checks; no tests were run"
      : "the contract held and the tests passed"
    : plural(blocking.length, "blocking finding");
  lines.push(
    `${head}  ${verdict.base.slice(0, 12)}..${
      verdict.head.slice(0, 12)
    }  ${why}`,
  );
  const shown = new Set<string>();
  for (const f of blocking) {
    lines.push(`  ${paint("✗", "31")} ${where(f)}${f.message} [${f.rule}]`);
    lines.push(...failureLines(f, shown));
  }
  for (const f of notes) {
    lines.push(`  ${paint("•", "33")} ${where(f)}${f.message} [${f.rule}]`);
    lines.push(...failureLines(f, shown));
  }
  const t = verdict.tests;
  if (t === null) {
    lines.push(
      "  not checked: the tests, the registered properties and the frozen seeds did not run " +
        "(static checks only; nothing from the repository was executed; pawl check runs them)",
    );
  } else {
    const s = t.summary;
    lines.push(
      `  tests: ${testCounts(s)}`,
    );
    if (t.environment !== undefined) {
      lines.push(`  ran with: ${environmentLine(t.environment, t.setup)}`);
    }
    const props = t.properties;
    const ok = props.filter((p) => p.outcome === "passed").length;
    lines.push(`  properties: ${ok}/${props.length} passed`);
    if (t.mutation !== undefined) {
      lines.push(`  mutation: ${mutationSummary(t.mutation)}`);
    }
    for (const r of t.reruns) {
      lines.push(
        `  freeze "${r.freeze}": ${r.used}/${r.allowed} reruns used, ${
          r.passed ? "passed" : "still failing"
        }`,
      );
    }
  }
  for (const e of verdict.excuses ?? []) {
    lines.push(
      `  ${
        e.status === "active" ? "excused on this runner" : "excuse expired"
      }: ${JSON.stringify(e.test)} (owner ${
        JSON.stringify(e.owner)
      }, until ${e.expires})`,
    );
  }
  const iso = verdict.isolation;
  lines.push(
    `  clock ${verdict.now}; sandbox ${
      iso === null
        ? "not used (nothing ran)"
        : `${iso.tier} (network ${iso.network})`
    }; contract ${verdict.contract.digest.slice(0, 19)}`,
  );
  return lines.join("\n") + "\n";
}

/**
 * What a failed test showed, under its finding: every line the test
 * printed is quoted behind `|`, without control characters, so none of it
 * reads as pawl's own output; the command to reproduce it is pawl's.
 */
function failureLines(f: Finding, shown: Set<string>): string[] {
  const failure: FailureDetail | undefined = f.failure;
  if (failure === undefined) return [];
  // One failure often makes two findings (the property, and the test).
  const key = failureKey(failure);
  if (shown.has(key)) return ["      (what it showed is above)"];
  shown.add(key);
  const lines: string[] = [];
  const quote = (label: string, text: string | undefined) => {
    if (text === undefined || text === "") return;
    lines.push(`      ${label}:`);
    for (const line of text.split("\n")) lines.push(`      | ${quoted(line)}`);
  };
  quote("falsifying example", failure.example);
  quote("exception", failure.exception);
  quote("traceback (last lines)", failure.traceback?.join("\n"));
  lines.push(`      reproduce: ${quoted(failure.reproduce)}`);
  return lines;
}

/** A line of the repository's output, with nothing a terminal would act on. */
function quoted(line: string): string {
  // deno-lint-ignore no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd");
}

/** The interpreter, import path, variable names and setup key, briefly. */
function environmentLine(
  e: EnvironmentRecord,
  setup: SetupRecord | undefined,
): string {
  const parts = [e.command[0] ?? "(no command)"];
  if (e.pythonpath.length > 0) {
    parts.push(`PYTHONPATH ${e.pythonpath.join(":")}`);
  }
  if (e.env.length > 0) parts.push(`env ${e.env.join(", ")}`);
  if (setup !== undefined) parts.push(`setup ${setup.key.slice(0, 12)}`);
  return parts.join("; ");
}

function where(f: { path?: string; line?: number }): string {
  if (f.path === undefined) return "";
  return f.line === undefined ? `${f.path}: ` : `${f.path}:${f.line}: `;
}

function ansi(text: string, code: string): string {
  return `\x1b[1;${code}m${text}\x1b[0m`;
}

function plain(text: string): string {
  return text;
}
