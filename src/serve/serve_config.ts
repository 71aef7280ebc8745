/**
 * `pawl serve`'s configuration: command-line flags over `PAWL_SERVE_*`
 * environment variables over a TOML file (`--config`, or
 * `PAWL_SERVE_CONFIG`). Secrets (the webhook secret, the App's private
 * key, the signing key, the database password) come from a variable or
 * from a file named by a `*_FILE` variable or a `*_file` key, never from
 * a flag: a `--queue-url` holding a password is refused. Pure: file
 * contents come in as text.
 *
 * @module
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { z } from "zod";
import { tomlErrorSentence, tomlKeyLines } from "../contract/toml_key_lines.ts";
import type { IsolationRequest } from "../sandbox/probe_isolation.ts";

/** Where a secret comes from. */
export type SecretSource =
  | { kind: "value"; value: string; from: string }
  | { kind: "file"; path: string; from: string };

/** The resolved configuration. */
export interface ServeConfig {
  /** Listen address (default 127.0.0.1; `0.0.0.0` in a container). */
  host: string;
  /** Listen port (default 8080). */
  port: number;
  /** Data directory (SQLite queue, signed verdicts). */
  dataDir: string;
  /** `postgres://…` for the shared queue; undefined for SQLite in `dataDir`. */
  queueUrl: string | undefined;
  /** Concurrent judgements (default 2), each with its own leased sandbox uid. */
  workers: number;
  /** Lease length, seconds. */
  leaseSeconds: number;
  /** First retry backoff, seconds (doubled per attempt). */
  backoffSeconds: number;
  /** Longest single retry backoff, seconds. */
  backoffMaxSeconds: number;
  /** How long a job keeps retrying through failures of GitHub or git, seconds. */
  deadlineSeconds: number;
  /** A clone or fetch under 1 KB/s for this long is abandoned and retried, seconds. */
  gitStallSeconds: number;
  /** Largest webhook body. */
  maxBodyBytes: number;
  /** Seconds to let running jobs finish on SIGTERM. */
  shutdownGraceSeconds: number;
  /** REST API root. */
  apiUrl: string;
  /** The GitHub App id (undefined: no App; `GITHUB_TOKEN` if set). */
  appId: number | undefined;
  /** Sandbox strength. */
  isolation: IsolationRequest;
  /** Parent of each judgement's temp dir. */
  tempDir: string | undefined;
  /** The webhook secret. */
  webhookSecret: SecretSource | undefined;
  /** The App's private key (PEM). */
  privateKey: SecretSource | undefined;
  /** The verdict signing key (Ed25519 PKCS#8 PEM). */
  signingKey: SecretSource | undefined;
  /** A plain token instead of an App (one installation; tests, trials). */
  token: SecretSource | undefined;
  /** The queue database's password, merged into `queueUrl`. */
  queuePassword: SecretSource | undefined;
}

/** A configuration problem; names the file or variable, the key and, in a file, its line. */
export class ServeConfigError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    // Stryker disable next-line StringLiteral: callers tell the error by instanceof and show only its message
    this.name = "ServeConfigError";
  }
}

const ISOLATIONS = ["auto", "bwrap", "unshare", "uid", "none"] as const;

const FILE_SCHEMA = z.strictObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  "data_dir": z.string().min(1).optional(),
  "queue_url": z.string().min(1).optional(),
  workers: z.number().int().min(1).max(256).optional(),
  "lease_seconds": z.number().positive().optional(),
  "backoff_seconds": z.number().positive().optional(),
  "backoff_max_seconds": z.number().positive().optional(),
  "deadline_seconds": z.number().positive().optional(),
  "git_stall_seconds": z.number().int().positive().optional(),
  "max_body_bytes": z.number().int().positive().optional(),
  "shutdown_grace_seconds": z.number().min(0).optional(),
  "api_url": z.url().optional(),
  "app_id": z.number().int().positive().optional(),
  isolation: z.enum(ISOLATIONS).optional(),
  "temp_dir": z.string().min(1).optional(),
  "webhook_secret_file": z.string().min(1).optional(),
  "private_key_file": z.string().min(1).optional(),
  "signing_key_file": z.string().min(1).optional(),
  "queue_password_file": z.string().min(1).optional(),
});

/** Inputs of {@linkcode resolveServeConfig}. */
export interface ServeConfigInput {
  /** Flags given (`--host`, `--port`, `--data-dir`, `--queue-url`, `--workers`). */
  flags: Partial<
    Record<"host" | "port" | "data-dir" | "queue-url" | "workers", string>
  >;
  /** The environment. */
  env: Readonly<Record<string, string>>;
  /** The config file, when one was named. */
  file?: { path: string; text: string };
}

