/**
 * Strict option parsing shared by every command: an unknown option, a
 * positional argument, a missing value, or a single-valued option given
 * twice is a {@linkcode UsageError}, which main.ts reports as
 * `pawl COMMAND: usage error: …` with a pointer to `pawl COMMAND --help`
 * (exit 2).
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../core/usage_error.ts";

export { UsageError } from "../core/usage_error.ts";

/** The option table of one command. */
export type CommandOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parse `args` against `options`; throws {@linkcode UsageError} when they
 * do not fit.
 *
 * @example
 * ```ts
 * import { parseCommandArgs, UsageError } from "./parse_command_args.ts";
 * const v = parseCommandArgs(["--now", "2026-11-30T12:00:00Z"], { now: { type: "string" } });
 * if (v.now !== "2026-11-30T12:00:00Z") throw new Error();
 * try {
 *   parseCommandArgs(["--now", "a", "--now", "b"], { now: { type: "string" } });
 *   throw new Error("a repeated option was accepted");
 * } catch (error) {
 *   if (!(error instanceof UsageError)) throw error;
 * }
 * ```
 */
export function parseCommandArgs<const O extends CommandOptions>(
  args: readonly string[],
  options: O,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      tokens: true,
      options,
    });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message : String(error),
    );
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    const option = options[token.name];
    if (option?.type !== "string" || option.multiple === true) continue;
    if (seen.has(token.name)) {
      throw new UsageError(
        `Option "--${token.name}" is given more than once; it takes one value`,
      );
    }
    seen.add(token.name);
  }
  return parsed.values;
}

/** The value of a required string option; throws `UsageError` when absent. */
export function requiredOption(
  value: string | boolean | (string | boolean)[] | undefined,
  name: string,
): string {
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`Missing required option "--${name}"`);
  }
  return value;
}

/** Whether a command line asks for help (`--help` or `-h` before any `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}

/**
 * What pawl prints for a usage error of `command`: the problem, and where
 * the command's usage is. A message that still ends with the command's
 * usage text is shown without it.
 *
 * @example
 * ```ts
 * import { usageErrorText } from "./parse_command_args.ts";
 * const text = usageErrorText("check", "Unknown option '--frob'");
 * if (!text.startsWith("pawl check: usage error: Unknown option '--frob'\n")) throw new Error();
 * ```
 */
export function usageErrorText(
  command: string,
  message: string,
  usage = "",
): string {
  const suffix = `\n\n${usage}`;
  const problem = usage !== "" && message.endsWith(suffix)
    ? message.slice(0, -suffix.length)
    : message;
  return `pawl ${command}: usage error: ${problem}\n` +
    `Run "pawl ${command} --help" for its usage.\n`;
}
