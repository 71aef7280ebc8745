/**
 * Reading `--pr`: `OWNER/REPO#N` or a pull request's web address.
 *
 * @module
 */

/** The public API of GitHub.com, used when `GITHUB_API_URL` is unset. */
export const DEFAULT_API_URL = "https://api.github.com";

/** One pull request of one repository. */
export interface PullRequestRef {
  /** Repository owner (user or organisation). */
  owner: string;
  /** Repository name. */
  repo: string;
  /** Pull request number. */
  number: number;
}

/** Options for {@linkcode parsePullRequestRef}. */
export interface ParsePullRequestRefOptions {
  /**
   * The REST API root (`GITHUB_API_URL`); a web address must be on the
   * same GitHub: `github.com` for `https://api.github.com`, the API's own
   * host for GitHub Enterprise (`https://ghe.example.com/api/v3`).
   */
  apiUrl?: string;
}

/** `--pr` is not a pull request reference pawl understands. */
export class PullRequestRefError extends TypeError {
  /** Build the error. */
  constructor(message: string) {
    super(message);
    this.name = "PullRequestRefError";
  }
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,98}[A-Za-z0-9_])?$/;
const REPO = /^[A-Za-z0-9_.-]{1,100}$/;
const NUMBER = /^[1-9][0-9]{0,9}$/;

/**
 * Parse `OWNER/REPO#N`, `https://github.com/OWNER/REPO/pull/N` (anything
 * after the number, such as `/files` or a fragment, is ignored), or the
 * same address on the GitHub Enterprise host `options.apiUrl` names.
 *
 * @example
 * ```ts
 * import { parsePullRequestRef } from "./parse_pull_request_ref.ts";
 * const a = parsePullRequestRef("octo/widgets#7");
 * const b = parsePullRequestRef("https://github.com/octo/widgets/pull/7/files");
 * const c = parsePullRequestRef("https://ghe.example.com/octo/widgets/pull/7", {
 *   apiUrl: "https://ghe.example.com/api/v3",
 * });
 * for (const ref of [a, b, c]) {
 *   if (ref.owner !== "octo" || ref.repo !== "widgets" || ref.number !== 7) {
 *     throw new Error("unexpected");
 *   }
 * }
 * ```
 */
export function parsePullRequestRef(
  text: string,
  options: ParsePullRequestRefOptions = {},
): PullRequestRef {
  const fail = (reason: string) =>
    new PullRequestRefError(
      `Cannot read pull request ${JSON.stringify(text)}: ${reason}`,
    );
  const short = /^([^/#\s]+)\/([^/#\s]+)#([^#\s]+)$/.exec(text);
  if (short !== null) {
    return checked(short[1]!, short[2]!, short[3]!, fail);
  }
  if (!/^https?:\/\//i.test(text)) {
    throw fail(
      'expected "OWNER/REPO#NUMBER" or "https://github.com/OWNER/REPO/pull/NUMBER"',
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail("not a valid URL");
  }
  if (url.username !== "" || url.password !== "") {
    throw fail("the address must not carry credentials");
  }
  const webHosts = webHostsFor(options.apiUrl ?? DEFAULT_API_URL);
  if (!webHosts.includes(url.host.toLowerCase())) {
    throw fail(
      `host ${JSON.stringify(url.host)} is not the GitHub of the API ${
        JSON.stringify(options.apiUrl ?? DEFAULT_API_URL)
      } (set GITHUB_API_URL for GitHub Enterprise)`,
    );
  }
  const parts = url.pathname.split("/").filter((p) => p !== "");
  const [owner, repo, pull, number] = parts;
  if (
    owner === undefined || repo === undefined || pull !== "pull" ||
    number === undefined
  ) {
    throw fail('expected a path of the form "/OWNER/REPO/pull/NUMBER"');
  }
  return checked(owner, repo, number, fail);
}

/** `OWNER/REPO` of a reference. */
export function repoSlug(ref: Pick<PullRequestRef, "owner" | "repo">): string {
  return `${ref.owner}/${ref.repo}`;
}

/** `OWNER/REPO#N` of a reference. */
export function formatPullRequestRef(ref: PullRequestRef): string {
  return `${repoSlug(ref)}#${ref.number}`;
}

/**
 * The web hosts whose pull request addresses belong to the API at
 * `apiUrl`: `github.com` for `api.github.com`, else the API's own host.
 */
function webHostsFor(apiUrl: string): string[] {
  let host: string;
  try {
    host = new URL(apiUrl).host.toLowerCase();
  } catch {
    return [];
  }
  if (host === "api.github.com") return ["github.com", "www.github.com"];
  return [host];
}

function checked(
  owner: string,
  repo: string,
  number: string,
  fail: (reason: string) => PullRequestRefError,
): PullRequestRef {
  if (!OWNER.test(owner)) throw fail(`invalid owner ${JSON.stringify(owner)}`);
  const name = repo.replace(/\.git$/, "");
  if (!REPO.test(name) || name === "." || name === "..") {
    throw fail(`invalid repository name ${JSON.stringify(repo)}`);
  }
  if (!NUMBER.test(number) || Number(number) > 2 ** 31 - 1) {
    throw fail(`invalid pull request number ${JSON.stringify(number)}`);
  }
  return { owner, repo: name, number: Number(number) };
}
