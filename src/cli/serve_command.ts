/**
 * `pawl serve`: the GitHub App webhook server that judges every pull
 * request of the installations it serves (docs/serve.md).
 *
 * @module
 */
import { type DocumentedOptions, optionsHelp } from "./options_help.ts";
import { resolveServeConfig, ServeConfigError } from "../serve/serve_config.ts";
import { startServe } from "../serve/start_serve.ts";
import type { CliIo } from "./cli_io.ts";
import { parseCommandArgs, UsageError } from "./parse_command_args.ts";

/** The options of `serve`. */
export const SERVE_OPTIONS = {
  host: {
    type: "string",
    doc: {
      value: "ADDR",
      text: "listen address (default 127.0.0.1; PAWL_SERVE_HOST)",
    },
  },
  port: {
    type: "string",
    doc: { value: "N", text: "listen port (default 8080; PAWL_SERVE_PORT)" },
  },
  "data-dir": {
    type: "string",
    doc: {
      value: "DIR",
      text: "SQLite queue and signed verdicts (default ./pawl-data)",
    },
  },
  "queue-url": {
    type: "string",
    doc: {
      value: "URL",
      text: "shared PostgreSQL queue, no password (PAWL_SERVE_QUEUE_URL)",
    },
  },
  workers: {
    type: "string",
    doc: {
      value: "N",
      text: "concurrent judgements (default 2; PAWL_SERVE_WORKERS)",
    },
  },
  config: {
    type: "string",
    doc: {
      value: "FILE",
      text: "TOML file with the same settings (PAWL_SERVE_CONFIG)",
    },
  },
} as const satisfies DocumentedOptions;

/** Usage text for `serve`. */
export const SERVE_USAGE = `Usage:
  pawl serve [--host ADDR] [--port N] [--data-dir DIR] [--queue-url postgres://…]
             [--workers N] [--config FILE]

Receives a GitHub App's webhooks (pull_request opened/synchronize/reopened/
ready_for_review, check_run and check_suite rerequested), queues each pull
request at its base and head commits once, judges it like "pawl check --pr"
with the delivery's timestamp as the clock, and publishes the check run
"pawl", a commit status and one sticky comment.

Options:
${optionsHelp(SERVE_OPTIONS)}
Secrets, from a variable or the file its *_FILE variable names:
  PAWL_SERVE_WEBHOOK_SECRET   the App's webhook secret (required)
  PAWL_SERVE_APP_ID, PAWL_SERVE_PRIVATE_KEY   the App id and private key (PEM)
  PAWL_SIGNING_KEY            Ed25519 key that signs each verdict (optional)
  PAWL_SERVE_QUEUE_PASSWORD   the PostgreSQL queue's password (never in a flag)
Endpoints: POST / (or /webhook), GET /healthz, /readyz, /metrics.
SIGTERM (or SIGINT, SIGHUP, SIGQUIT): stop accepting, let running jobs finish
within PAWL_SERVE_SHUTDOWN_GRACE_SECONDS (default 30), give the rest back.
`;

/** The signals that stop the server gracefully. */
const STOP_SIGNALS: readonly Deno.Signal[] = [
  "SIGTERM",
  "SIGINT",
  "SIGHUP",
  "SIGQUIT",
];

/** Run `pawl serve` until SIGTERM, SIGINT, SIGHUP or SIGQUIT; returns the exit code. */
export async function serveCommand(
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const v = parseCommandArgs(args, SERVE_OPTIONS);
  const configPath = v.config ?? (io.env["PAWL_SERVE_CONFIG"] || undefined);
  let file: { path: string; text: string } | undefined;
  if (configPath !== undefined) {
    try {
      file = { path: configPath, text: await Deno.readTextFile(configPath) };
    } catch (error) {
      throw new UsageError(
        `Cannot read serve config "${configPath}": ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }
  let config;
  try {
    const flags: Record<string, string> = {};
    for (
      const key of ["host", "port", "data-dir", "queue-url", "workers"] as const
    ) {
      const value = v[key];
      if (typeof value === "string") flags[key] = value;
    }
    config = resolveServeConfig({
      flags,
      env: io.env,
      ...(file === undefined ? {} : { file }),
    });
  } catch (error) {
    if (error instanceof ServeConfigError) throw new UsageError(error.message);
    throw error;
  }
  const running = await startServe(config, { write: io.err, env: io.env });
  io.out(
    `pawl serve: listening on http://${running.hostname}:${running.port}\n`,
  );
  const stopped = Promise.withResolvers<void>();
  const stop = () => stopped.resolve();
  // SIGHUP and SIGQUIT too: as a container's PID 1 (no --init) a signal
  // without a handler would be ignored, not end the server.
  for (const signal of STOP_SIGNALS) Deno.addSignalListener(signal, stop);
  try {
    await stopped.promise;
    await running.shutdown();
  } finally {
    for (const signal of STOP_SIGNALS) {
      Deno.removeSignalListener(signal, stop);
    }
  }
  return 0;
}
