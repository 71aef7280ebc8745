/**
 * The queue URL with the database password from its own secret put in,
 * so the password never has to be written into the URL (or a flag).
 *
 * @module
 */

/**
 * `url` with `password` as its password (percent-encoded); a password the
 * URL already holds is replaced.
 *
 * @example
 * ```ts
 * import { queueUrlWithPassword } from "./queue_url_with_password.ts";
 * const url = queueUrlWithPassword("postgres://pawl@db:5432/pawl", "p@ss:w/rd");
 * if (url !== "postgres://pawl:p%40ss%3Aw%2Frd@db:5432/pawl") throw new Error(url);
 * ```
 */
export function queueUrlWithPassword(url: string, password: string): string {
  const parsed = new URL(url);
  if (parsed.username === "") {
    throw new TypeError(
      `Cannot add the database password to the queue URL: it names no user (expected postgres://USER@HOST/DATABASE)`,
    );
  }
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}
