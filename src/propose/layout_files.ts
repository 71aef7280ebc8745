/**
 * The contract layouts `pawl propose` can write, and the files of each.
 *
 * @module
 */

/** A contract layout, named after the seed that defines it. */
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
 * Whether `text` names a layout.
 *
 * @example
 * ```ts
 * import { isProposalLayout } from "./layout_files.ts";
 * if (!isProposalLayout("003") || isProposalLayout("001")) throw new Error();
 * ```
 */
export function isProposalLayout(text: string): text is ProposalLayout {
  return (PROPOSAL_LAYOUTS as readonly string[]).includes(text);
}
