/**
 * The `[mutation]` table of `pawl.toml`: whether the oracle-strength rule
 * runs, and how much it may cost.
 *
 * @module
 */
import { z } from "zod";

/** The operators `[mutation] operators` may name. */
export const MUTATION_OPERATOR_NAMES = [
  "comparison",
  "boolean",
  "arithmetic",
  "constant",
  "statement",
  "return",
  "negate",
  "slice",
] as const;

/** The `[mutation]` table. */
export const MutationSettingsSchema = z.strictObject({
  /** Run the oracle-strength rule (off unless the base turns it on). */
  enabled: z.boolean().default(false),
  /** Wall-clock seconds the mutant runs may take in all; what is left unrun is reported as cut. */
  budget_seconds: z.number().int().min(1).max(24 * 3600).default(600),
  /** Most mutants run: those of the functions the pull request touched first, then a seeded sample of the rest. */
  max_mutants: z.number().int().min(1).max(100_000).default(200),
  /** Which kinds of change to make (default: all). */
  operators: z.array(z.enum(MUTATION_OPERATOR_NAMES)).min(1).default([
    ...MUTATION_OPERATOR_NAMES,
  ]),
});

/** Typed `[mutation]` settings after defaults. */
export type MutationSettings = z.infer<typeof MutationSettingsSchema>;

/** `[mutation]` when `pawl.toml` has none. */
export const DEFAULT_MUTATION_SETTINGS: MutationSettings =
  MutationSettingsSchema
    .parse({});
