/**
 * Strict option parsing shared by every command: unknown options and
 * positionals are usage errors that carry the command's usage text.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../check/undecided_error.ts";

/** The option table of one command. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parse `args` against `options`; throws `UsageError` (exit 2) with
 * `usage` appended when they do not fit.
 */
export function parseCommandArgs<const O extends CommandOptions>(
  args: readonly string[],
  options: O,
  usage: string,
) {
  try {
    return parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options,
    }).values;
  } catch (error) {
    throw new UsageError(
      `${error instanceof Error ? error.message : String(error)}\n\n${usage}`,
    );
  }
}

/** The value of a required string option; throws `UsageError` when absent. */
export function requiredOption(
  value: string | boolean | (string | boolean)[] | undefined,
  name: string,
  usage: string,
): string {
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`Missing required option "--${name}"\n\n${usage}`);
  }
  return value;
}
