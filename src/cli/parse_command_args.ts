/**
 * Strict option parsing shared by every command: an unknown option, a
 * positional argument, a missing or empty value, a value that looks like an
 * option, or a single-valued option given twice is a {@linkcode UsageError},
 * which main.ts reports as `pawl COMMAND: usage error: …` with a pointer to
 * `pawl COMMAND --help` (exit 2).
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
  checkValues(args, options);
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

/**
 * Whether a command line asks for help: `--help` or `-h` as an option of
 * its own, before any `--`. Read against the command's `options`, so an
 * `-h` that is the value of a string option (`--base -h`, as an empty or
 * hostile CI variable leaves it) is not a request for help but a value,
 * which {@linkcode parseCommandArgs} then refuses.
 *
 * @example
 * ```ts
 * import { wantsHelp } from "./parse_command_args.ts";
 * const options = { base: { type: "string" } } as const;
 * if (!wantsHelp(["--base", "main", "-h"], options)) throw new Error();
 * if (wantsHelp(["--base", "-h"], options)) throw new Error();
 * ```
 */
export function wantsHelp(
  args: readonly string[],
  options: CommandOptions,
): boolean {
  return givesFlag(args, options, "help");
}

/**
 * Whether the flag `--name` is given as an option of its own before any
 * `--`, read leniently (as {@linkcode wantsHelp} reads `--help`) so that a
 * command line that does not parse still answers: a `--json` that is the
 * value of a string option (`--base --json`) is not the flag.
 *
 * @example
 * ```ts
 * import { givesFlag } from "./parse_command_args.ts";
 * const options = { base: { type: "string" }, json: { type: "boolean" } } as const;
 * if (!givesFlag(["--frob", "--json"], options, "json")) throw new Error();
 * if (givesFlag(["--base", "--json"], options, "json")) throw new Error();
 * ```
 */
export function givesFlag(
  args: readonly string[],
  options: CommandOptions,
  name: string,
): boolean {
  return looseTokens(args, options).some((token) =>
    token.kind === "option" && token.name === name &&
    token.value === undefined
  );
}

/**
 * The command line read without judging it: a string option takes the
 * next argument whatever it looks like, unknown options are flags.
 */
function looseTokens(args: readonly string[], options: CommandOptions) {
  try {
    return parseArgs({
      args: [...args],
      strict: false,
      allowPositionals: true,
      tokens: true,
      options: { ...options, help: { type: "boolean", short: "h" } },
    }).tokens;
  } catch {
    return [];
  }
}

/**
 * Refuse a string option's value that is empty (`--base ""`, `--base=`:
 * an unset variable) or, given as the next argument, looks like an option
 * (`--base -h`): a value meant to start with "-" is written `--base=-x`.
 */
function checkValues(args: readonly string[], options: CommandOptions): void {
  for (const token of looseTokens(args, options)) {
    if (token.kind !== "option" || token.value === undefined) continue;
    if (options[token.name]?.type !== "string") continue;
    const name = `--${token.name}`;
    if (token.value === "") {
      throw new UsageError(`Option "${name}" is given an empty value`);
    }
    if (
      !token.inlineValue && token.value.length > 1 &&
      token.value.startsWith("-")
    ) {
      throw new UsageError(
        `Option "${name}" is followed by "${token.value}", which looks like an option rather than its value (write "${name}=${token.value}" if the value really starts with "-")`,
      );
    }
  }
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
