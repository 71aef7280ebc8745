/**
 * The `[environment]` table of `pawl.toml`: what the tests' environment
 * is made of.
 *
 * @module
 */
import { z } from "zod";
import { SetupSettingsSchema } from "./setup_settings.ts";

/** The `[environment]` table. */
export const EnvironmentSettingsSchema = z.strictObject({
  /** A sandboxed setup step before the tests (see `setup_settings.ts`). */
  setup: SetupSettingsSchema.optional(),
});

/** Typed `[environment]` after defaults. */
export type EnvironmentSettings = z.infer<typeof EnvironmentSettingsSchema>;
