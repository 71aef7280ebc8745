/**
 * Progress for long steps: a live line on a terminal, quiet line-oriented
 * messages in CI logs. Always on stderr so stdout stays clean for `--json`.
 *
 * @module
 */

import type { Progress } from "../core/progress.ts";

export { type Progress, SILENT_PROGRESS } from "../core/progress.ts";

/** Options for {@linkcode createProgress}. */
export interface CreateProgressOptions {
  /** Whether stderr is an interactive terminal. */
  terminal: boolean;
  /** Where bytes go (stderr). */
  write: (text: string) => void;
}

/**
 * Make a progress reporter. On a terminal the current step and its latest
 * detail share one line that is rewritten in place; elsewhere each step is
 * one plain line and details are not printed.
 */
export function createProgress(options: CreateProgressOptions): Progress {
  let current = "";
  let live = false;
  const clear = () => {
    if (live) options.write("\r\x1b[2K");
    live = false;
  };
  if (!options.terminal) {
    return {
      step(label) {
        options.write(`pawl: ${label}\n`);
      },
      detail() {},
      note(text) {
        options.write(`pawl: ${text}\n`);
      },
      end() {},
    };
  }
  return {
    step(label) {
      clear();
      current = label;
      options.write(`\x1b[2m… ${label}\x1b[0m`);
      live = true;
    },
    detail(text) {
      clear();
      const line = `… ${current}: ${text}`.replace(/[\r\n]+/g, " ");
      options.write(`\x1b[2m${line.slice(0, 100)}\x1b[0m`);
      live = true;
    },
    note(text) {
      clear();
      options.write(`${text}\n`);
    },
    end() {
      clear();
    },
  };
}
