/**
 * Reading a failed GitHub or git call: how long GitHub asked us to wait
 * (`Retry-After`, or a rate limit's reset), and whether the token was
 * turned away (a 401, or git's authentication failure), which a fresh
 * installation token may cure.
 *
 * @module
 */
import { GitError } from "../git/git_error.ts";

/** git's words when the server refused its credentials. */
const GIT_AUTH_FAILURE =
  /could not read Username|Authentication failed|returned error: 401|HTTP 401|Invalid username or password/i;

/**
 * The error and each `cause` under it, outermost first; never null or
 * undefined, and eight at most, so a cause that loops back ends.
 */
function chain(error: unknown): unknown[] {
  // Stryker disable next-line ArrayDeclaration: a string among the links is neither an HTTP answer nor a GitError
  const found: unknown[] = [];
  let at = error;
  while (at !== undefined && at !== null && found.length < 8) {
    found.push(at);
    at = (at as { cause?: unknown }).cause;
  }
  return found;
}

/** An HTTP answer's status and headers, from one link of {@linkcode chain}. */
function httpOf(
  error: unknown,
): { status: number; headers: Record<string, unknown> } | undefined {
  const status = (error as { status?: unknown }).status;
  if (typeof status !== "number") return undefined;
  const response = (error as { response?: { headers?: unknown } }).response;
  const headers = typeof response?.headers === "object" &&
      response.headers !== null
    ? response.headers as Record<string, unknown>
    : {};
  return { status, headers };
}

/**
 * How long GitHub asked to be left alone, ms from `now` (epoch ms):
 * `Retry-After` seconds, or the reset of an exhausted rate limit;
 * undefined when it did not say.
 */
export function retryAfterMs(error: unknown, now: number): number | undefined {
  for (const link of chain(error)) {
    const http = httpOf(link);
    if (http === undefined) continue;
    const after = Number(http.headers["retry-after"]);
    if (Number.isFinite(after) && after >= 0) return after * 1000;
    const reset = Number(http.headers["x-ratelimit-reset"]);
    if (
      String(http.headers["x-ratelimit-remaining"]) === "0" &&
      Number.isFinite(reset) && reset > 0
    ) {
      return Math.max(reset * 1000 - now, 0);
    }
  }
  return undefined;
}

/** Whether GitHub or git turned the token away (401, or git's "Authentication failed"). */
export function isTokenRejection(error: unknown): boolean {
  return chain(error).some((link) =>
    httpOf(link)?.status === 401 ||
    (link instanceof GitError &&
      GIT_AUTH_FAILURE.test(`${link.message}\n${link.stderr}`))
  );
}
