/**
 * The `[environment]` table of the base's `pawl.toml`: which interpreter
 * runs the tests, which repository directories come first on the import
 * path, and which extra variables the tests see. Like every setting it is
 * read from the base commit only.
 *
 * @module
 */
import { z } from "zod";
import { pythonpathProblem } from "../core/pythonpath_problem.ts";
import { reservedEnvName } from "./reserved_env_name.ts";
import { SetupSettingsSchema } from "./setup_settings.ts";

/**
 * `python`: an absolute path (an interpreter in a derived image or on the
 * runner host) or a bare program name looked up on the sandbox PATH. A
 * relative path is refused: it would name a file of the pull request's own
 * tree, which the pull request could replace.
 */
const interpreterSchema = z.string().superRefine((value, ctx) => {
  const why = interpreterProblem(value);
  if (why === undefined) return;
  ctx.addIssue({ code: "custom", message: why, params: { detail: true } });
});

/**
 * One `pythonpath` entry: a directory relative to the repository root, as
 * in pytest's own `pythonpath` option, with no `..` and no `:` (the
 * `PYTHONPATH` separator).
 */
const pythonpathEntrySchema = z.string().superRefine((value, ctx) => {
  const why = pythonpathProblem(value);
  if (why === undefined) return;
  ctx.addIssue({ code: "custom", message: why, params: { detail: true } });
}).transform((value) => value === "." ? "." : value.replace(/\/+$/, ""));

/**
 * `env`: extra variables, literal strings (never expanded, never read from
 * the runner's environment). A name the sandbox sets or the runner reads,
 * or one that looks like a credential, is refused.
 */
const envTableSchema = z.record(z.string(), z.string()).superRefine(
  (table, ctx) => {
    for (const [name, value] of Object.entries(table)) {
      const why = envEntryProblem(name, value);
      if (why === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: why,
        params: { detail: true, secret: runnerSecretName(name) !== undefined },
      });
    }
  },
);

/**
 * The `[environment]` table. Other tables of the environment (such as a
 * setup step) are added here as keys of this strict object.
 */
export const EnvironmentSettingsSchema = z.strictObject({
  /** The interpreter the test command runs (its directory also comes first on the sandbox PATH). */
  python: interpreterSchema.optional(),
  /** Repository directories put first on `PYTHONPATH`, so the checkout wins over an installed copy. */
  pythonpath: z.array(pythonpathEntrySchema).max(64).default([]),
  /** Extra environment variables for every test run. */
  env: envTableSchema.default({}),
  /** A sandboxed setup step before the tests (see `setup_settings.ts`). */
  setup: SetupSettingsSchema.optional(),
});

/** Typed `[environment]` settings after defaults. */
export type EnvironmentSettings = z.infer<typeof EnvironmentSettingsSchema>;

/**
 * Why `value` cannot be the interpreter, or `undefined` when it can.
 *
 * @example
 * ```ts
 * import { interpreterProblem } from "./environment_settings.ts";
 * if (interpreterProblem("/opt/venv/bin/python") !== undefined) throw new Error();
 * if (interpreterProblem(".venv/bin/python") === undefined) throw new Error();
 * ```
 */
export function interpreterProblem(value: string): string | undefined {
  if (value === "") return "must not be empty";
  if (/[\0:=\s]/.test(value)) {
    return 'must be a path without NUL, white space, ":" or "="';
  }
  if (!value.includes("/")) {
    return /^[A-Za-z0-9._+-]+$/.test(value)
      ? undefined
      : "must be an absolute path or a program name on the sandbox PATH";
  }
  if (!value.startsWith("/")) {
    return 'must be an absolute path (such as "/opt/venv/bin/python") or a program name on the sandbox PATH: a path inside the repository would run a file the pull request can replace';
  }
  const parts = value.split("/").slice(1);
  if (parts.some((p) => p === "" || p === "." || p === "..")) {
    return 'must be a canonical absolute path (no "//", "." or ".." parts, no trailing "/")';
  }
  return undefined;
}

/** Exact names of the runners' own credentials. */
const RUNNER_SECRET_NAMES: ReadonlySet<string> = new Set([
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "CI_JOB_TOKEN",
  "CI_JOB_JWT",
  "BUILDKITE_AGENT_ACCESS_TOKEN",
]);

/** Families of variables a CI runner sets for itself. */
const RUNNER_PREFIXES: readonly string[] = ["GITHUB_", "ACTIONS_", "RUNNER_"];

/** Words that mark a variable as a credential. */
const SECRET_WORDS =
  /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|JWT|API_?KEY|ACCESS_KEY|PRIVATE_KEY)(_|$)/;

/**
 * Why `name` names a runner's secret or a variable the CI runner owns, or
 * `undefined` when it does not.
 *
 * @example
 * ```ts
 * import { runnerSecretName } from "./environment_settings.ts";
 * if (runnerSecretName("GITHUB_TOKEN") === undefined) throw new Error();
 * if (runnerSecretName("APP_MODE") !== undefined) throw new Error();
 * ```
 */
export function runnerSecretName(name: string): string | undefined {
  const prefix = RUNNER_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) {
    return `${JSON.stringify(name)} starts with ${
      JSON.stringify(prefix)
    }, which the CI runner sets for itself (and its token)`;
  }
  if (RUNNER_SECRET_NAMES.has(name) || SECRET_WORDS.test(name)) {
    return `${
      JSON.stringify(name)
    } names a credential: pawl never hands the runner's secrets to the tests, and a value written here is committed for the pull request's code to read`;
  }
  return undefined;
}

/** Why `name = value` cannot be an extra variable, or `undefined`. */
function envEntryProblem(name: string, value: string): string | undefined {
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
    return 'must be named in upper case (A-Z, digits and "_", not starting with a digit)';
  }
  const reserved = reservedEnvName(name);
  if (reserved !== undefined) {
    return `must not override the sandbox's own environment: ${reserved}; use [environment] python and pythonpath for the interpreter and import path`;
  }
  const secret = runnerSecretName(name);
  if (secret !== undefined) return `must not be set: ${secret}`;
  if (value.includes("\0")) return "must not contain a NUL character";
  if (value.length > 32 * 1024) return "must be at most 32768 characters";
  return undefined;
}
