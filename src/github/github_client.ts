/**
 * The GitHub REST calls pawl makes, as a small interface, and its adapter
 * over octokit (with octokit's retry and throttling plugins: backoff on
 * 5xx, waits for rate limits, spaced writes).
 *
 * @module
 */
import { Octokit, RequestError } from "octokit";
import { VERSION } from "../version.ts";
import { quietOctokit } from "./quiet_octokit.ts";
import { SpacedGroup } from "./_spaced_group.ts";
import { announceRetries } from "./_announce_retries.ts";
import {
  DEFAULT_API_URL,
  formatPullRequestRef,
  type PullRequestRef,
  repoSlug,
} from "./parse_pull_request_ref.ts";

/** A repository on GitHub. */
export interface RepoRef {
  /** Owner. */
  owner: string;
  /** Name. */
  repo: string;
}

/** One check run annotation. */
export interface Annotation {
  /** Repository-relative path. */
  path: string;
  /** 1-based first line. */
  startLine: number;
  /** 1-based last line. */
  endLine: number;
  /** `failure` for blocking findings, `notice` otherwise. */
  level: "notice" | "warning" | "failure";
  /** What to do about it. */
  message: string;
  /** Short heading (the rule id). */
  title?: string;
}

/** A check run's `output`. */
export interface CheckRunOutput {
  /** One line. */
  title: string;
  /** Markdown. */
  summary: string;
  /** At most 50 per request. */
  annotations: Annotation[];
}

/** `POST /repos/{owner}/{repo}/check-runs`, completed at once. */
export interface CreateCheckRunRequest {
  /** Check name (`pawl`). */
  name: string;
  /** The commit judged. */
  headSha: string;
  /** `success` for an accept; `failure` for a reject and when pawl could not decide. */
  conclusion: "success" | "failure";
  /** Title, summary and the first annotations. */
  output: CheckRunOutput;
}

/** A check run marked in progress while the judgement runs. */
export interface StartCheckRunRequest {
  /** Check name (`pawl`). */
  name: string;
  /** The commit being judged. */
  headSha: string;
  /** Title and summary (no annotations yet). */
  output: Omit<CheckRunOutput, "annotations">;
}

/** A check run found on a commit. */
export interface FoundCheckRun {
  /** Its id. */
  id: number;
  /** Its web address. */
  htmlUrl?: string;
  /** Whether it is completed (GitHub then lets no one change its status or conclusion). */
  completed?: boolean;
  /** Its conclusion, once completed. */
  conclusion?: string;
}

/** `POST /repos/{owner}/{repo}/statuses/{sha}`. */
export interface CreateStatusRequest {
  /** `pending` while judging; `success`, `failure`, or `error` when pawl could not decide. */
  state: "pending" | "success" | "failure" | "error";
  /** Status context (`pawl`). */
  context: string;
  /** At most 140 characters. */
  description: string;
  /** Link shown next to the status (the check run). */
  targetUrl?: string;
}

/** An issue (pull request) comment. */
export interface IssueComment {
  /** Comment id. */
  id: number;
  /** Markdown body. */
  body: string;
  /** Author login, when known. */
  author?: string;
}

