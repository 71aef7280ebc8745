// What a mutation run found, per file and in all, and the text people read.

/** The part of a Stryker mutant result the summary reads. */
export interface MutantOutcome {
  readonly fileName: string;
  readonly mutatorName: string;
  readonly replacement?: string | undefined;
  readonly status: string;
  readonly statusReason?: string | undefined;
  /** Left out with a reason, and run on its own all the same: its tests leave it alive. */
  readonly checked?: boolean;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end?: { readonly line: number; readonly column: number };
  };
}

export interface FileTally {
  readonly file: string;
  /** Killed, or stopped by a time limit. */
  detected: number;
  /** Survived, or reached by no test. */
  undetected: number;
  /** Left out with a reason written beside the code (`// Stryker disable … : reason`). */
  ignored: number;
  /** Mutants that do not compile or do not load; they say nothing about the tests. */
  invalid: number;
}

export const DETECTED = new Set(["Killed", "Timeout"]);
export const UNDETECTED = new Set(["Survived", "NoCoverage"]);
/**
 * A mutant whose tests ran past their limit while the same tests without a
 * mutant did too: a machine too busy to tell them apart. Its next run decides.
 */
export const UNDECIDED = "RuntimeError";

/** The share of the mutants that count which the tests detect, in percent; null when none count. */
export function score(
  tally: Pick<FileTally, "detected" | "undetected">,
): number | null {
  const counted = tally.detected + tally.undetected;
  return counted === 0 ? null : (100 * tally.detected) / counted;
}

/** Tallies per file, in file order. */
export function tallyByFile(
  results: readonly MutantOutcome[],
  root: string,
): FileTally[] {
  const byFile = new Map<string, FileTally>();
  for (const result of results) {
    const file = relative(result.fileName, root);
    const tally = byFile.get(file) ??
      { file, detected: 0, undetected: 0, ignored: 0, invalid: 0 };
    if (DETECTED.has(result.status)) tally.detected++;
    else if (UNDETECTED.has(result.status)) tally.undetected++;
    else if (result.status === "Ignored") tally.ignored++;
    else tally.invalid++;
    byFile.set(file, tally);
  }
  return [...byFile.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/** The sum of some tallies, under a name (a folder, or "all"). */
export function total(name: string, tallies: readonly FileTally[]): FileTally {
  const sum: FileTally = {
    file: name,
    detected: 0,
    undetected: 0,
    ignored: 0,
    invalid: 0,
  };
  for (const tally of tallies) {
    sum.detected += tally.detected;
    sum.undetected += tally.undetected;
    sum.ignored += tally.ignored;
    sum.invalid += tally.invalid;
  }
  return sum;
}

/** A path relative to the project root, as the summary prints it. */
export function relative(fileName: string, root: string): string {
  return fileName.startsWith(`${root}/`)
    ? fileName.slice(root.length + 1)
    : fileName;
}

/** `text` on one line, cut to 80 characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/**
 * The code a mutant replaced, from the file's source (1-based lines and
 * columns, end exclusive); undefined without an end or past the text.
 */
export function originalText(
  source: string,
  location: MutantOutcome["location"],
): string | undefined {
  const { start, end } = location;
  if (end === undefined) return undefined;
  const lines = source.split("\n");
  if (start.line < 1 || end.line > lines.length) return undefined;
  const span = lines.slice(start.line - 1, end.line);
  span[span.length - 1] = span[span.length - 1]!.slice(0, end.column - 1);
  span[0] = span[0]!.slice(start.column - 1);
  return span.join("\n");
}

/**
 * One line for a mutant: where it is, the mutator, what the code was (with
 * the file's source) and what it became.
 */
export function describeMutant(
  result: MutantOutcome,
  root: string,
  source?: string,
): string {
  const where = `${
    relative(result.fileName, root)
  }:${result.location.start.line}:${result.location.start.column}`;
  const was = source === undefined
    ? undefined
    : originalText(source, result.location);
  const shown = oneLine(result.replacement ?? "");
  const change = shown === ""
    ? ""
    : was === undefined
    ? ` → ${shown}`
    : ` ${oneLine(was)} → ${shown}`;
  return `${where} ${result.mutatorName}${change}`;
}

/** The tally as a table row: file, score, detected, undetected, ignored. */
export function tallyLine(tally: FileTally): string {
  const value = score(tally);
  const shown = value === null ? "   n/a" : `${value.toFixed(1).padStart(5)}%`;
  return `${shown}  ${String(tally.detected).padStart(5)} detected  ${
    String(tally.undetected).padStart(4)
  } undetected  ${
    String(tally.ignored).padStart(4)
  } with a reason  ${tally.file}`;
}
