/**
 * pawl's GitHub Action: the action's inputs as one `pawl check` or
 * `pawl diff` command line ({@linkcode actionCommandLine}); the entry script
 * that runs it in the container is `tools/action_entrypoint.ts`.
 *
 * @module
 */
export * from "./action_command_line.ts";
