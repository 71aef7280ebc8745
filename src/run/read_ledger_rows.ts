/**
 * The seed-ledger rows a contract test appended during a run, read from the
 * run's tree (which the tests could write: the file is read only when it is
 * a bounded regular file, and its rows are evidence, never trusted input).
 *
 * @module
 */
import type { LedgerEvidence } from "./judge_seed_use.ts";

/** The ledger file seed 002's `record()` appends to, relative to the working directory. */
export const SEED_LEDGER_FILE = "seed_ledger.jsonl";

/** The largest ledger read; a bigger one is not read (see {@linkcode readLedgerRows}). */
export const MAX_LEDGER_BYTES = 8 * 1024 * 1024;

/** Lines in the ledger of `workDir` now (0 when absent or not read). */
export async function ledgerLineCount(workDir: string): Promise<number> {
  const ledger = await ledgerLines(workDir);
  return "unread" in ledger ? 0 : ledger.lines.length;
}

/**
 * Rows after the first `skip` lines of the ledger in `workDir`. A ledger
 * pawl does not read (larger than {@linkcode MAX_LEDGER_BYTES}, or not a
 * regular file) gives one row without fields that says why.
 */
export async function readLedgerRows(
  workDir: string,
  skip: number,
): Promise<LedgerEvidence[]> {
  const ledger = await ledgerLines(workDir);
  if ("unread" in ledger) {
    return [{ seed: null, trials: null, ok: null, unread: ledger.unread }];
  }
  return ledger.lines.slice(skip).map((line) => {
    let row: Record<string, unknown> = {};
    try {
      const value: unknown = JSON.parse(line);
      // Stryker disable next-line ConditionalExpression: a number, a string or a boolean has no seed, trials or ok either, so read as a row it gives the same nulls
      const isObject = typeof value === "object";
      if (isObject && value !== null) {
        row = value as Record<string, unknown>;
      }
    } catch {
      // an unreadable row is evidence of nothing
    }
    const int = (v: unknown) => Number.isSafeInteger(v) ? v as number : null;
    return {
      seed: int(row["seed"]),
      trials: int(row["trials"]),
      ok: typeof row["ok"] === "boolean" ? row["ok"] : null,
    };
  });
}

/** The ledger's lines, or why it is not read. */
async function ledgerLines(
  workDir: string,
): Promise<{ lines: string[] } | { unread: string }> {
  const path = `${workDir}/${SEED_LEDGER_FILE}`;
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { lines: [] };
    throw error;
  }
  if (!info.isFile) {
    return { unread: `${SEED_LEDGER_FILE} is not a regular file` };
  }
  if (info.size > MAX_LEDGER_BYTES) {
    return {
      unread: `${SEED_LEDGER_FILE} is larger than ${
        MAX_LEDGER_BYTES / 1024 / 1024
      } MiB`,
    };
  }
  const text = new TextDecoder().decode(await Deno.readFile(path));
  return { lines: text.split("\n").filter((line) => line.trim() !== "") };
}
