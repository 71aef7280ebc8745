/**
 * Authenticating as a GitHub App: a JWT signed with the App's private key
 * (RS256, by `@octokit/auth-app`) buys an installation access token per
 * installation; each token is reused until shortly before it expires, or
 * until GitHub turns it away (it was revoked early), when it is forgotten.
 *
 * @module
 */
import { createAppAuth } from "@octokit/auth-app";
import { Octokit } from "octokit";
import { quietOctokit } from "../github/quiet_octokit.ts";
import { VERSION } from "../version.ts";

/** Options for {@linkcode createAppTokens}. */
export interface AppTokensOptions {
  /** The App id. */
  appId: number;
  /** The App's private key, PEM (PKCS#1 as GitHub issues it, or PKCS#8). */
  privateKey: string;
  /** REST API root. */
  apiUrl: string;
  /** Renew a token this long before it expires (default 5 minutes). */
  renewBeforeMs?: number;
  /** The server's clock, epoch ms. */
  clock?: () => number;
  /** Told each time a token is issued (to mask it in logs). */
  onToken?: (token: string, installationId: number) => void;
}

/** Installation tokens, cached. */
export interface AppTokens {
  /** A token for the installation: the cached one, or a new one. */
  get(installationId: number): Promise<string>;
  /** Drop `token` from the cache (GitHub rejected it); the next `get` mints one. */
  forget(installationId: number, token: string): void;
}

/** Build the token source for one App. */
export function createAppTokens(options: AppTokensOptions): AppTokens {
  const octokit = new Octokit({
    baseUrl: options.apiUrl.replace(/\/+$/, ""),
    userAgent: `pawl/${VERSION}`,
    ...quietOctokit(),
    retry: { enabled: false },
    throttle: { enabled: false },
  });
  const auth = createAppAuth({
    appId: options.appId,
    privateKey: options.privateKey,
    request: octokit.request,
  });
  const clock = options.clock ?? Date.now;
  const renew = options.renewBeforeMs ?? 5 * 60_000;
  const cache = new Map<number, { token: string; expiresAt: number }>();
  const pending = new Map<number, Promise<string>>();
  const get = (installationId: number): Promise<string> => {
    const cached = cache.get(installationId);
    if (cached !== undefined && cached.expiresAt - renew > clock()) {
      return Promise.resolve(cached.token);
    }
    const inFlight = pending.get(installationId);
    if (inFlight !== undefined) return inFlight;
    const issued = (async () => {
      try {
        const result = await auth({
          type: "installation",
          installationId,
          refresh: true,
        });
        const expiresAt = Date.parse(result.expiresAt);
        cache.set(installationId, { token: result.token, expiresAt });
        options.onToken?.(result.token, installationId);
        return result.token;
      } finally {
        pending.delete(installationId);
      }
    })();
    pending.set(installationId, issued);
    return issued;
  };
  return {
    get,
    forget(installationId, token) {
      // Only that token: another worker may have renewed it already.
      if (cache.get(installationId)?.token === token) {
        cache.delete(installationId);
      }
    },
  };
}
