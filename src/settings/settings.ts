/**
 * pawl's own settings, read from `pawl.toml` at the base commit only.
 *
 * @module
 */
import { z } from "zod";
import { CoverageSettingsSchema } from "./coverage_settings.ts";
import { EnvironmentSettingsSchema } from "./environment_settings.ts";
import { reservedEnvName } from "./reserved_env_name.ts";
import { FixturesSettingsSchema } from "./fixtures_settings.ts";
import { ExcusesSettingsSchema } from "./excuses_settings.ts";
import { MutationSettingsSchema } from "./mutation_settings.ts";

/**
 * An environment variable pawl injects: upper case (`^[A-Z_][A-Z0-9_]*$`)
 * and none the sandbox sets or the runner reads (see
 * {@linkcode reservedEnvName}).
 */
const envNameSchema = z.string().regex(/^[A-Z_][A-Z0-9_]*$/).superRefine(
  (name, ctx) => {
    const why = reservedEnvName(name);
    if (why === undefined) return;
    ctx.addIssue({
      code: "custom",
      message:
        `must not override the sandbox's own environment: ${why}; pick a name of your own such as "CONTRACT_SEED"`,
      params: { detail: true },
    });
  },
);

/** The `[tests]` table: how the suite is run. */
export const TestsSettingsSchema = z.strictObject({
  /** Which runner's conventions apply (report format, selection syntax). */
  runner: z.enum(["pytest", "deno"]).default("pytest"),
  /** argv of the test command; pawl appends its report and selection flags. */
  command: z.array(z.string().min(1)).min(1).optional(),
  /** Wall-clock limit for one run of the suite. */
  timeout_seconds: z.number().int().min(1).max(24 * 3600).default(600),
  /** Output cap for one run, in MiB. */
  max_output_mib: z.number().int().min(1).max(1024).default(16),
  /** Process cap for the sandbox uid. */
  max_processes: z.number().int().min(8).max(65536).default(512),
});

/** The `[seeds]` table: how seeds reach the tests (seed 002's defaults). */
export const SeedsSettingsSchema = z.strictObject({
  /** Environment variable carrying the seed. */
  env_seed: envNameSchema.default("CONTRACT_SEED"),
  /** Environment variable carrying the trial count. */
  env_trials: envNameSchema.default("CONTRACT_TRIALS"),
  /** Also pass `--hypothesis-seed=<seed>` to pytest. */
  hypothesis_seed: z.boolean().default(true),
  /** Trials for a frozen-seed replay. */
  replay_trials: z.number().int().min(1).max(1_000_000).default(50),
}).superRefine((seeds, ctx) => {
  if (seeds.env_seed !== seeds.env_trials) return;
  ctx.addIssue({
    code: "custom",
    path: ["env_trials"],
    message: `must differ from "seeds.env_seed" (both are ${
      JSON.stringify(seeds.env_seed)
    }): the trial count would overwrite the seed`,
    params: { detail: true },
  });
});

/** The `[harness]` table: what the harness rules allow. */
export const HarnessSettingsSchema = z.strictObject({
  /**
   * Paths (a file, or a directory ending in `/`) outside the test-side
   * tree that may import pytest or Hypothesis and look for the harness:
   * a pytest plugin or Hypothesis strategies the project ships.
   */
  test_support: z.array(
    z.string().min(1).refine(
      (p) => !p.startsWith("/") && !p.split("/").includes(".."),
      'must be a relative path without ".."',
    ),
  ).default([]),
});

/** The whole `pawl.toml`. */
export const SettingsSchema = z.strictObject({
  coverage: CoverageSettingsSchema.prefault({}),
  environment: EnvironmentSettingsSchema.prefault({}),
  excuses: ExcusesSettingsSchema.default([]),
  fixtures: FixturesSettingsSchema.default({}),
  harness: HarnessSettingsSchema.default({ test_support: [] }),
  mutation: MutationSettingsSchema.prefault({}),
  seeds: SeedsSettingsSchema.default({
    env_seed: "CONTRACT_SEED",
    env_trials: "CONTRACT_TRIALS",
    hypothesis_seed: true,
    replay_trials: 50,
  }),
  tests: TestsSettingsSchema.default({
    runner: "pytest",
    timeout_seconds: 600,
    max_output_mib: 16,
    max_processes: 512,
  }),
}).superRefine((settings, ctx) => {
  // pawl injects the seed and trial count over [environment] env.
  for (const name of [settings.seeds.env_seed, settings.seeds.env_trials]) {
    if (!Object.hasOwn(settings.environment.env, name)) continue;
    ctx.addIssue({
      code: "custom",
      path: ["environment", "env", name],
      message: `must not be set: pawl injects the seed or trial count as ${
        JSON.stringify(name)
      } ([seeds])`,
      params: { detail: true },
    });
  }
});

/** Typed settings after defaults. */
export type Settings = z.infer<typeof SettingsSchema>;

/** The settings used when the base commit has no `pawl.toml`. */
export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
