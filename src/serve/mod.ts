/**
 * `pawl serve`: a GitHub App's webhook server that judges every pull
 * request of its installations. {@linkcode createServeHandler} checks the
 * signature, bounds the body and queues the events pawl judges;
 * {@linkcode JobQueue} is the durable queue (SQLite by default, PostgreSQL
 * for replicas), idempotent per (repository, pull request, base, head);
 * {@linkcode WorkerPool} claims jobs under leases and drives a
 * {@linkcode Judge} and a {@linkcode Publish}; {@linkcode startServe}
 * wires them together with the App's installation tokens.
 *
 * @module
 */
export * from "./job.ts";
export * from "./queue.ts";
export * from "./sqlite_queue.ts";
export * from "./postgres_queue.ts";
export * from "./parse_delivery.ts";
export * from "./verify_signature.ts";
export * from "./serve_handler.ts";
export * from "./judge.ts";
export * from "./worker_pool.ts";
export * from "./app_auth.ts";
export * from "./metrics.ts";
export * from "./process_stats.ts";
export * from "./logger.ts";
export * from "./serve_config.ts";
export * from "./queue_url_with_password.ts";
export * from "./start_serve.ts";
