/**
 * Saying that a GitHub request failed and will be tried again, and when:
 * octokit's retry plugin retries a 5xx or a network error silently, up to
 * `retries` times, the n-th retry n² wait units later. This wraps the
 * `fetch` octokit calls once per attempt, counts the failed attempts of
 * each request (same method, URL and body) and tells `onRetry` before each
 * retry the plugin will make. It announces only; octokit decides.
 *
 * @module
 */

/** Statuses octokit's retry plugin does not retry, and rate limits (its throttling plugin waits for those and says so). */
const NOT_RETRIED = new Set([400, 401, 403, 404, 410, 422, 429, 451]);

/** Options for {@linkcode announceRetries}. */
export interface AnnounceRetriesOptions {
  /** Retries the plugin makes of one request. */
  retries: number;
  /** Milliseconds per wait unit (octokit's `retryAfterBaseValue`). */
  baseMs: number;
  /** The API root, left out of the URL shown. */
  apiUrl: string;
  /** Told `GitHub answered 502 to POST /repos/o/r/check-runs: retry 1 of 3 in 1 s`. */
  onRetry: (message: string) => void;
}

/** `fetch`, telling `onRetry` about each failed attempt octokit will retry. */
export function announceRetries(
  inner: typeof fetch,
  options: AnnounceRetriesOptions,
): typeof fetch {
  const failures = new Map<string, number>();
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? "GET";
    const key = `${method} ${url}\0${
      typeof init?.body === "string" ? init.body : ""
    }`;
    const what = `${method} ${
      url.startsWith(options.apiUrl) ? url.slice(options.apiUrl.length) : url
    }`;
    const failed = (why: string) => {
      const n = (failures.get(key) ?? 0) + 1;
      if (n > options.retries) {
        failures.delete(key);
        return;
      }
      failures.set(key, n);
      options.onRetry(
        `${why}: retry ${n} of ${options.retries} in ${
          wait(n * n * options.baseMs)
        }`,
      );
    };
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      failed(`GitHub did not answer ${what} (${detail})`);
      throw error;
    }
    if (response.status >= 400 && !NOT_RETRIED.has(response.status)) {
      failed(`GitHub answered ${response.status} to ${what}`);
    } else {
      failures.delete(key);
    }
    return response;
  };
}

function wait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