/** What pawl needs from GitHub. */
export interface GitHub {
  /** The raw pull request object (`GET /repos/{o}/{r}/pulls/{n}`). */
  getPullRequest(ref: PullRequestRef): Promise<unknown>;
  /** Create a check run; returns its id and web address. */
  createCheckRun(
    repo: RepoRef,
    request: CreateCheckRunRequest,
  ): Promise<{ id: number; htmlUrl?: string }>;
  /**
   * The latest check run named `name` on `headSha`, if any. Optional (as
   * are the two below): in-memory fakes may leave them out, and then every
   * publication creates its check run.
   */
  findCheckRun?(
    repo: RepoRef,
    headSha: string,
    name: string,
  ): Promise<FoundCheckRun | undefined>;
  /** Mark check run `id` in progress, or create one so when `id` is undefined. */
  startCheckRun?(
    repo: RepoRef,
    id: number | undefined,
    request: StartCheckRunRequest,
  ): Promise<FoundCheckRun>;
  /** Complete check run `id` in place, with the conclusion and first annotations. */
  completeCheckRun?(
    repo: RepoRef,
    id: number,
    request: CreateCheckRunRequest,
  ): Promise<FoundCheckRun>;
  /** Add output (more annotations) to a check run. */
  updateCheckRun(
    repo: RepoRef,
    id: number,
    output: CheckRunOutput,
  ): Promise<void>;
  /** Set a commit status on `sha`. */
  createStatus(
    repo: RepoRef,
    sha: string,
    request: CreateStatusRequest,
  ): Promise<void>;
  /** Every comment of an issue or pull request, all pages. */
  listIssueComments(repo: RepoRef, issue: number): Promise<IssueComment[]>;
  /** Comment on an issue or pull request; returns the new comment's id. */
  createIssueComment(
    repo: RepoRef,
    issue: number,
    body: string,
  ): Promise<{ id: number }>;
  /** Replace a comment's body. */
  updateIssueComment(repo: RepoRef, id: number, body: string): Promise<void>;
  /**
   * The raw pull request objects of a repository (`GET
   * /repos/{o}/{r}/pulls`), every page. Optional because only `pawl audit`
   * lists, and in-memory fakes that serve a publisher need not; the octokit
   * adapter always has it.
   */
  listPullRequests?(
    repo: RepoRef,
    options?: ListPullRequestsOptions,
  ): Promise<unknown[]>;
}

/** Options for {@linkcode GitHub.listPullRequests}. */
export interface ListPullRequestsOptions {
  /** Which pull requests: `all` (the default), `open` or `closed` (merged ones included). */
  state?: "all" | "open" | "closed";
  /** Told after each page with the number of pull requests listed so far. */
  onPage?: (listed: number) => void;
}

/** The octokit adapter: a {@linkcode GitHub} that has every optional call. */
export type GitHubClient =
  & GitHub
  & Required<
    Pick<
      GitHub,
      "listPullRequests" | "findCheckRun" | "startCheckRun" | "completeCheckRun"
    >
  >;

/**
 * A GitHub request failed for good (after any retries): the message says
 * what was attempted, GitHub's answer, and the token permission that
 * would allow it.
 */
export class GitHubApiError extends Error {
  /** HTTP status (undefined when GitHub could not be reached). */
  readonly status: number | undefined;
  /** The permission the call needs, e.g. `checks: write`. */
  readonly permission: string;

  /** Build the error. */
  constructor(
    message: string,
    options: {
      status: number | undefined;
      permission: string;
      cause?: unknown;
    },
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "GitHubApiError";
    this.status = options.status;
    this.permission = options.permission;
  }
}

/** Options for {@linkcode createGitHubClient}. */
export interface GitHubClientOptions {
  /** The token (`GITHUB_TOKEN`); anonymous without one. */
  token?: string;
  /** REST API root (`GITHUB_API_URL`); default `https://api.github.com`. */
  apiUrl?: string;
  /**
   * Milliseconds per "second" of every wait: the retry backoff (1, 4, 9
   * units), rate-limit waits and the spacing of writes (1 unit). Default
   * 1000; tests pass a few.
   */
  retryBaseMs?: number;
  /** Retries of a request that failed with a 5xx or a network error (default 3). */
  retries?: number;
  /** Longest rate-limit wait worth taking, in seconds (default 300). */
  maxRateLimitWaitSeconds?: number;
  /** Per-request time limit in milliseconds (default 30000). */
  timeoutMs?: number;
  /** Told about each rate-limit wait, and before each retry of a failed request. */
  onWait?: (message: string) => void;
}

