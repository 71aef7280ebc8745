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

/**
 * The `[mutation]` table. The rule is on unless the base turns it off.
 * `max_mutants` is the limit a judgement is meant to meet: a count, so
 * the same inputs run the same mutants on any machine; 50 covers a small
 * project's code whole (the demo's parser makes 43) and keeps a larger
 * one's runs to about what its check costs without mutation. The time
 * budget is only a safety stop for a cold first judgement of a slow
 * suite: it depends on the machine's load, so what it cuts is counted in
 * the verdict and named in a note, and never guessed.
 */
export const MutationSettingsSchema = z.strictObject({
  /** Run the oracle-strength rule (on unless the base turns it off). */
  enabled: z.boolean().default(true),
  /** Wall-clock seconds the mutant runs may take in all; what is left unrun is reported as cut. */
  budget_seconds: z.number().int().min(1).max(24 * 3600).default(180),
  /** Most mutants run: those of the functions the pull request touched first, then a seeded sample of the rest. */
  max_mutants: z.number().int().min(1).max(100_000).default(50),
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
