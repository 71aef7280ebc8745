/**
 * Seed 002's `contracts.yml` and `flake_freeze.yml`, written out.
 *
 * @module
 */
import type {
  Candidates,
  PublicFunctionCandidate,
} from "./_collect_candidates.ts";
import { commentSafe } from "./_header.ts";
import { quoteString } from "./_quote.ts";

/** Trials per fresh run of a proposed contract (seed 002's default). */
export const MIN_TRIALS = 200;

/**
 * The `test:` placeholder of a proposed contract: a well-formed pytest node
 * id (pawl's reader accepts only those) where seed 002 would put the test,
 * naming a `TODO_…` function. pytest never collects a function of that
 * name, so a placeholder committed unedited fails the gate.
 */
export function testPlaceholder(fn: PublicFunctionCandidate): string {
  const file = `tests/contracts/test_${
    fn.module.replaceAll(".", "_")
  }_contracts.py`;
  return `${file}::TODO_test_${fn.name}_contract`;
}

/** `contracts.yml` after `header`: one candidate contract per public function. */
export function renderContracts(
  candidates: Candidates,
  header: string,
): string {
  const out: string[] = [header, "version: 1\n"];
  if (candidates.publicFunctions.length === 0) {
    out.push("contracts: []\n");
    return out.join("");
  }
  out.push("contracts:\n");
  for (const fn of candidates.publicFunctions) {
    const dotted = `${fn.module}.${fn.name}`;
    out.push(
      `  # ${commentSafe(`${JSON.stringify(fn.path)} line ${fn.line}`)}\n`,
      `  - id: ${quoteString(dotted)}\n`,
      `    function: ${quoteString(dotted)}\n`,
      `    test: ${quoteString(testPlaceholder(fn))}\n`,
      `    min_trials: ${MIN_TRIALS}\n`,
    );
  }
  return out.join("");
}

/** `flake_freeze.yml` after `header`: no freezes. */
export function renderFlakeFreeze(header: string): string {
  return `${header}freezes: []\n`;
}
