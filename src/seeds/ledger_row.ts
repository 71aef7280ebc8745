/**
 * Seed ledger rows (seed 002's `seed_ledger.jsonl`): one JSON line per
 * property run. pawl writes them only to the file the user names, never
 * into the repository.
 *
 * @module
 */

/** One property run. Field order is fixed so lines are reproducible. */
export interface LedgerRow {
  /** The seed the run used. */
  seed: number;
  /** Trials requested (`CONTRACT_TRIALS`). */
  trials: number | null;
  /** Whether the property held. */
  ok: boolean;
  /** sha256 of the failing input, or null when it held. */
  "witness_sha256": string | null;
  /** The orchestrator's clock as Unix seconds (seed 002's `ts`). */
  ts: number;
  /** Contract layout the property belongs to. */
  layout: string;
  /** Property or contract id. */
  id: string;
  /** `fresh` for the run's own seed, `replay` for a frozen seed. */
  kind: "fresh" | "replay";
}

/** Render rows as JSON Lines (one object per line, trailing newline). */
export function formatLedger(rows: readonly LedgerRow[]): string {
  return rows.map((r) =>
    JSON.stringify({
      seed: r.seed,
      trials: r.trials,
      ok: r.ok,
      witness_sha256: r.witness_sha256,
      ts: r.ts,
      layout: r.layout,
      id: r.id,
      kind: r.kind,
    }) + "\n"
  ).join("");
}
