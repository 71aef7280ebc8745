/**
 * The Markdown report: the sticky PR comment body and the job summary.
 *
 * Decision first, then the findings table, then what the run observed, so a
 * reviewer knows in ten seconds whether the pull request may merge and why.
 * Everything that comes from the repository (messages, paths, test and
 * property names) is escaped: it cannot break the table, inject HTML,
 * forge the comment marker or mention anyone.
 *
 * @module
 */
import { markdownInline, withoutControls } from "./markdown_text.ts";
import type { FailureDetail, Finding } from "../core/finding.ts";
import type { Verdict } from "../core/verdict.ts";
import { mutationSummary } from "./mutation_summary.ts";
import { layoutName } from "../core/layout_name.ts";
import { markdownFailure } from "./markdown_failure.ts";
import { failureKey } from "./failure_lines.ts";
import { testCounts } from "./test_counts.ts";
import { plural } from "../core/plural.ts";

/** The hidden first line the GitHub publisher finds its sticky comment by. */
export const MARKDOWN_MARKER = "<!-- pawl:verdict -->";

/** Findings listed in the table before the "and N more" row. */
export const DEFAULT_MAX_ROWS = 50;

/**
 * The longest body pawl renders, in UTF-8 bytes: GitHub refuses a comment
 * longer than 65,536 characters, and no character takes fewer bytes than
 * it counts for.
 */
export const MAX_MARKDOWN_BYTES = 65_536;

/** The public key file `pawl keygen --out pawl.key` writes beside the private key. */
export const PUBLIC_KEY_FILE = "pawl.key.pub";

/** Registered properties named one by one before "and N more". */
const MAX_LISTED = 20;

/** Options for {@linkcode renderMarkdown}. */
export interface RenderMarkdownOptions {
  /** The signing key's fingerprint, when the verdict was signed. */
  keyid?: string;
  /** Findings listed before an "and N more" row (default {@linkcode DEFAULT_MAX_ROWS}). */
  maxRows?: number;
  /**
   * The longest body, in UTF-8 bytes (default {@linkcode MAX_MARKDOWN_BYTES}):
   * findings that do not fit are left out whole and counted in the
   * "and N more" row; a message is never cut.
   */
  maxBytes?: number;
}

/**
 * Render a verdict as Markdown: {@linkcode MARKDOWN_MARKER} on the first
 * line, then the decision with `base..head` and the clock, the findings
 * table, tests, properties, reruns, seeds, the sandbox tier and, when a
 * `keyid` is given, how to verify the signature. Pure: the same verdict and
 * options give the same bytes.
 *
 * @example
 * ```ts
 * import { MARKDOWN_MARKER, renderMarkdown } from "./render_markdown.ts";
 * import { buildVerdict } from "../core/verdict.ts";
 * const verdict = buildVerdict([], {
 *   pawl: { version: "0.1.0" }, now: "2026-11-30T12:00:00Z", repo: ".", base: "b".repeat(40), head: "h".repeat(40),
 *   contract: { layouts: [], files: [], digest: "", freezeBodyHashes: [] },
 *   options: { allowFixtureRotate: false, isolation: "auto" }, isolation: null, tests: null,
 * });
 * const [marker, , title] = renderMarkdown(verdict).split("\n");
 * if (marker !== MARKDOWN_MARKER || title !== "## ✅ pawl: accept") throw new Error("unexpected");
 * ```
 */