/** The permission each call needs, for error messages. */
const PERMISSIONS = {
  readPull: '"pull-requests: read" (or "contents: read")',
  checks: '"checks: write"',
  statuses: '"statuses: write"',
  readComments: '"pull-requests: read" (or "issues: read")',
  listPulls: '"pull-requests: read"',
  writeComments: '"pull-requests: write" (or "issues: write")',
} as const;

/**
 * The octokit adapter for {@linkcode GitHub}.
 *
 * @example
 * ```ts ignore
 * import { createGitHubClient } from "./github_client.ts";
 * const github = createGitHubClient({ token: "ghs_…", apiUrl: "https://api.github.com" });
 * const pr = await github.getPullRequest({ owner: "octo", repo: "widgets", number: 7 });
 * ```
 */
export function createGitHubClient(
  options: GitHubClientOptions = {},
): GitHubClient {
  const apiUrl = (options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, "");
  const base = options.retryBaseMs ?? 1000;
  const maxWait = options.maxRateLimitWaitSeconds ?? 300;
  const onLimit = (kind: string) =>
  (
    retryAfter: number,
    request: { method: string; url: string },
    _octokit: unknown,
    retryCount: number,
  ): boolean => {
    const what = `${request.method} ${request.url}`;
    if (retryCount >= 2 || retryAfter > maxWait) return false;
    options.onWait?.(
      `GitHub ${kind} reached for ${what}: retrying in ${retryAfter} s`,
    );
    return true;
  };
  const retries = options.retries ?? 3;
  const timed = timedFetch(options.timeoutMs ?? 30_000);
  const { onWait } = options;
  const retried = onWait === undefined ? timed : announceRetries(timed, {
    retries,
    baseMs: base,
    apiUrl,
    onRetry: onWait,
  });
  const octokit = new Octokit({
    ...(options.token === undefined || options.token === ""
      ? {}
      : { auth: options.token }),
    baseUrl: apiUrl,
    userAgent: `pawl/${VERSION}`,
    ...quietOctokit({ fetch: retried }),
    retry: { retryAfterBaseValue: base, retries },
    throttle: {
      retryAfterBaseValue: base,
      onRateLimit: onLimit("rate limit"),
      onSecondaryRateLimit: onLimit("secondary rate limit"),
      // GitHub asks for a second between writes; scaled like the waits.
      write: new SpacedGroup(base),
      notifications: new SpacedGroup(base),
    },
  });
  const fail = (operation: string, permission: string) => (error: unknown) => {
    throw apiError(error, { operation, permission, apiUrl });
  };

  return {
    async getPullRequest(ref) {
      const response = await octokit.request(
        "GET /repos/{owner}/{repo}/pulls/{pull_number}",
        { owner: ref.owner, repo: ref.repo, "pull_number": ref.number },
      ).catch(
        fail(
          `read pull request "${formatPullRequestRef(ref)}"`,
          PERMISSIONS.readPull,
        ),
      );
      return response.data as unknown;
    },
    async createCheckRun(repo, request) {
      const response = await octokit.request(
        "POST /repos/{owner}/{repo}/check-runs",
        {
          ...repo,
          name: request.name,
          "head_sha": request.headSha,
          status: "completed",
          conclusion: request.conclusion,
          output: wireOutput(request.output),
        },
      ).catch(
        fail(`create the check run on "${repoSlug(repo)}"`, PERMISSIONS.checks),
      );
      const data = response.data as { id?: unknown; "html_url"?: unknown };
      if (typeof data.id !== "number" && typeof data.id !== "bigint") {
        throw new GitHubApiError(
          `Cannot create the check run on "${
            repoSlug(repo)
          }": GitHub's answer has no check run id`,
          { status: response.status, permission: PERMISSIONS.checks },
        );
      }
      const id = Number(data.id);
      return typeof data.html_url === "string"
        ? { id, htmlUrl: data.html_url }
        : { id };
    },
    async findCheckRun(repo, headSha, name) {
      const response = await octokit.request(
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
        { ...repo, ref: headSha, "check_name": name },
      ).catch(
        fail(`list the check runs on "${repoSlug(repo)}"`, PERMISSIONS.checks),
      );
      const found = response.data.check_runs[0];
      return found === undefined ? undefined : foundCheckRun(found);
    },
    async startCheckRun(repo, id, request) {
      const fields = {
        ...repo,
        status: "in_progress" as const,
        output: { ...request.output },
      };
      const response =
        await (id === undefined
          ? octokit.request("POST /repos/{owner}/{repo}/check-runs", {
            ...fields,
            name: request.name,
            "head_sha": request.headSha,
          })
          : octokit.request(
            "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
            { ...fields, "check_run_id": id },
          )).catch(
            fail(
              `mark the check run in progress on "${repoSlug(repo)}"`,
              PERMISSIONS.checks,
            ),
          );
      return foundCheckRun(response.data);
    },
    async completeCheckRun(repo, id, request) {
      const response = await octokit.request(
        "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
        {
          ...repo,
          "check_run_id": id,
          status: "completed",
          conclusion: request.conclusion,
          output: wireOutput(request.output),
        },
      ).catch(
        fail(
          `complete check run ${id} on "${repoSlug(repo)}"`,
          PERMISSIONS.checks,
        ),
      );
      return foundCheckRun(response.data);
    },
    async updateCheckRun(repo, id, output) {
      await octokit.request(
        "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
        { ...repo, "check_run_id": id, output: wireOutput(output) },
      ).catch(
        fail(
          `update check run ${id} on "${repoSlug(repo)}"`,
          PERMISSIONS.checks,
        ),
      );
    },
    async createStatus(repo, sha, request) {
      await octokit.request("POST /repos/{owner}/{repo}/statuses/{sha}", {
        ...repo,
        sha,
        state: request.state,
        context: request.context,
        description: request.description,
        ...(request.targetUrl === undefined
          ? {}
          : { "target_url": request.targetUrl }),
      }).catch(
        fail(
          `set the commit status on "${repoSlug(repo)}" ${sha.slice(0, 12)}`,
          PERMISSIONS.statuses,
        ),
      );
    },
    async listIssueComments(repo, issue) {
      const comments: IssueComment[] = [];
      const pages = octokit.paginate.iterator(
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
        { ...repo, "issue_number": issue, "per_page": 100 },
      );
      try {
        for await (const page of pages) {
          for (const comment of page.data) {
            const author = comment.user?.login;
            comments.push({
              id: Number(comment.id),
              body: comment.body ?? "",
              ...(author === undefined ? {} : { author }),
            });
          }
        }
      } catch (error) {
        fail(
          `list the comments of "${repoSlug(repo)}#${issue}"`,
          PERMISSIONS.readComments,
        )(error);
      }
      return comments;
    },
    async listPullRequests(repo, list = {}) {
      const pulls: unknown[] = [];
      const pages = octokit.paginate.iterator(
        "GET /repos/{owner}/{repo}/pulls",
        {
          ...repo,
          state: list.state ?? "all",
          sort: "created",
          direction: "desc",
          "per_page": 100,
        },
      );
      try {
        for await (const page of pages) {
          pulls.push(...(page.data as unknown[]));
          list.onPage?.(pulls.length);
        }
      } catch (error) {
        fail(
          `list the pull requests of "${repoSlug(repo)}"`,
          PERMISSIONS.listPulls,
        )(error);
      }
      return pulls;
    },
    async createIssueComment(repo, issue, body) {
      const response = await octokit.request(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        { ...repo, "issue_number": issue, body },
      ).catch(
        fail(
          `comment on "${repoSlug(repo)}#${issue}"`,
          PERMISSIONS.writeComments,
        ),
      );
      return { id: Number(response.data.id) };
    },
    async updateIssueComment(repo, id, body) {
      await octokit.request(
        "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}",
        { ...repo, "comment_id": id, body },
      ).catch(
        fail(
          `update comment ${id} on "${repoSlug(repo)}"`,
          PERMISSIONS.writeComments,
        ),
      );
    },
  };
}

