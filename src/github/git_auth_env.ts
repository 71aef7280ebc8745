/**
 * Authenticating git's https fetches with the GitHub token without
 * putting it on a command line or in a URL.
 *
 * @module
 */

/**
 * Environment that gives git an `http.<origin>/.extraHeader` carrying the
 * token (`Authorization: Basic base64("x-access-token:TOKEN")`, as
 * `actions/checkout` does), through `GIT_CONFIG_COUNT`/`KEY_0`/`VALUE_0`:
 * environment config is not shown in `ps`, not written to the clone's
 * config, and is scoped to the clone URL's origin so no other host sees
 * it. Empty for a missing token or a non-http(s) URL.
 *
 * @example
 * ```ts
 * import { gitAuthEnv } from "./git_auth_env.ts";
 * const env = gitAuthEnv("https://github.com/octo/widgets.git", "ghs_x");
 * if (env["GIT_CONFIG_KEY_0"] !== "http.https://github.com/.extraheader") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function gitAuthEnv(
  cloneUrl: string,
  token: string | undefined,
): Record<string, string> {
  if (token === undefined || token === "") return {};
  let url: URL;
  try {
    url = new URL(cloneUrl);
  } catch {
    return {};
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return {};
  const basic = btoa(`x-access-token:${token}`);
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${url.origin}/.extraheader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}
