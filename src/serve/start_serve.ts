/**
 * Wire `pawl serve` together: the queue, the App's tokens, the workers,
 * and the HTTP server; stop gracefully on request.
 *
 * @module
 */
import { defaultSetupCache } from "../setup/default_setup_cache.ts";
import { sandboxLeaseFrom } from "../sandbox/lease_uid.ts";
import { readSigningKey } from "../sign/signing_key.ts";
import { VERSION } from "../version.ts";
import { createAppTokens } from "./app_auth.ts";
import type { Announce, Judge, Publish } from "./judge.ts";
import { createLogger, type Logger } from "./logger.ts";
import { Metrics } from "./metrics.ts";
import { openPostgresQueue } from "./postgres_queue.ts";
import { queueUrlWithPassword } from "./queue_url_with_password.ts";
import type { JobQueue } from "./queue.ts";
import type { SecretSource, ServeConfig } from "./serve_config.ts";
import { createServeHandler } from "./serve_handler.ts";
import { openSqliteQueue } from "./sqlite_queue.ts";
import { WorkerPool } from "./worker_pool.ts";
import { createPipelineJudge } from "./_judge_with_pipeline.ts";
import { createGitHubPublish } from "./_publish_with_github.ts";
import { createGitHubAnnounce } from "./_announce_with_github.ts";

/** Options for {@linkcode startServe}. */
export interface StartServeOptions {
  /** The judge (default: the pipeline of `pawl check --pr`). */
  judge?: Judge;
  /** The publisher (default: check run, status, sticky comment). */
  publish?: Publish;
  /** Marks a judgement started (default: in-progress check run, pending status). */
  announce?: Announce;
  /** Where log lines go (default stderr). */
  write?: (line: string) => void;
  /** The environment (publishing knobs). */
  env?: Readonly<Record<string, string>>;
}

/** A running server. */
export interface RunningServe {
  /** Bound address. */
  hostname: string;
  /** Bound port. */
  port: number;
  /** The queue (tests, operations). */
  queue: JobQueue;
  /** Counters. */
  metrics: Metrics;
  /** Stop accepting, finish or release running jobs, close. */
  shutdown(): Promise<void>;
}

/** The worker pool's timings, in milliseconds. */
export interface PoolTimings {
  /** How long a job's lease lasts before another worker may take it. */
  leaseMs: number;
  /** The first retry's wait. */
  backoffMs: number;
  /** The longest single retry wait. */
  backoffCapMs: number;
  /** How long a job keeps retrying. */
  deadlineMs: number;
  /** How often an idle worker looks for work: a quarter lease, at most a second. */
  pollMs: number;
  /** How long running jobs may finish on shutdown. */
  shutdownGraceMs: number;
}

/** The configuration's seconds as the worker pool's milliseconds. */
export function poolTimings(
  config: Pick<
    ServeConfig,
    | "leaseSeconds"
    | "backoffSeconds"
    | "backoffMaxSeconds"
    | "deadlineSeconds"
    | "shutdownGraceSeconds"
  >,
): PoolTimings {
  return {
    leaseMs: config.leaseSeconds * 1000,
    backoffMs: config.backoffSeconds * 1000,
    backoffCapMs: config.backoffMaxSeconds * 1000,
    deadlineMs: config.deadlineSeconds * 1000,
    pollMs: Math.min(1000, config.leaseSeconds * 250),
    shutdownGraceMs: config.shutdownGraceSeconds * 1000,
  };
}