/** The id and address of a check run as GitHub returns it. */
function foundCheckRun(
  data: {
    id: unknown;
    "html_url"?: unknown;
    status?: unknown;
    conclusion?: unknown;
  },
): FoundCheckRun {
  return {
    id: Number(data.id),
    completed: data.status === "completed",
    ...(typeof data.html_url === "string" && data.html_url !== ""
      ? { htmlUrl: data.html_url }
      : {}),
    ...(typeof data.conclusion === "string"
      ? { conclusion: data.conclusion }
      : {}),
  };
}

/** GitHub's spelling of a check run output. */
function wireOutput(output: CheckRunOutput) {
  return {
    title: output.title,
    summary: output.summary,
    annotations: output.annotations.map((a) => ({
      path: a.path,
      "start_line": a.startLine,
      "end_line": a.endLine,
      "annotation_level": a.level,
      message: a.message,
      ...(a.title === undefined ? {} : { title: a.title }),
    })),
  };
}

/**
 * `fetch` with a per-request time limit. A timeout surfaces as a network
 * error, which octokit turns into a retryable 500.
 */
function timedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal
      ? AbortSignal.any([init.signal, timeout])
      : timeout;
    try {
      return await fetch(input, { ...init, signal });
    } catch (error) {
      if (timeout.aborted) {
        throw new TypeError(`no answer within ${timeoutMs} ms`);
      }
      throw error;
    }
  };
}

