/**
 * The base's setup step (`[environment.setup]` in `pawl.toml`): its
 * command runs in a sandboxed step of its own before the tests, sees only
 * the base's copies of the input files it names, may have the network for
 * that step alone, and writes into `$PAWL_ENV_DIR`, a directory of the
 * runner's setup cache keyed by the command, those files' contents and the
 * runner's image and interpreters. Every test run then sees that directory
 * read-only, its `bin/` first on `PATH` and its `python/` on `PYTHONPATH`.
 * A failing step is the base's problem: could not decide.
 *
 * @module
 */
export * from "./check_setup_shadowing.ts";
export * from "./collect_setup_inputs.ts";
export * from "./default_setup_cache.ts";
export * from "./list_env_modules.ts";
export * from "./prepare_setup_environment.ts";
export * from "./read_runner_identity.ts";
export * from "./seal_env_dir.ts";
export * from "./setup_cache.ts";
export * from "./setup_env_vars.ts";
export * from "./setup_failed_error.ts";
export * from "./setup_key.ts";
export * from "./with_setup_environment.ts";
