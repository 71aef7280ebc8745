/**
 * The GitHub client a command builds from its environment: `GITHUB_TOKEN`,
 * `GITHUB_API_URL`, and two tuning variables the tests use to shrink every
 * wait (`PAWL_GITHUB_RETRY_BASE_MS`: milliseconds per second of backoff,
 * rate-limit wait and write spacing; `PAWL_GITHUB_TIMEOUT_MS`: per-request
 * time limit).
 *
 * @module
 */
import { createGitHubClient, type GitHubClient } from "./github_client.ts";
import { DEFAULT_API_URL } from "./parse_pull_request_ref.ts";

/** A client and what it was built from. */
export interface ClientFromEnv {
  /** The octokit-backed client. */
  client: GitHubClient;
  /** The API base URL in use. */
  apiUrl: string;
  /** The token, when one is set. */
  token: string | undefined;
}

/** Build the client from the (once-read) environment. */
export function clientFromEnv(
  env: Readonly<Record<string, string>>,
  options: { onWait?: (message: string) => void } = {},
): ClientFromEnv {
  const token = env["GITHUB_TOKEN"] || undefined;
  const apiUrl = env["GITHUB_API_URL"] || DEFAULT_API_URL;
  const knob = (name: string) => {
    const value = Number(env[name] || NaN);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const retryBaseMs = knob("PAWL_GITHUB_RETRY_BASE_MS");
  const timeoutMs = knob("PAWL_GITHUB_TIMEOUT_MS");
  const client = createGitHubClient({
    ...(token === undefined ? {} : { token }),
    apiUrl,
    ...(retryBaseMs === undefined ? {} : { retryBaseMs }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  });
  return { client, apiUrl, token };
}