/**
 * Resolve the configuration.
 *
 * @example
 * ```ts
 * import { resolveServeConfig } from "./serve_config.ts";
 * const config = resolveServeConfig({
 *   flags: { port: "9000" },
 *   env: { PAWL_SERVE_WEBHOOK_SECRET: "s3cret", PAWL_SERVE_WORKERS: "4" },
 * });
 * if (config.port !== 9000 || config.workers !== 4) throw new Error("unexpected");
 * ```
 */
export function resolveServeConfig(input: ServeConfigInput): ServeConfig {
  const { env, flags } = input;
  let file: z.infer<typeof FILE_SCHEMA> = {};
  if (input.file !== undefined) {
    const where = `Cannot read serve config ${JSON.stringify(input.file.path)}`;
    let raw: unknown;
    try {
      raw = parseToml(input.file.text);
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: smol-toml's parse throws only TomlError; the check keeps anything else from being reported as bad TOML
      if (!(error instanceof TomlError)) throw error;
      throw new ServeConfigError(
        `${where}: not valid TOML at line ${error.line}: ${
          tomlErrorSentence(error.message)
        }`,
      );
    }
    const parsed = FILE_SCHEMA.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      // Every key of the schema holds a scalar: a problem's key is a top-level one.
      const keys = issue.code === "unrecognized_keys"
        ? issue.keys
        : issue.path.map(String);
      const line = tomlKeyLines(input.file.text)([keys[0]!]);
      // Stryker disable next-line ConditionalExpression,StringLiteral: a top-level key the parser returns is written on a key line or a table header, both of which the scanner records; without a line the message only leaves it out
      const at = line === undefined ? "" : ` at line ${line}`;
      throw new ServeConfigError(
        `${where}: ${
          issue.code === "unrecognized_keys"
            ? "unknown key"
            : "bad value for key"
        } "${keys.join(", ")}"${at}: ${issue.message}`,
      );
    }
    file = parsed.data;
  }
  const text = (
    flag: keyof ServeConfigInput["flags"] | undefined,
    variable: string,
  ) => {
    // Stryker disable next-line ConditionalExpression: flags only ever holds the five flag names, so flags[undefined] is undefined too
    const fromFlag = flag === undefined ? undefined : flags[flag];
    if (fromFlag !== undefined && fromFlag !== "") {
      return { value: fromFlag, from: `--${flag}` };
    }
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv !== "") {
      return { value: fromEnv, from: variable };
    }
    return undefined;
  };
  const number = (
    flag: keyof ServeConfigInput["flags"] | undefined,
    variable: string,
    fromFile: number | undefined,
    fallback: number,
    check: (n: number) => boolean,
  ): number => {
    const given = text(flag, variable);
    if (given === undefined) return fromFile ?? fallback;
    const n = Number(given.value);
    if (!Number.isFinite(n) || !check(n)) {
      throw new ServeConfigError(
        `Bad value ${JSON.stringify(given.value)} for ${given.from}`,
      );
    }
    return n;
  };
  const secret = (
    variable: string,
    fileKey: string | undefined,
  ): SecretSource | undefined => {
    const value = env[variable];
    if (value !== undefined && value !== "") {
      return { kind: "value", value, from: variable };
    }
    const path = env[`${variable}_FILE`];
    if (path !== undefined && path !== "") {
      return { kind: "file", path, from: `${variable}_FILE` };
    }
    // Stryker disable next-line ConditionalExpression,LogicalOperator: with no file the table is empty, and the strict schema never holds a key "undefined"; the checks only narrow the types
    if (fileKey !== undefined && input.file !== undefined) {
      const fromFile = (file as Record<string, unknown>)[fileKey];
      if (typeof fromFile === "string") {
        return {
          kind: "file",
          path: fromFile,
          from: `"${fileKey}" in "${input.file.path}"`,
        };
      }
    }
    return undefined;
  };
  const isolation = text(undefined, "PAWL_SERVE_ISOLATION")?.value ??
    file.isolation ?? "auto";
  if (!(ISOLATIONS as readonly string[]).includes(isolation)) {
    throw new ServeConfigError(
      `Unknown isolation "${isolation}" in PAWL_SERVE_ISOLATION: expected one of ${
        ISOLATIONS.join(", ")
      }`,
    );
  }
  const appId = number(
    undefined,
    "PAWL_SERVE_APP_ID",
    file.app_id,
    0,
    (n) => Number.isSafeInteger(n) && n > 0,
  );
  const config: ServeConfig = {
    host: text("host", "PAWL_SERVE_HOST")?.value ?? file.host ?? "127.0.0.1",
    port: number(
      "port",
      "PAWL_SERVE_PORT",
      file.port,
      8080,
      (n) => Number.isInteger(n) && n >= 0 && n < 65536,
    ),
    dataDir: text("data-dir", "PAWL_SERVE_DATA_DIR")?.value ?? file.data_dir ??
      "./pawl-data",
    queueUrl: text("queue-url", "PAWL_SERVE_QUEUE_URL")?.value ??
      file.queue_url,
    workers: number(
      "workers",
      "PAWL_SERVE_WORKERS",
      file.workers,
      2,
      (n) => Number.isInteger(n) && n >= 1,
    ),
    leaseSeconds: number(
      undefined,
      "PAWL_SERVE_LEASE_SECONDS",
      file.lease_seconds,
      120,
      (n) => n > 0,
    ),
    backoffSeconds: number(
      undefined,
      "PAWL_SERVE_BACKOFF_SECONDS",
      file.backoff_seconds,
      5,
      (n) => n > 0,
    ),
    backoffMaxSeconds: number(
      undefined,
      "PAWL_SERVE_BACKOFF_MAX_SECONDS",
      file.backoff_max_seconds,
      300,
      (n) => n > 0,
    ),
    deadlineSeconds: number(
      undefined,
      "PAWL_SERVE_DEADLINE_SECONDS",
      file.deadline_seconds,
      7200,
      (n) => n > 0,
    ),
    gitStallSeconds: number(
      undefined,
      "PAWL_SERVE_GIT_STALL_SECONDS",
      file.git_stall_seconds,
      60,
      (n) => Number.isInteger(n) && n > 0,
    ),
    maxBodyBytes: number(
      undefined,
      "PAWL_SERVE_MAX_BODY_BYTES",
      file.max_body_bytes,
      25 * 1024 * 1024,
      (n) => Number.isInteger(n) && n > 0,
    ),
    shutdownGraceSeconds: number(
      undefined,
      "PAWL_SERVE_SHUTDOWN_GRACE_SECONDS",
      file.shutdown_grace_seconds,
      30,
      (n) => n >= 0,
    ),
    apiUrl: (text(undefined, "GITHUB_API_URL")?.value ?? file.api_url ??
      "https://api.github.com").replace(/\/+$/, ""),
    appId: appId === 0 ? undefined : appId,
    isolation: isolation as IsolationRequest,
    tempDir: text(undefined, "PAWL_SERVE_TEMP_DIR")?.value ?? file.temp_dir,
    webhookSecret: secret("PAWL_SERVE_WEBHOOK_SECRET", "webhook_secret_file"),
    privateKey: secret("PAWL_SERVE_PRIVATE_KEY", "private_key_file"),
    signingKey: secret("PAWL_SIGNING_KEY", "signing_key_file"),
    token: secret("GITHUB_TOKEN", undefined),
    queuePassword: secret("PAWL_SERVE_QUEUE_PASSWORD", "queue_password_file"),
  };
  if (config.webhookSecret === undefined) {
    throw new ServeConfigError(
      "pawl serve needs the webhook secret: set PAWL_SERVE_WEBHOOK_SECRET or PAWL_SERVE_WEBHOOK_SECRET_FILE (or webhook_secret_file in the config file)",
    );
  }
  if (config.appId !== undefined && config.privateKey === undefined) {
    throw new ServeConfigError(
      "The App id is set but not its private key: set PAWL_SERVE_PRIVATE_KEY or PAWL_SERVE_PRIVATE_KEY_FILE (or private_key_file)",
    );
  }
  if (config.appId === undefined && config.privateKey !== undefined) {
    throw new ServeConfigError(
      "The App's private key is set but not its id: set PAWL_SERVE_APP_ID (or app_id)",
    );
  }
  // Stryker disable next-line ConditionalExpression: with no flag hasPassword tests the text "undefined", which holds no password; the check only narrows the type
  if (flags["queue-url"] !== undefined && hasPassword(flags["queue-url"])) {
    throw new ServeConfigError(
      "Cannot take the database password from --queue-url: a flag shows in the process list; set PAWL_SERVE_QUEUE_PASSWORD_FILE (or PAWL_SERVE_QUEUE_PASSWORD, or queue_password_file) and leave it out of the URL",
    );
  }
  if (config.queuePassword !== undefined && config.queueUrl === undefined) {
    throw new ServeConfigError(
      `${config.queuePassword.from} is set but there is no queue URL: set PAWL_SERVE_QUEUE_URL (or --queue-url, or queue_url)`,
    );
  }
  if (
    // Stryker disable next-line ConditionalExpression: a password without a queue URL was refused just above; the check only narrows the type
    config.queuePassword !== undefined && config.queueUrl !== undefined &&
    !/^[a-z]+:\/\/[^/@]+@/i.test(config.queueUrl)
  ) {
    throw new ServeConfigError(
      `${config.queuePassword.from} is set but the queue URL names no user: expected postgres://USER@HOST/DATABASE`,
    );
  }
  if (
    config.queueUrl !== undefined &&
    !/^postgres(?:ql)?:\/\//.test(config.queueUrl)
  ) {
    throw new ServeConfigError(
      `Unknown queue URL scheme in ${
        text("queue-url", "PAWL_SERVE_QUEUE_URL")?.from ?? "queue_url"
      }: expected postgres://…`,
    );
  }
  return config;
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== "";
  } catch {
    return /^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(url);
  }
}