/** A readable {@linkcode GitHubApiError} for a failed call. */
function apiError(
  error: unknown,
  context: { operation: string; permission: string; apiUrl: string },
): GitHubApiError {
  const { operation, permission } = context;
  if (!(error instanceof RequestError)) {
    const detail = error instanceof Error ? error.message : String(error);
    return new GitHubApiError(`Cannot ${operation}: ${detail}`, {
      status: undefined,
      permission,
      cause: error,
    });
  }
  const status = error.status;
  const data = error.response?.data as { message?: unknown } | undefined;
  const said = typeof data?.message === "string" ? data.message : error.message;
  const answered = `GitHub answered ${status} (${JSON.stringify(said)})`;
  const headers = error.response?.headers ?? {};
  let message: string;
  if (error.response === undefined) {
    message = `Cannot ${operation}: cannot reach GitHub at ${
      JSON.stringify(context.apiUrl)
    }: ${error.message}`;
  } else if (status === 401) {
    message =
      `Cannot ${operation}: ${answered}: the token (GITHUB_TOKEN) is missing, expired or invalid`;
  } else if (
    (status === 403 || status === 429) &&
    (headers["x-ratelimit-remaining"] === "0" ||
      /rate limit/i.test(said))
  ) {
    const reset = Number(headers["x-ratelimit-reset"]);
    const until = Number.isFinite(reset) && reset > 0
      ? ` until ${new Date(reset * 1000).toISOString()}`
      : "";
    message =
      `Cannot ${operation}: ${answered}: the rate limit is exhausted${until} and waiting longer was not worth it`;
  } else if (status === 403) {
    message =
      `Cannot ${operation}: ${answered}: the token lacks the permission ${permission} (a pull request from a fork gets a read-only GITHUB_TOKEN)`;
  } else if (status === 404) {
    message =
      `Cannot ${operation}: ${answered}: it does not exist or the token cannot see it; the token needs ${permission}`;
  } else if (status >= 500) {
    message = `Cannot ${operation}: ${answered}, also after retrying`;
  } else {
    message = `Cannot ${operation}: ${answered}`;
  }
  return new GitHubApiError(message, { status, permission, cause: error });
}
