/**
 * Seeds: the fresh seed each run draws from (head commit, `--now`), the
 * witnesses failing runs report, and the ledger rows pawl can append to a
 * file the user names.
 *
 * @module
 */
export * from "./extract_witness.ts";
export * from "./fresh_seed.ts";
export * from "./ledger_row.ts";
