/**
 * Option entries several commands take with the same meaning, written
 * once so their parsing and their help cannot drift apart.
 *
 * @module
 */
import type { DocumentedOptions } from "./options_help.ts";

/** `-h`, `--help`: the command's usage. */
export const HELP_OPTION = {
  help: { type: "boolean", short: "h", default: false, doc: {} },
} as const satisfies DocumentedOptions;

/** `--quiet`: no progress on stderr. */
export const QUIET_OPTION = {
  quiet: {
    type: "boolean",
    default: false,
    doc: { text: "no progress on stderr" },
  },
} as const satisfies DocumentedOptions;

/** `--isolation MODE`: the sandbox tier. */
export const ISOLATION_OPTION = {
  isolation: {
    type: "string",
    default: "auto",
    doc: {
      value: "MODE",
      text: "auto (default), bwrap, unshare, uid, or none",
    },
  },
} as const satisfies DocumentedOptions;

/** `--sandbox-path PATH`: PATH inside the sandbox. */
export const SANDBOX_PATH_OPTION = {
  "sandbox-path": {
    type: "string",
    doc: {
      value: "PATH",
      text: "PATH inside the sandbox (default /usr/local/bin:/usr/bin:/bin)",
    },
  },
} as const satisfies DocumentedOptions;