export function renderMarkdown(
  verdict: Verdict,
  options: RenderMarkdownOptions = {},
): string {
  const maxRows = Math.max(0, options.maxRows ?? DEFAULT_MAX_ROWS);
  const maxBytes = options.maxBytes ?? MAX_MARKDOWN_BYTES;
  const blocking = verdict.findings.filter((f) => f.blocking).length;
  const notes = verdict.findings.length - blocking;
  const accept = verdict.decision === "accept";
  const top: string[] = [MARKDOWN_MARKER, ""];
  top.push(accept ? "## ✅ pawl: accept" : "## ❌ pawl: reject", "");
  const why = accept
    ? verdict.tests === null
      ? "the contract held in the static checks; no tests were run"
      : "the contract held and the tests passed"
    : plural(blocking, "blocking finding");
  top.push(
    `${code(`${short(verdict.base)}..${short(verdict.head)}`)} · ${why}${
      notes > 0 ? ` · ${plural(notes, "note")}` : ""
    } · clock ${code(verdict.now)}`,
    "",
  );
  const bottom: string[] = [
    ...observations(verdict),
    ...excuseLines(verdict),
    "",
  ];
  if (options.keyid !== undefined) {
    bottom.push(...verification(verdict, options.keyid), "");
  }
  bottom.push(footer(verdict));
  const middle = verdict.findings.length === 0
    ? ["No findings.", ""]
    : findingsSection(verdict.findings, {
      maxRows,
      maxBytes: maxBytes - bytes([...top, ...bottom].join("\n") + "\n"),
    });
  return [...top, ...middle, ...bottom].join("\n") + "\n";
}

/**
 * The findings table and, below it, what the listed findings' failed tests
 * showed: rows first, each whole, then as many failures as still fit.
 */
function findingsSection(
  findings: readonly Finding[],
  limits: { maxRows: number; maxBytes: number },
): string[] {
  const header = [
    "| | Layer | Rule | Where | Message |",
    "| --- | --- | --- | --- | --- |",
  ];
  // Room for the header, the "and N more" lines and the blank lines.
  let room = limits.maxBytes - bytes(header.join("\n")) - 400;
  const rows: string[] = [];
  for (const f of findings.slice(0, limits.maxRows)) {
    const row = findingRow(f);
    // A finding is listed whole or not at all: cutting its message would
    // cut what to do about it.
    if (bytes(row) + 1 > room) break;
    room -= bytes(row) + 1;
    rows.push(row);
  }
  const listed = findings.slice(0, rows.length);
  const rest = findings.length - listed.length;
  if (rest > 0) {
    const restBlocking = findings.slice(listed.length).filter((f) =>
      f.blocking
    ).length;
    rows.push(
      `| | | | | …and ${
        plural(rest, "more finding")
      } (${restBlocking} blocking) in the verdict JSON |`,
    );
  }
  const details: string[] = [];
  // One failure often makes two findings (the property, and the test):
  // its block is shown once.
  const keys = new Set<string>();
  const failed = listed.filter((f) => {
    if (f.failure === undefined) return false;
    const key = failureKey(f.failure);
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  });
  let shown = 0;
  for (const f of failed) {
    const detail = markdownFailure(f.failure as FailureDetail, {
      blocking: f.blocking,
    });
    const cost = bytes(detail.join("\n")) + 2;
    if (cost > room) break;
    room -= cost;
    details.push(...detail, "");
    shown++;
  }
  if (shown < failed.length) {
    details.push(
      `What ${
        plural(failed.length - shown, "more failed test")
      } showed is in the verdict JSON.`,
      "",
    );
  }
  return [...header, ...rows, "", ...details];
}

