/**
 * The contract layouts `pawl propose` can write, and the files of each.
 *
 * @module
 */

import { LAYOUT_NAMES, layoutNumberOf } from "../core/layout_name.ts";

/**
 * A contract layout, keyed by the number of the seed that defines it (its
 * name for people: {@linkcode LAYOUT_NAMES}).
 */
export type ProposalLayout = "000" | "003" | "002";

/** Every layout, the default (`000`) first. */
export const PROPOSAL_LAYOUTS: readonly ProposalLayout[] = [
  "000",
  "003",
  "002",
];

const FILES: Readonly<Record<ProposalLayout, readonly string[]>> = {
  "000": ["tests/agent_contract.yaml"],
  "003": ["invariants.toml", "fixtures.lock", "freeze.yml"],
  "002": ["contracts.yml", "flake_freeze.yml"],
};

/**
 * The repository-relative files that make up a contract of `layout`, in
 * the order a proposal prints them.
 *
 * @example
 * ```ts
 * import { layoutFiles } from "./layout_files.ts";
 * if (layoutFiles("002").join() !== "contracts.yml,flake_freeze.yml") throw new Error();
 * ```
 */
export function layoutFiles(layout: ProposalLayout): readonly string[] {
  return FILES[layout];
}

/**
 * The layout `text` names on a command line, by its name
 * (`agent-contract`, `invariants`, `seed-contracts`) or by its number
 * (`000`, `003`, `002`), or `undefined` when it names none.
 *
 * @example
 * ```ts
 * import { proposalLayoutOf } from "./layout_files.ts";
 * if (proposalLayoutOf("invariants") !== "003" || proposalLayoutOf("003") !== "003") throw new Error();
 * if (proposalLayoutOf("001") !== undefined) throw new Error();
 * ```
 */
export function proposalLayoutOf(text: string): ProposalLayout | undefined {
  const id = layoutNumberOf(text);
  return id !== undefined &&
      (PROPOSAL_LAYOUTS as readonly string[]).includes(id)
    ? id
    : undefined;
}

/** The names `--layout` takes, the default first: `agent-contract`, ... */
export const PROPOSAL_LAYOUT_NAMES: readonly string[] = PROPOSAL_LAYOUTS.map(
  (id) => LAYOUT_NAMES[id],
);