/** Read a secret from its variable or file. */
export async function readSecret(source: SecretSource): Promise<string> {
  if (source.kind === "value") return source.value;
  try {
    return await Deno.readTextFile(source.path);
  } catch (error) {
    throw new Error(
      `Cannot read the file named by ${source.from} ("${source.path}"): ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}

/** Start serving. */
export async function startServe(
  config: ServeConfig,
  options: StartServeOptions = {},
): Promise<RunningServe> {
  const secret = (await readSecret(config.webhookSecret!)).trim();
  const privateKey = config.privateKey === undefined
    ? undefined
    : await readSecret(config.privateKey);
  const token = config.token === undefined
    ? undefined
    : (await readSecret(config.token)).trim();
  const signingPem = config.signingKey === undefined
    ? undefined
    : await readSecret(config.signingKey);
  // A password file's trailing newline is not part of the password.
  // Stryker disable Regex: differs only for a password with a line break before its end, which no database login holds
  const queuePassword = config.queuePassword === undefined
    ? undefined
    : (await readSecret(config.queuePassword)).replace(/\r?\n$/, "");
  // Stryker restore Regex
  const logger: Logger = createLogger({
    write: options.write ??
      ((line) => Deno.stderr.writeSync(new TextEncoder().encode(line))),
    secrets: [
      secret,
      // Stryker disable ArrayDeclaration: an empty list given an entry masks one more text, which no line holds
      ...(privateKey === undefined ? [] : [privateKey.trim()]),
      ...(token === undefined ? [] : [token]),
      ...(signingPem === undefined ? [] : [signingPem.trim()]),
      // Stryker disable next-line ConditionalExpression,StringLiteral: the logger masks no text under four characters, so an empty password is left out either way
      ...(queuePassword === undefined || queuePassword === ""
        ? []
        : [queuePassword]),
      // Stryker restore ArrayDeclaration
    ],
  });
  const { log } = logger;
  const signing = signingPem === undefined ? undefined : {
    key: await readSigningKey(signingPem, config.signingKey!.from),
    // Stryker disable next-line OptionalChaining: a signing key was read, so config.signingKey is set
    ...(config.signingKey?.kind === "file"
      ? { path: await Deno.realPath(config.signingKey.path) }
      : {}),
  };
  const env = options.env ?? {};
  // Each judgement leases its own sandbox uid (PAWL_SANDBOX_UIDS, …).
  const sandboxLease = sandboxLeaseFrom(undefined, env);
  await Deno.mkdir(config.dataDir, { recursive: true });
  const queue = config.queueUrl === undefined
    ? openSqliteQueue(`${config.dataDir}/queue.db`)
    : await openPostgresQueue(
      queuePassword === undefined
        ? config.queueUrl
        : queueUrlWithPassword(config.queueUrl, queuePassword),
      {
        onError: (error) =>
          log("queue.connection_error", { error: error.message }),
      },
    );
  const metrics = new Metrics();
  const tokens = config.appId === undefined ? undefined : createAppTokens({
    appId: config.appId,
    privateKey: privateKey!,
    apiUrl: config.apiUrl,
    onToken: (issued, installationId) => {
      logger.mask(issued);
      log("app.token_issued", { installation: installationId });
    },
  });
  // Stryker disable ConditionalExpression,LogicalOperator,StringLiteral,EqualityOperator,ObjectLiteral: the pace of publishing's retries only (the tests shrink it); no answer depends on it
  const retryBaseMs = Number(env["PAWL_GITHUB_RETRY_BASE_MS"] || NaN);
  const clientOptions = Number.isFinite(retryBaseMs) && retryBaseMs > 0
    ? { retryBaseMs }
    : {};
  // Stryker restore ConditionalExpression,LogicalOperator,StringLiteral,EqualityOperator,ObjectLiteral
  const { shutdownGraceMs, ...timings } = poolTimings(config);
  const pool = new WorkerPool({
    queue,
    judge: options.judge ?? createPipelineJudge({
      isolation: config.isolation,
      sandboxLease,
      // Stryker disable next-line ArithmeticOperator: only how many uids a judgement leaves free for the other workers, which the pipeline judge's tests pin; a test here needs a uid range run short
      othersWaiting: config.workers - 1,
      gitStallSeconds: config.gitStallSeconds,
      // Stryker disable next-line ObjectLiteral: only where the setup cache lives (the system's for root, else the user's); the same setups are cached and no verdict changes
      setupCache: defaultSetupCache(env, { uid: Deno.uid() }),
      // Stryker disable next-line ConditionalExpression: the pipeline judge takes a tempRoot of undefined as none given
      ...(config.tempDir === undefined ? {} : { tempRoot: config.tempDir }),
      // Stryker disable next-line ConditionalExpression: the pipeline judge files verdicts only with a signing key; without one the directory is never used
      ...(signing === undefined
        ? {}
        : { signing, verdictDir: `${config.dataDir}/verdicts` }),
    }),
    publish: options.publish ?? createGitHubPublish(clientOptions),
    announce: options.announce ?? createGitHubAnnounce(clientOptions),
    concurrency: config.workers,
    ...timings,
    apiUrl: config.apiUrl,
    token: (installationId) => {
      if (tokens !== undefined) {
        if (installationId === undefined) {
          return Promise.reject(
            new Error("the delivery names no App installation"),
          );
        }
        return tokens.get(installationId);
      }
      return Promise.resolve(token);
    },
    // A plain GITHUB_TOKEN cannot be renewed; an App's tokens can.
    ...(tokens === undefined ? {} : {
      forgetToken: (installationId: number | undefined, rejected: string) => {
        // Stryker disable next-line ConditionalExpression: an App's job got the rejected token for its installation, so it names one
        if (installationId !== undefined) {
          tokens.forget(installationId, rejected);
        }
      },
    }),
    log,
    metrics,
  });
  let accepting = true;
  const server = Deno.serve(
    { hostname: config.host, port: config.port, onListen: () => {} },
    createServeHandler({
      secret,
      queue,
      metrics,
      log,
      maxBodyBytes: config.maxBodyBytes,
      clock: Date.now,
      // Stryker disable next-line ArrowFunction: waking the workers only spares a new job the wait for their next look, at most a second
      onQueued: () => pool.wake(),
      accepting: () => accepting,
    }),
  );
  pool.start();
  log("serve.started", {
    host: server.addr.hostname,
    port: server.addr.port,
    queue: config.queueUrl === undefined ? "sqlite" : "postgres",
    workers: config.workers,
    app: config.appId ?? null,
    signing: signing?.key.keyid ?? null,
    version: VERSION,
  });
  let stopping: Promise<void> | undefined;
  return {
    hostname: server.addr.hostname,
    port: server.addr.port,
    queue,
    metrics,
    shutdown() {
      stopping ??= (async () => {
        // Stryker disable next-line BooleanLiteral: server.shutdown() below takes no request from here on, so no handler reads the flag in between
        accepting = false;
        log("serve.stopping", { graceSeconds: config.shutdownGraceSeconds });
        await server.shutdown();
        await pool.stop(shutdownGraceMs);
        await queue.close();
        log("serve.stopped", {});
      })();
      return stopping;
    },
  };
}
