/**
 * Structured logs: one JSON object per line, with every configured secret
 * masked wherever it appears.
 *
 * @module
 */

/**
 * GitHub's token shapes: installation (`ghs_`), OAuth (`gho_`), personal
 * (`ghp_`, `github_pat_`), user-to-server (`ghu_`) and refresh (`ghr_`)
 * tokens. They are masked even when no one named them as secrets.
 */
const GITHUB_TOKEN = /(?:gh[oprsu]_|github_pat_)[A-Za-z0-9_]{8,}/g;

/** Writes one event. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

/** Options for {@linkcode createLogger}. */
export interface LoggerOptions {
  /** Writes one line (with its newline). */
  write: (line: string) => void;
  /** Text that must never appear (secrets, tokens); grows with {@linkcode Logger.mask}. */
  secrets?: readonly string[];
  /** The time stamp (the server's clock; logs are not decisions). */
  clock?: () => Date;
}

/** A logger and the set of secrets it masks. */
export interface Logger {
  /** Write one event. */
  log: Log;
  /** Never print `secret` from now on (an installation token, once issued). */
  mask(secret: string): void;
}

/**
 * Build a logger.
 *
 * @example
 * ```ts
 * import { createLogger } from "./logger.ts";
 * const lines: string[] = [];
 * const { log } = createLogger({ write: (l) => lines.push(l), secrets: ["hunter2"] });
 * log("job.failed", { error: "token hunter2 refused" });
 * if (lines[0]!.includes("hunter2")) throw new Error("leaked");
 * ```
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = new Set(
    // Stryker disable next-line ArrayDeclaration: a made-up secret in place of none masks only a text no log line holds
    (options.secrets ?? []).filter((s) => s.length >= 4),
  );
  const clock = options.clock ?? (() => new Date());
  return {
    log(event, fields = {}) {
      // The event name wins over a field of the same name.
      let line = JSON.stringify({
        time: clock().toISOString(),
        ...fields,
        event,
      });
      for (const secret of secrets) {
        line = line.replaceAll(secret, "***")
          .replaceAll(JSON.stringify(secret).slice(1, -1), "***");
      }
      line = line.replace(GITHUB_TOKEN, "***");
      options.write(line + "\n");
    },
    mask(secret) {
      if (secret.length >= 4) secrets.add(secret);
    },
  };
}
