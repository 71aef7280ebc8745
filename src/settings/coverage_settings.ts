/**
 * The `[coverage]` table of `pawl.toml`: what the lines the pull request
 * added or changed in the code under test, and no test ran, count for.
 *
 * @module
 */
import { z } from "zod";

/**
 * The `[coverage]` table. `changed_lines = "advisory"` (the default) lists
 * the changed lines of the code under test that no test of the full
 * suite executes, and the mutants on changed lines that survive every
 * base property, without blocking; `"blocking"` rejects a pull request
 * that has either. Lines whose probes code under test switched off are
 * unknown, never unexecuted, and never block.
 */
export const CoverageSettingsSchema = z.strictObject({
  /** `advisory` or `blocking`: whether changed code no test runs rejects. */
  changed_lines: z.enum(["advisory", "blocking"]).default("advisory"),
});

/** Typed `[coverage]` settings after defaults. */
export type CoverageSettings = z.infer<typeof CoverageSettingsSchema>;

/** `[coverage]` when `pawl.toml` has none. */
export const DEFAULT_COVERAGE_SETTINGS: CoverageSettings =
  CoverageSettingsSchema.parse({});