function findingRow(f: Finding): string {
  return `| ${f.blocking ? "❌" : "ℹ️"} | ${markdownInline(f.layer)} | ${
    code(f.rule)
  } | ${
    f.path === undefined
      ? "—"
      : code(f.line === undefined ? f.path : `${f.path}:${f.line}`)
  } | ${markdownInline(f.message)} |`;
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function observations(verdict: Verdict): string[] {
  const t = verdict.tests;
  const iso = verdict.isolation;
  const sandbox = iso === null
    ? "not used (nothing from the repository ran)"
    : `${markdownInline(iso.tier)}, network ${markdownInline(iso.network)}`;
  if (t === null) {
    return [
      "- **Tests:** not run: the tests, the registered properties and the frozen seeds are judged only by `pawl check`; these were static checks only",
      `- **Sandbox:** ${sandbox}`,
    ];
  }
  const s = t.summary;
  const lines = [
    `- **Tests:** ${testCounts(s)}`,
  ];
  const passed = t.properties.filter((p) => p.outcome === "passed").length;
  lines.push(
    t.properties.length === 0
      ? "- **Properties:** none registered"
      : `- **Properties:** ${passed}/${t.properties.length} passed: ${
        listed(t.properties.map((p) =>
          `${code(p.id)} ${
            p.outcome === "passed" ? "✅" : `❌ ${markdownInline(p.outcome)}`
          }`
        ))
      }`,
  );
  if (t.mutation !== undefined) {
    lines.push(
      `- **Mutation:** ${markdownInline(mutationSummary(t.mutation))}`,
    );
  }
  lines.push(
    t.reruns.length === 0
      ? "- **Reruns:** none used"
      : `- **Reruns:** ${
        listed(t.reruns.map((r) =>
          `freeze ${code(r.freeze)} ${r.used}/${r.allowed} used, ${
            r.passed ? "passed" : "still failing"
          }`
        ))
      }`,
  );
  const trials = t.seeds.trials === null ? "" : `, ${t.seeds.trials} trials`;
  lines.push(
    `- **Seeds:** fresh ${code(String(t.seeds.fresh))}${trials}; ${
      t.seeds.replays.length === 0
        ? "no frozen seeds replayed"
        : `${plural(t.seeds.replays.length, "frozen seed")} replayed: ${
          listed(t.seeds.replays.map((r) =>
            `${code(String(r.seed))} (freeze ${code(r.freeze)}) ${
              r.passed ? "✅" : "❌"
            }`
          ))
        }`
    }`,
  );
  lines.push(`- **Sandbox:** ${sandbox}`);
  return lines;
}

/** The base's excuses, so a reviewer sees what this runner did not run. */
function excuseLines(verdict: Verdict): string[] {
  const excuses = verdict.excuses ?? [];
  if (excuses.length === 0) return [];
  const describe = (e: (typeof excuses)[number]) =>
    `${code(e.test)} (owner ${markdownInline(e.owner)}, until ${
      code(e.expires)
    }: ${markdownInline(truncate(e.reason, 200))})`;
  const active = excuses.filter((e) => e.status === "active");
  const expired = excuses.filter((e) => e.status === "expired");
  return [
    ...(active.length === 0 ? [] : [
      `- **Excused on this runner** (base \`pawl.toml\`, not run): ${
        listed(active.map(describe))
      }`,
    ]),
    ...(expired.length === 0 ? [] : [
      `- **Expired excuses** (run like any test): ${
        listed(expired.map(describe))
      }`,
    ]),
  ];
}

function verification(verdict: Verdict, keyid: string): string[] {
  const command =
    `pawl verify --key ${PUBLIC_KEY_FILE} --envelope verdict.dsse.json --head ${verdict.head}`;
  return [
    `Signed with key ${code(keyid)}. To verify the signed verdict:`,
    "",
    ...fenced(command, "sh"),
  ];
}

function footer(verdict: Verdict): string {
  const layouts = verdict.contract.layouts.length === 0
    ? ""
    : ` · layouts ${
      verdict.contract.layouts.map((l) => markdownInline(layoutName(l))).join(
        ", ",
      )
    }`;
  const digest = verdict.contract.digest === ""
    ? ""
    : ` · contract ${code(verdict.contract.digest.slice(0, 19))}`;
  return `<sub>pawl ${
    markdownInline(verdict.pawl.version)
  }${digest}${layouts}</sub>`;
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  const rest = items.length - MAX_LISTED;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

/**
 * A code span, safe inside a table cell: a backtick fence longer than any
 * run inside, `|` escaped (GFM removes the backslash), newlines as spaces,
 * and an HTML comment opener broken by a zero-width space so the raw body
 * holds {@linkcode MARKDOWN_MARKER} only on its first line.
 */
function code(value: string): string {
  const body = withoutControls(value).replace(/\r\n|\r|\n/g, " ")
    .replace(/<!--/g, "<\u200b!--")
    .replace(/\|/g, "\\|");
  const longest = Math.max(
    0,
    ...Array.from(body.matchAll(/`+/g), (m) => m[0].length),
  );
  const fence = "`".repeat(longest + 1);
  const pad = body.startsWith("`") || body.endsWith("`") ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced code block whose fence no line of `body` can close. */
function fenced(body: string, info: string): string[] {
  const longest = Math.max(
    2,
    ...Array.from(body.matchAll(/`+/g), (m) => m[0].length),
  );
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, body, fence];
}
