/**
 * Whether a command may colour what it prints.
 *
 * @module
 */
import type { CliIo } from "./cli_io.ts";

/**
 * Colour only on a terminal, unless `--no-color` was passed or `NO_COLOR`
 * is set to anything but the empty string (https://no-color.org).
 */
export function useColor(io: CliIo, noColorFlag = false): boolean {
  return io.terminal && !noColorFlag && (io.env["NO_COLOR"] ?? "") === "";
}
