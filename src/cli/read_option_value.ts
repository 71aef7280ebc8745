/**
 * A value on the command line that a parser outside the CLI cannot read is
 * the command line's fault: a usage error. The same parsers also read
 * values from elsewhere (an event payload, a pull request's fields), where
 * the same problem means "could not decide", so they throw their own error
 * and the command line turns it into a {@linkcode UsageError} here.
 *
 * @module
 */
import { ClockError, type Instant, parseNow } from "../core/parse_now.ts";
import { UsageError } from "../core/usage_error.ts";

/**
 * Run `read` on an option's value; an error of the kind `refusal` (the
 * parser saying it cannot read the value) becomes a {@linkcode UsageError}
 * with the same message. Any other error passes through.
 *
 * @example
 * ```ts
 * import { readOptionValue } from "./read_option_value.ts";
 * import { UsageError } from "../core/usage_error.ts";
 * const n = readOptionValue(() => Number.parseInt("7", 10), RangeError);
 * if (n !== 7) throw new Error();
 * try {
 *   readOptionValue(() => { throw new RangeError("Cannot read --x"); }, RangeError);
 *   throw new Error("the refusal passed through");
 * } catch (error) {
 *   if (!(error instanceof UsageError)) throw error;
 * }
 * ```
 */
export function readOptionValue<T>(
  read: () => T,
  refusal: abstract new (...args: never[]) => Error,
): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof refusal) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The `--now` option: missing or not an RFC 3339 timestamp is a
 * {@linkcode UsageError} with {@linkcode parseNow}'s explanation.
 *
 * @example
 * ```ts
 * import { parseNowOption } from "./read_option_value.ts";
 * if (parseNowOption("2026-11-30T12:00:00Z").epochMs !== 1796040000000) throw new Error();
 * ```
 */
export function parseNowOption(text: string | undefined): Instant {
  return readOptionValue(() => parseNow(text), ClockError);
}
