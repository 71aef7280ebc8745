/**
 * Seed 003's three files, written out: `invariants.toml`, `fixtures.lock`
 * and `freeze.yml`.
 *
 * @module
 */
import type { Candidates } from "./_collect_candidates.ts";
import { commentSafe } from "./_header.ts";
import { examplesComment, propertyIds } from "./_property_ids.ts";
import { quoteString } from "./_quote.ts";

/** Freezes a new `freeze.yml` allows at once (seed 003's example). */
export const MAX_FROZEN = 3;

/** `invariants.toml` after `header`: the policy, then one row per property. */
export function renderInvariants(
  candidates: Candidates,
  header: string,
): string {
  const out: string[] = [
    header,
    "[policy]\n",
    `min_properties = ${candidates.properties.length}\n`,
    "allow_agent_additions = true\n",
  ];
  const ids = propertyIds(candidates.properties);
  candidates.properties.forEach((property, index) => {
    out.push(
      "\n",
      `# ${commentSafe(examplesComment(property))}\n`,
      "[[property]]\n",
      `id = ${quoteString(ids[index]!)}\n`,
      `module = ${quoteString(property.module)}\n`,
      `function = ${quoteString(property.name)}\n`,
      `source_sha256 = ${quoteString(property.sourceSha256)}\n`,
    );
  });
  return out.join("");
}

/**
 * `fixtures.lock`: JSON, which has no comments, so it carries no header;
 * `invariants.toml`'s header speaks for it.
 */
export function renderFixturesLock(candidates: Candidates): string {
  const files: Record<string, string> = {};
  for (const fixture of candidates.fixtures) {
    files[fixture.path] = fixture.sha256;
  }
  return JSON.stringify(
    { policy: { allow_rotate_on_agent_pr: false }, files },
    null,
    2,
  ) + "\n";
}

/** `freeze.yml` after `header`: the budget and no freezes. */
export function renderFreezeYml(header: string): string {
  return [
    header,
    "policy:\n",
    `  max_frozen: ${MAX_FROZEN}\n`,
    "  fail_on_expired: true\n",
    "freezes: []\n",
  ].join("");
}
