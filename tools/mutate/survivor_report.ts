// The checked-in survivor report: every mutant the tests do not detect, and
// every mutant left out with the reason written beside its code.

import {
  describeMutant,
  type MutantOutcome,
  relative,
  score,
  tallyByFile,
  total,
  UNDECIDED,
  UNDETECTED,
} from "./summarize.ts";

function percent(value: number | null): string {
  return value === null ? "n/a" : `${value.toFixed(1)}%`;
}

/** The report's Markdown. */
/** Which files were run, of all the files the report's folders hold. */
export interface FilesRun {
  /** The files a run covered, relative to the root. */
  readonly run: readonly string[];
  /** Every mutable file of the folders, relative to the root. */
  readonly all: readonly string[];
}

/**
 * `text` as inline code: fenced by one more backtick than its longest run
 * of them, so code holding template literals stays one span.
 */
export function codeSpan(text: string): string {
  const longest = Math.max(
    0,
    ...[...text.matchAll(/`+/g)].map((m) => m[0].length),
  );
  if (longest === 0) return `\`${text}\``;
  const fence = "`".repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

/**
 * A reason as Markdown that shows it as written: the characters Markdown
 * reads as emphasis, links or HTML are escaped outside its code spans, so a
 * reason that quotes a regular expression keeps its stars.
 */
export function markdownText(text: string): string {
  return text.split(/(`[^`]*`)/).map((part, i) =>
    i % 2 === 1 ? part : part.replace(/[\\*_[\]<>]/g, (c) => `\\${c}`)
  ).join("");
}

/** What else the report can say. */
export interface ReportOptions {
  /** Which files were run: each folder then says how many, and the others are listed. */
  files?: FilesRun;
  /** A file's source (relative path), to show the code each mutant replaced. */
  source?: (file: string) => string | undefined;
}

/** The report's Markdown. */
export function survivorReport(
  results: readonly MutantOutcome[],
  root: string,
  folders: readonly string[],
  options: ReportOptions = {},
): string {
  const { files } = options;
  const describe = (result: MutantOutcome) =>
    describeMutant(
      result,
      root,
      options.source?.(relative(result.fileName, root)),
    );
  const tallies = tallyByFile(results, root);
  const inside = (folder: string, file: string) =>
    folder === "all" || file.startsWith(folder);
  const runCount = (folder: string) =>
    files === undefined
      ? ""
      : ` ${files.run.filter((f) => inside(folder, f)).length} of ${
        files.all.filter((f) => inside(folder, f)).length
      } |`;
  const lines = [
    "# Mutation report: pawl's own decision code",
    "",
    "Written by `deno task bench self-mutation`, or by `tools/mutate/write_report.ts` from the JSON",
    "of `deno task mutate` runs and the ledger beside this report (the same name, ending in `.json`).",
    "[development.md](development.md#mutation-testing-pawl-itself) says what is mutated, which tests",
    "run, and how a reason is recorded.",
    "",
    "A mutant is **detected** when a test fails or stops on its time limit, **undetected** when",
    "every chosen test passes. A mutant **with a reason** is left out by a",
    "`// Stryker disable next-line MUTATOR: reason` comment beside its code, and the score",
    'leaves it out. Only the files listed under "Per file" were run.',
    "",
    "Such a comment leaves out every mutant of its mutator on the line, including replacements",
    "the reason is not about, so `deno task mutate-reasons` runs those mutants on their own: one",
    "the tests detect counts as detected, one they leave alive stays under its reason. A mutant",
    "marked *(not checked)* has not been run on its own yet.",
    "",
    `| Folder |${
      files === undefined ? "" : " Files run |"
    } Score | Detected | Undetected | With a reason |`,
    `|---|${files === undefined ? "" : "---|"}---|---|---|---|`,
  ];
  for (const folder of [...folders, "all"]) {
    const inFolder = folder === "all"
      ? tallies
      : tallies.filter((t) => t.file.startsWith(folder));
    if (inFolder.length === 0 && files === undefined) continue;
    const sum = total(folder, inFolder);
    lines.push(
      `| ${folder} |${runCount(folder)} ${
        percent(score(sum))
      } | ${sum.detected} | ${sum.undetected} | ${sum.ignored} |`,
    );
  }
  lines.push(
    "",
    "## Per file",
    "",
    "| File | Score | Detected | Undetected | With a reason |",
    "|---|---|---|---|---|",
  );
  for (const tally of tallies) {
    lines.push(
      `| ${tally.file} | ${
        percent(score(tally))
      } | ${tally.detected} | ${tally.undetected} | ${tally.ignored} |`,
    );
  }
  const ignored = results.filter((r) => r.status === "Ignored");
  const reasons = new Map<string, MutantOutcome[]>();
  for (const result of ignored) {
    const reason = result.statusReason ?? "";
    reasons.set(reason, [...(reasons.get(reason) ?? []), result]);
  }
  lines.push("", "## Left out, with the reason", "");
  if (ignored.length === 0) lines.push("None.");
  else {
    const checked = ignored.filter((r) => r.checked === true).length;
    lines.push(
      `${checked} of ${ignored.length} run on their own, and the tests leave each alive.`,
      "",
    );
  }
  for (
    const [reason, group] of [...reasons].sort((a, b) =>
      a[0].localeCompare(b[0])
    )
  ) {
    lines.push(`- **${reason ? markdownText(reason) : "(no reason given)"}**`);
    for (const result of group) {
      lines.push(
        `  - ${codeSpan(describe(result))}${
          result.checked === true ? "" : " *(not checked)*"
        }`,
      );
    }
  }
  const undetected = results.filter((r) => UNDETECTED.has(r.status));
  lines.push("", "## Undetected", "");
  if (undetected.length === 0) lines.push("None.");
  for (const result of undetected) {
    lines.push(`- ${codeSpan(describe(result))}`);
  }
  const undecided = results.filter((r) => r.status === UNDECIDED);
  if (undecided.length > 0) {
    lines.push(
      "",
      "## Undecided",
      "",
      "Their tests without a mutant ran past the time limit too, so they count neither way;",
      "`deno task mutate-reasons --undetected` runs them again.",
      "",
    );
    for (const result of undecided) {
      lines.push(`- ${codeSpan(describe(result))}`);
    }
  }
  if (files !== undefined) {
    const notRun = files.all.filter((f) => !files.run.includes(f));
    lines.push("", "## Not run", "");
    if (notRun.length === 0) lines.push("None: every file was run.");
    for (const file of notRun) lines.push(`- ${file}`);
  }
  lines.push("");
  return lines.join("\n");
}
