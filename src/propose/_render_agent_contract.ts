/**
 * Seed 000's `tests/agent_contract.yaml`, written out.
 *
 * @module
 */
import type { Candidates } from "./_collect_candidates.ts";
import { commentSafe } from "./_header.ts";
import { examplesComment, propertyIds } from "./_property_ids.ts";
import { quoteString } from "./_quote.ts";

/** Freezes a new contract allows at once (seed 000's example). */
export const MAX_ACTIVE_FREEZES = 3;

/**
 * The contract's YAML after `header`. Every string is double-quoted, so
 * no digest, id or path can be read as a number, boolean or null.
 */
export function renderAgentContract(
  candidates: Candidates,
  header: string,
): string {
  const out: string[] = [header, "version: 1\n"];
  const ids = propertyIds(candidates.properties);
  if (candidates.properties.length === 0) {
    out.push("properties: []\n");
  } else {
    out.push("properties:\n");
    candidates.properties.forEach((property, index) => {
      out.push(
        `  # ${commentSafe(examplesComment(property))}\n`,
        `  - id: ${quoteString(ids[index]!)}\n`,
        `    module: ${quoteString(property.module)}\n`,
        `    name: ${quoteString(property.name)}\n`,
        `    min_examples: ${property.examples}\n`,
      );
    });
  }
  if (candidates.fixtures.length === 0) {
    out.push("fixtures: []\n");
  } else {
    out.push("fixtures:\n");
    for (const fixture of candidates.fixtures) {
      out.push(
        `  - id: ${quoteString(fixture.id)}\n`,
        `    path: ${quoteString(fixture.path)}\n`,
        `    sha256: ${quoteString(fixture.sha256)}\n`,
        "    unlock: null\n",
      );
    }
  }
  out.push("freezes: []\n", `max_active_freezes: ${MAX_ACTIVE_FREEZES}\n`);
  return out.join("");
}
