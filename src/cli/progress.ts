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

/** A {@linkcode Progress} that keeps what it is told until released. */
export interface HeldProgress extends Progress {
  /** Pass everything kept, and from now on everything, to the target. */
  release(): void;
  /** Drop everything kept and everything after. */
  discard(): void;
}

/**
 * Hold the progress of work started before it is known whether its
 * output belongs on stderr (a clone started while the command line is
 * still being checked): released, it is replayed in order; discarded, it
 * never shows.
 */
export function holdProgress(target: Progress): HeldProgress {
  let state: "held" | "released" | "discarded" = "held";
  const kept: (() => void)[] = [];
  const pass = (call: () => void) => {
    if (state === "released") call();
    else if (state === "held") kept.push(call);
  };
  return {
    step: (label) => pass(() => target.step(label)),
    detail: (text) => pass(() => target.detail(text)),
    note: (text) => pass(() => target.note(text)),
    end: () => pass(() => target.end()),
    release() {
      if (state !== "held") return;
      state = "released";
      for (const call of kept.splice(0)) call();
    },
    discard() {
      state = "discarded";
      kept.length = 0;
    },
  };
}
