// Where a reason comment reaches. `// Stryker disable MUTATORS: reason`
// leaves those mutants out until `// Stryker restore MUTATORS`, but Stryker
// reads a comment only above a statement or expression: a restore at the end
// of a block, or after a `return`, is never read, and the reason goes on
// leaving mutants out down to the end of the file. This finds the mutants a
// reason leaves out below the restore meant to end it.

import type { MutantOutcome } from "./summarize.ts";

/** A mutant a reason leaves out past the restore comment meant to end it. */
export interface Overreach {
  readonly mutant: MutantOutcome;
  /** The line of the disable comment that gave the reason. */
  readonly comment: number;
  /** The line of the restore comment Stryker did not read; undefined when there is none. */
  readonly restore: number | undefined;
}

const DISABLE = /\/\/\s*Stryker disable\s+(next-line\s+)?([\w,]+)\s*:\s*(.*)$/;
const RESTORE = /\/\/\s*Stryker restore\s+([\w,]+)/;

/**
 * The mutants of one file that a block reason (`disable`, not `disable
 * next-line`) leaves out below its restore comment, or with no restore
 * comment at all.
 */
export function overreachingReasons(
  source: string,
  mutants: readonly MutantOutcome[],
): Overreach[] {
  const lines = source.split("\n");
  const out: Overreach[] = [];
  for (const mutant of mutants) {
    if (mutant.status !== "Ignored" || !mutant.statusReason) continue;
    const line = mutant.location.start.line;
    // The comment that gave the reason: the nearest one above that says it.
    let comment = -1;
    let match: RegExpExecArray | null = null;
    for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
      match = DISABLE.exec(lines[i]!);
      if (match !== null && match[3]!.trim() === mutant.statusReason.trim()) {
        comment = i + 1;
        break;
      }
    }
    if (comment === -1 || match === null || match[1] !== undefined) continue;
    const restore = lines.findIndex((text, i) => {
      if (i < comment) return false;
      const found = RESTORE.exec(text);
      if (found === null) return false;
      const names = found[1]!.split(",");
      return names.includes("all") || names.includes(mutant.mutatorName);
    });
    const restoreLine = restore === -1 ? undefined : restore + 1;
    if (restoreLine === undefined || line > restoreLine) {
      out.push({ mutant, comment, restore: restoreLine });
    }
  }
  return out;
}
