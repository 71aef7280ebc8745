/**
 * `pawl propose`'s pure core: a candidate contract, clearly labelled as a
 * proposal for a human to edit, for a repository that has none.
 * {@linkcode proposalReads} names the files the shell must read from git
 * objects at one commit (Python files to parse, fixtures to hash);
 * {@linkcode buildProposal} turns what was read into the files of one
 * layout (seed 000, 003 or 002), deterministically, with the commit id as
 * the only provenance.
 *
 * @module
 */
export * from "./build_proposal.ts";
export * from "./layout_files.ts";
export * from "./proposal_reads.ts";
