/**
 * A fake GitHub for the end-to-end tests: a real HTTP server on 127.0.0.1
 * serving the REST endpoints pawl uses (and the pull request list a later
 * audit feature reads), plus git's smart HTTP protocol through
 * `git http-backend`, so `clone_url` can be an authenticated http URL.
 * It records every request, can require a token, and can inject failures
 * (5xx, rate limits, 401/403/404), slow answers, outages of everything for
 * a while, and the revocation of installation tokens before their expiry.
 *
 * @module
 */
import { createHmac, createPublicKey, verify } from "node:crypto";
import { basename, dirname } from "node:path";

/** One request the fake received. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path without the API prefix and query (git requests keep `/git/...`). */
  path: string;
  /** The query string parameters. */
  query: Record<string, string>;
  /** Headers, lower-case names. */
  headers: Record<string, string>;
  /** The JSON body, the text body, or undefined (git bodies are not kept). */
  body: unknown;
  /** `Date.now()` when it arrived. */
  at: number;
  /** The status answered. */
  status: number;
  /** Whether an injection answered it. */
  injected: boolean;
}

/** A failure or delay to inject, matched in order before routing. */
export interface Injection {
  /** Method to match (any when absent). */
  method?: string;
  /** Path to match: exact string (without the API prefix) or a pattern. */
  path?: string | RegExp;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Status to answer; absent for a delay only (then routed as usual). */
  status?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** JSON body (default `{ message }` for the status). */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait for this before answering (a test holds a request while it looks around). */
  hold?: Promise<unknown>;
  /**
   * Revoke every installation token issued so far, before their stated
   * expiry, then route the request as usual (which then sees the revocation).
   */
  revokeTokens?: boolean;
}

/** A pull request to serve. */
export interface FakePullRequestSpec {
  /** Number. */
  number: number;
  /** Base branch name (default `main`). */
  baseRef?: string;
  /** Base commit. */
  baseSha: string;
  /** Head branch name (default `feature`). */
  headRef?: string;
  /** Head commit. */
  headSha: string;
  /** `OWNER/REPO` of the head (default the base repository: not a fork). */
  headRepo?: string | null;
  /** `updated_at` (default `2026-11-30T11:00:00Z`). */
  updatedAt?: string;
  /** `open` (default) or `closed`. */
  state?: "open" | "closed";
  /** Merged (for the pull request list). */
  merged?: boolean;
  /** Title. */
  title?: string;
}

/** How pawl is told to clone a repository. */
export type CloneVia = "file" | "http";

/** Options for {@linkcode startFakeGitHub}. */
export interface FakeGitHubOptions {
  /** When set, every request must carry this token (API: `token`/`Bearer`; git: Basic `x-access-token`). */
  token?: string;
  /** When set, git requests must carry this token instead of `token`. */
  gitToken?: string;
  /** API path prefix, e.g. `/api/v3` for GitHub Enterprise (default none). */
  apiPrefix?: string;
  /** Largest page size served (GitHub's is 100). */
  maxPerPage?: number;
  /**
   * Act as a GitHub App's host: `POST /app/installations/{id}/access_tokens`
   * verifies the App's JWT (RS256) with `publicKeyPem` and issues tokens
   * that the API and git then accept (besides `token`).
   */
  app?: FakeAppOptions;
}

/** The GitHub App the fake knows. */
export interface FakeAppOptions {
  /** The App id (the JWT's `iss`). */
  id: number;
  /** The App's public key, PEM. */
  publicKeyPem: string;
  /** Installation ids that exist. */
  installations: number[];
  /** How long an issued token lasts (default one hour). */
  tokenTtlMs?: number;
}

/** An installation token the fake issued. */
export interface FakeIssuedToken {
  /** The token. */
  token: string;
  /** Its installation. */
  installationId: number;
  /** `Date.now()` after which it is refused. */
  expiresAt: number;
  /** Refused from now on although not expired (see {@linkcode FakeGitHub.revokeTokens}). */
  revoked?: boolean;
}

/** A stored check run. */
export interface FakeCheckRun {
  /** Id. */
  id: number;
  /** Repository. */
  repo: string;
  /** Name. */
  name: string;
  /** Commit. */
  headSha: string;
  /** Status. */
  status: string;
  /** Conclusion. */
  conclusion: string | null;
  /** Its place among completions (1 for the first check run completed), once completed. */
  completedOrder?: number;
  /** Latest title. */
  title: string;
  /** Latest summary. */
  summary: string;
  /** Every annotation, in the order received. */
  annotations: Record<string, unknown>[];
}

/** A stored commit status. */
export interface FakeStatus {
  /** Repository. */
  repo: string;
  /** Commit. */
  sha: string;
  /** State. */
  state: string;
  /** Context. */
  context: string;
  /** Description. */
  description: string;
  /** Link. */
  targetUrl: string | null;
}

/** A stored issue comment. */
export interface FakeComment {
  /** Id. */
  id: number;
  /** Repository. */
  repo: string;
  /** Issue or pull request number. */
  issue: number;
  /** Body. */
  body: string;
  /** Author login. */
  user: string;
}

interface Repository {
  gitDir: string;
  cloneVia: CloneVia;
  pulls: Map<number, FakePullRequestSpec>;
}

/** The running fake; dispose of it to stop the server. */
export class FakeGitHub implements AsyncDisposable {
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** Check runs created. */
  readonly checkRuns: FakeCheckRun[] = [];
  /** Commit statuses set. */
  readonly statuses: FakeStatus[] = [];
  /** Issue comments (all repositories). */
  readonly comments: FakeComment[] = [];
  /** Installation tokens issued (App mode). */
  readonly issuedTokens: FakeIssuedToken[] = [];

  #server: Deno.HttpServer<Deno.NetAddr>;
  #options: FakeGitHubOptions;
  #repos = new Map<string, Repository>();
  #injections: Injection[] = [];
  #nextId = 1000;
  #outageUntil = 0;
  #completions = 0;
  #outageStatus = 503;

  private constructor(options: FakeGitHubOptions) {
    this.#options = options;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
  }

  /** Start a fake on a free port of 127.0.0.1. */
  static start(options: FakeGitHubOptions = {}): FakeGitHub {
    return new FakeGitHub(options);
  }

  /** `http://127.0.0.1:PORT` (no API prefix). */
  get origin(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** The API root to give pawl as `GITHUB_API_URL`. */
  get url(): string {
    return `${this.origin}${this.#options.apiPrefix ?? ""}`;
  }

  /** Serve `fullName` (`OWNER/REPO`) from the bare repository `gitDir`. */
  addRepository(
    fullName: string,
    options: { gitDir: string; cloneVia?: CloneVia },
  ): void {
    this.#repos.set(fullName.toLowerCase(), {
      gitDir: options.gitDir,
      cloneVia: options.cloneVia ?? "file",
      pulls: new Map(),
    });
  }

  /** Serve a pull request of `fullName`; returns its API object. */
  addPullRequest(
    fullName: string,
    spec: FakePullRequestSpec,
  ): Record<string, unknown> {
    this.#repo(fullName).pulls.set(spec.number, spec);
    return this.pullRequestJson(fullName, spec.number);
  }

  /** The API object of a pull request, as `GET .../pulls/{n}` answers it. */
  pullRequestJson(fullName: string, number: number): Record<string, unknown> {
    const repo = this.#repo(fullName);
    const spec = repo.pulls.get(number);
    if (spec === undefined) throw new Error(`No pull request ${number}`);
    const cloneUrl = repo.cloneVia === "http"
      ? `${this.origin}/git/${fullName}.git`
      : `file://${repo.gitDir}`;
    const headRepo = spec.headRepo === undefined ? fullName : spec.headRepo;
    const web = `${this.origin}/${fullName}`;
    return {
      url: `${this.url}/repos/${fullName}/pulls/${number}`,
      id: 500000 + number,
      number,
      state: spec.state ?? "open",
      title: spec.title ?? `Pull request ${number}`,
      "html_url": `${web}/pull/${number}`,
      "created_at": "2026-11-01T09:00:00Z",
      "updated_at": spec.updatedAt ?? "2026-11-30T11:00:00Z",
      "merged_at": spec.merged ? "2026-11-30T11:30:00Z" : null,
      merged: spec.merged ?? false,
      draft: false,
      user: { login: "agent-bot[bot]", type: "Bot" },
      head: {
        label: `${(headRepo ?? "ghost/x").split("/")[0]}:${
          spec.headRef ?? "feature"
        }`,
        ref: spec.headRef ?? "feature",
        sha: spec.headSha,
        repo: headRepo === null ? null : {
          "full_name": headRepo,
          "clone_url": `${this.origin}/git/${headRepo}.git`,
          fork: headRepo.toLowerCase() !== fullName.toLowerCase(),
        },
      },
      base: {
        label: `${fullName.split("/")[0]}:${spec.baseRef ?? "main"}`,
        ref: spec.baseRef ?? "main",
        sha: spec.baseSha,
        repo: {
          "full_name": fullName,
          "clone_url": cloneUrl,
          "html_url": web,
          fork: false,
        },
      },
    };
  }

  /**
   * The `pull_request` webhook payload GitHub sends for a pull request
   * this fake serves (`action`: opened, synchronize, …).
   */
  pullRequestEvent(
    fullName: string,
    number: number,
    options: { action: string; installationId?: number },
  ): Record<string, unknown> {
    const pr = this.pullRequestJson(fullName, number);
    const base = pr["base"] as { repo: Record<string, unknown> };
    return {
      action: options.action,
      number,
      "pull_request": pr,
      repository: base.repo,
      ...(options.installationId === undefined
        ? {}
        : { installation: { id: options.installationId } }),
      sender: { login: "agent-bot[bot]" },
    };
  }

  /** Inject a failure or delay. */
  inject(injection: Injection): void {
    this.#injections.push({ ...injection, times: injection.times ?? 1 });
  }

  /**
   * An outage: every request (the App's token endpoint, the API and git)
   * is answered `status` for the next `ms` milliseconds.
   */
  outage(ms: number, status = 503): void {
    this.#outageUntil = Date.now() + ms;
    this.#outageStatus = status;
  }

  /** Revoke every installation token issued so far, before its stated expiry. */
  revokeTokens(): void {
    for (const token of this.issuedTokens) token.revoked = true;
  }

  /** Drop every pending injection (an outage ends). */
  clearInjections(): void {
    this.#injections = [];
  }

  /** Inject a primary rate limit (403, `x-ratelimit-remaining: 0`) resetting in `resetInSeconds`. */
  injectRateLimit(
    match: Pick<Injection, "method" | "path" | "times">,
    resetInSeconds: number,
  ): number {
    const reset = Math.floor(Date.now() / 1000) + resetInSeconds;
    this.inject({
      ...match,
      status: 403,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      },
      body: {
        message: "API rate limit exceeded for installation ID 1.",
        "documentation_url": "https://docs.github.com/rest/rate-limit",
      },
    });
    return reset;
  }

  /** Add a comment, as someone else would. */
  addComment(
    fullName: string,
    issue: number,
    body: string,
    user = "someone",
  ): FakeComment {
    const comment = {
      id: this.#nextId++,
      repo: fullName.toLowerCase(),
      issue,
      body,
      user,
    };
    this.comments.push(comment);
    return comment;
  }

  /** Requests to the REST API (not git), optionally only `method`. */
  apiRequests(method?: string): RecordedRequest[] {
    return this.requests.filter((r) =>
      !r.path.startsWith("/git/") &&
      (method === undefined || r.method === method)
    );
  }

  /** Stop the server. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  /** Stop the server. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #repo(fullName: string): Repository {
    const repo = this.#repos.get(fullName.toLowerCase());
    if (repo === undefined) throw new Error(`No repository "${fullName}"`);
    return repo;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [k, v] of request.headers) headers[k.toLowerCase()] = v;
    const isGit = url.pathname.startsWith("/git/");
    const prefix = this.#options.apiPrefix ?? "";
    let path = url.pathname;
    if (!isGit && prefix !== "") {
      path = path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : "";
    }
    const raw = new Uint8Array(await request.arrayBuffer());
    let body: unknown = undefined;
    if (!isGit && raw.length > 0) {
      const text = new TextDecoder().decode(raw);
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const record: RecordedRequest = {
      method: request.method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      at: Date.now(),
      status: 0,
      injected: false,
    };
    this.requests.push(record);
    const response = await this.#answer(request.method, url, path, {
      headers,
      body,
      raw,
      isGit,
      record,
    });
    record.status = response.status;
    return response;
  }

  async #answer(
    method: string,
    url: URL,
    path: string,
    req: {
      headers: Record<string, string>;
      body: unknown;
      raw: Uint8Array;
      isGit: boolean;
      record: RecordedRequest;
    },
  ): Promise<Response> {
    const injection = this.#injections.find((i) =>
      (i.times ?? 0) > 0 &&
      (i.method === undefined || i.method === method) &&
      (i.path === undefined ||
        (typeof i.path === "string" ? i.path === path : i.path.test(path)))
    );
    if (Date.now() < this.#outageUntil) {
      req.record.injected = true;
      return req.isGit
        ? new Response(`${statusText(this.#outageStatus)}\n`, {
          status: this.#outageStatus,
        })
        : json(this.#outageStatus, {
          message: statusText(this.#outageStatus),
        });
    }
    if (injection !== undefined) {
      injection.times = (injection.times ?? 1) - 1;
      if (injection.revokeTokens === true) this.revokeTokens();
      if (injection.delayMs !== undefined) {
        await new Promise((r) => setTimeout(r, injection.delayMs));
      }
      await injection.hold;
      if (injection.status !== undefined) {
        req.record.injected = true;
        return json(
          injection.status,
          injection.body ?? { message: statusText(injection.status) },
          injection.headers,
        );
      }
    }
    if (req.isGit) return await this.#git(method, url, req);
    if (path.startsWith("/app/")) return this.#app(method, path, req.headers);
    if (!this.#authorized(req.headers["authorization"], "api")) {
      return json(401, {
        message: "Bad credentials",
        "documentation_url": "https://docs.github.com/rest",
      });
    }
    return this.#rest(method, url, path, req.body);
  }

  #authorized(header: string | undefined, kind: "api" | "git"): boolean {
    const token = kind === "git"
      ? this.#options.gitToken ?? this.#options.token
      : this.#options.token;
    if (this.#options.app !== undefined) {
      if (header === undefined) return false;
      const given = kind === "git"
        ? /^Basic (.*)$/.exec(header)?.[1]
        : /^(?:token|bearer) (.*)$/i.exec(header)?.[1];
      const plain = kind === "git" && given !== undefined
        ? atob(given).replace(/^x-access-token:/, "")
        : given;
      const now = Date.now();
      if (
        this.issuedTokens.some((t) =>
          t.token === plain && t.expiresAt > now && t.revoked !== true
        )
      ) return true;
      if (token === undefined) return false;
    }
    if (token === undefined) return true;
    if (header === undefined) return false;
    if (kind === "git") {
      return header === `Basic ${btoa(`x-access-token:${token}`)}`;
    }
    return /^(?:token|bearer) (.*)$/i.exec(header)?.[1] === token;
  }

  /** `POST /app/installations/{id}/access_tokens`, authenticated by the App's JWT. */
  #app(
    method: string,
    path: string,
    headers: Record<string, string>,
  ): Response {
    const app = this.#options.app;
    const match = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    if (app === undefined || match === null || method !== "POST") {
      return notFound();
    }
    const jwt = /^bearer (.+)$/i.exec(headers["authorization"] ?? "")?.[1];
    const problem = jwt === undefined
      ? "no JWT"
      : checkAppJwt(jwt, app.id, app.publicKeyPem);
    if (problem !== undefined) {
      return json(401, {
        message: `A JSON web token could not be decoded: ${problem}`,
      });
    }
    const installationId = Number(match[1]);
    if (!app.installations.includes(installationId)) return notFound();
    const expiresAt = Date.now() + (app.tokenTtlMs ?? 3_600_000);
    const token = `ghs_${crypto.randomUUID().replaceAll("-", "")}`;
    this.issuedTokens.push({ token, installationId, expiresAt });
    return json(201, {
      token,
      "expires_at": new Date(expiresAt).toISOString().replace(/\.\d+Z$/, "Z"),
      permissions: {
        checks: "write",
        statuses: "write",
        "pull_requests": "write",
        contents: "read",
      },
      "repository_selection": "all",
    });
  }

  #rest(method: string, url: URL, path: string, body: unknown): Response {
    const parts = path.split("/").filter((p) => p !== "");
    if (parts[0] !== "repos" || parts.length < 4) return notFound();
    const fullName = `${parts[1]}/${parts[2]}`;
    const repo = this.#repos.get(fullName.toLowerCase());
    if (repo === undefined) return notFound();
    const rest = parts.slice(3);
    const route = `${method} ${
      rest.map((p, i) =>
        (rest[0] === "statuses" || rest[0] === "commits") && i === 1
          ? ":sha"
          : /^\d+$/.test(p)
          ? ":n"
          : p
      ).join("/")
    }`;
    const n = Number(rest.find((p) => /^\d+$/.test(p)));
    const data = (body ?? {}) as Record<string, unknown>;
    switch (route) {
      case "GET pulls/:n":
        return repo.pulls.has(n)
          ? json(200, this.pullRequestJson(fullName, n))
          : notFound();
      case "GET pulls": {
        const state = url.searchParams.get("state") ?? "open";
        const all = [...repo.pulls.values()]
          .filter((p) => state === "all" || (p.state ?? "open") === state)
          .sort((a, b) => b.number - a.number)
          .map((p) => this.pullRequestJson(fullName, p.number));
        return this.#page(url, all);
      }
      case "POST check-runs": {
        const output = (data["output"] ?? {}) as Record<string, unknown>;
        const run: FakeCheckRun = {
          id: this.#nextId++,
          repo: fullName.toLowerCase(),
          name: String(data["name"]),
          headSha: String(data["head_sha"]),
          status: String(data["status"] ?? "queued"),
          conclusion: (data["conclusion"] as string | undefined) ?? null,
          title: String(output["title"] ?? ""),
          summary: String(output["summary"] ?? ""),
          annotations: [
            ...((output["annotations"] ?? []) as Record<string, unknown>[]),
          ],
        };
        if (run.annotations.length > 50) {
          return json(422, { message: "Only 50 annotations per request" });
        }
        if (run.conclusion !== null) {
          run.status = "completed";
          run.completedOrder = ++this.#completions;
        }
        this.checkRuns.push(run);
        return json(201, this.#checkRunJson(run));
      }
      case "GET commits/:sha/check-runs": {
        const name = url.searchParams.get("check_name");
        const runs = this.checkRuns.filter((r) =>
          r.repo === fullName.toLowerCase() && r.headSha === rest[1] &&
          (name === null || r.name === name)
        ).reverse().map((r) => this.#checkRunJson(r));
        return json(200, { "total_count": runs.length, "check_runs": runs });
      }
      case "PATCH check-runs/:n": {
        const run = this.checkRuns.find((r) => r.id === n);
        if (run === undefined) return notFound();
        const output = (data["output"] ?? {}) as Record<string, unknown>;
        const annotations = (output["annotations"] ?? []) as Record<
          string,
          unknown
        >[];
        if (annotations.length > 50) {
          return json(422, { message: "Only 50 annotations per request" });
        }
        if (run.status === "completed" && data["status"] === "in_progress") {
          // GitHub never reopens a completed check run.
          return json(422, { message: "The check run is already completed" });
        }
        if (output["title"] !== undefined) run.title = String(output["title"]);
        if (output["summary"] !== undefined) {
          run.summary = String(output["summary"]);
        }
        run.annotations.push(...annotations);
        if (data["status"] !== undefined) run.status = String(data["status"]);
        if (data["conclusion"] !== undefined) {
          // GitHub completes a check run given its conclusion.
          run.conclusion = String(data["conclusion"]);
          run.status = "completed";
          run.completedOrder = ++this.#completions;
        }
        return json(200, this.#checkRunJson(run));
      }
      case "POST statuses/:sha": {
        const description = String(data["description"] ?? "");
        if (description.length > 140) {
          return json(422, { message: "description is too long" });
        }
        this.statuses.push({
          repo: fullName.toLowerCase(),
          sha: String(rest[1]),
          state: String(data["state"]),
          context: String(data["context"] ?? "default"),
          description,
          targetUrl: (data["target_url"] as string | undefined) ?? null,
        });
        return json(201, { id: this.#nextId++, state: data["state"] });
      }
      case "GET issues/:n/comments": {
        const list = this.comments
          .filter((c) => c.repo === fullName.toLowerCase() && c.issue === n)
          .map((c) => this.#commentJson(c));
        return this.#page(url, list);
      }
      case "POST issues/:n/comments": {
        const comment = this.addComment(
          fullName,
          n,
          String(data["body"] ?? ""),
          "github-actions[bot]",
        );
        return json(201, this.#commentJson(comment));
      }
      case "PATCH issues/comments/:n": {
        const comment = this.comments.find((c) =>
          c.id === n && c.repo === fullName.toLowerCase()
        );
        if (comment === undefined) return notFound();
        comment.body = String(data["body"] ?? "");
        return json(200, this.#commentJson(comment));
      }
      default:
        return notFound();
    }
  }

  /** One page of `items` with GitHub's `Link` header. */
  #page(url: URL, items: unknown[]): Response {
    const max = this.#options.maxPerPage ?? 100;
    const perPage = Math.min(
      Math.max(Number(url.searchParams.get("per_page") ?? 30) || 30, 1),
      max,
    );
    const page = Math.max(Number(url.searchParams.get("page") ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const links: string[] = [];
    const at = (p: number) => {
      const next = new URL(url);
      next.searchParams.set("page", String(p));
      next.searchParams.set("per_page", String(perPage));
      return `<${next.href}>`;
    };
    if (page < last) {
      links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
    }
    if (page > 1) {
      links.push(`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`);
    }
    return json(
      200,
      items.slice((page - 1) * perPage, page * perPage),
      links.length === 0 ? {} : { link: links.join(", ") },
    );
  }

  #checkRunJson(run: FakeCheckRun): Record<string, unknown> {
    return {
      id: run.id,
      name: run.name,
      "head_sha": run.headSha,
      status: run.status,
      conclusion: run.conclusion,
      "html_url": `${this.origin}/${run.repo}/runs/${run.id}`,
      output: {
        title: run.title,
        summary: run.summary,
        "annotations_count": run.annotations.length,
      },
    };
  }

  #commentJson(c: FakeComment): Record<string, unknown> {
    return {
      id: c.id,
      body: c.body,
      user: { login: c.user, type: c.user.endsWith("[bot]") ? "Bot" : "User" },
      "html_url":
        `${this.origin}/${c.repo}/pull/${c.issue}#issuecomment-${c.id}`,
    };
  }

  /** git's smart HTTP protocol for `/git/OWNER/REPO.git/...`, via `git http-backend`. */
  async #git(
    method: string,
    url: URL,
    req: { headers: Record<string, string>; raw: Uint8Array },
  ): Promise<Response> {
    const match = /^\/git\/([^/]+\/[^/]+?)\.git(\/.*)$/.exec(url.pathname);
    const repo = match === null
      ? undefined
      : this.#repos.get(match[1]!.toLowerCase());
    if (match === null || repo === undefined) {
      return new Response("Repository not found\n", { status: 404 });
    }
    if (!this.#authorized(req.headers["authorization"], "git")) {
      return new Response("Authentication required\n", {
        status: 401,
        headers: { "www-authenticate": 'Basic realm="fake GitHub"' },
      });
    }
    const child = new Deno.Command("git", {
      args: ["http-backend"],
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: "/nonexistent",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_PROJECT_ROOT: dirname(repo.gitDir),
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: `/${basename(repo.gitDir)}${match[2]}`,
        QUERY_STRING: url.search.replace(/^\?/, ""),
        REQUEST_METHOD: method,
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        CONTENT_LENGTH: String(req.raw.length),
        REMOTE_ADDR: "127.0.0.1",
        GIT_PROTOCOL: req.headers["git-protocol"] ?? "",
        HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
      },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(req.raw);
    await writer.close();
    const out = await child.output();
    const bytes = out.stdout;
    let split = -1;
    let skip = 0;
    for (let i = 0; i < bytes.length - 1; i++) {
      if (bytes[i] === 10 && bytes[i + 1] === 10) {
        [split, skip] = [i, 2];
        break;
      }
      if (
        bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 &&
        bytes[i + 3] === 10
      ) {
        [split, skip] = [i, 4];
        break;
      }
    }
    if (split < 0) {
      return new Response(new TextDecoder().decode(out.stderr), {
        status: 500,
      });
    }
    const head = new TextDecoder().decode(bytes.subarray(0, split));
    const headers = new Headers();
    let status = 200;
    for (const line of head.split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
      else headers.append(name, value);
    }
    return new Response(bytes.slice(split + skip), { status, headers });
  }
}

/** Options for {@linkcode sendWebhook}. */
export interface SendWebhookOptions {
  /** The webhook secret the body is signed with. */
  secret: string;
  /** `X-GitHub-Event`. */
  event: string;
  /** `X-GitHub-Delivery` (default a random UUID). */
  deliveryId?: string;
  /** Send this `X-Hub-Signature-256` instead of the right one (`null`: none). */
  signature?: string | null;
}

/**
 * POST `payload` to a webhook receiver the way GitHub does: JSON body,
 * `X-GitHub-Event`, `X-GitHub-Delivery` and `X-Hub-Signature-256`
 * (HMAC-SHA256 of the body under the secret).
 */
export async function sendWebhook(
  url: string,
  payload: unknown,
  options: SendWebhookOptions,
): Promise<{ status: number; body: string }> {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "GitHub-Hookshot/fake",
    "x-github-event": options.event,
    "x-github-delivery": options.deliveryId ?? crypto.randomUUID(),
  };
  const signature = options.signature === undefined
    ? `sha256=${
      createHmac("sha256", options.secret).update(body).digest("hex")
    }`
    : options.signature;
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  const response = await fetch(url, { method: "POST", headers, body });
  return { status: response.status, body: await response.text() };
}

/** Start a fake GitHub (same as {@linkcode FakeGitHub.start}). */
export function startFakeGitHub(options: FakeGitHubOptions = {}): FakeGitHub {
  return FakeGitHub.start(options);
}

/** A bare repository the fake serves, with `refs/pull/N/head` refs. */
export interface BareRemote extends AsyncDisposable {
  /** The bare repository's path. */
  gitDir: string;
  /** Point `ref` at `rev` (a commit id or a ref of the remote). */
  setRef(ref: string, rev: string): Promise<void>;
  /** Delete `ref`. */
  deleteRef(ref: string): Promise<void>;
}

/**
 * A bare copy of the work tree `source` (all branches), with
 * `refs/pull/N/head` set for each entry of `pulls` (number → revision of
 * `source`).
 */
export async function makeBareRemote(
  source: string,
  pulls: Record<number, string> = {},
): Promise<BareRemote> {
  const parent = await Deno.makeTempDir({ prefix: "pawl-fake-remote-" });
  const gitDir = `${parent}/repo.git`;
  const run = async (args: string[]) => {
    const out = await new Deno.Command("git", {
      args,
      env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(
        `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    return new TextDecoder().decode(out.stdout).trim();
  };
  await run(["clone", "--quiet", "--bare", "--no-local", source, gitDir]);
  const remote: BareRemote = {
    gitDir,
    async setRef(ref, rev) {
      const sha = await run([
        `--git-dir=${gitDir}`,
        "rev-parse",
        "--verify",
        `${rev}^{commit}`,
      ]);
      await run([`--git-dir=${gitDir}`, "update-ref", ref, sha]);
    },
    async deleteRef(ref) {
      await run([`--git-dir=${gitDir}`, "update-ref", "-d", ref]);
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(parent, { recursive: true });
    },
  };
  for (const [number, rev] of Object.entries(pulls)) {
    await remote.setRef(`refs/pull/${number}/head`, rev);
  }
  return remote;
}

/** Why the App JWT is not acceptable, or undefined when it is. */
function checkAppJwt(
  jwt: string,
  appId: number,
  publicKeyPem: string,
): string | undefined {
  const parts = jwt.split(".");
  if (parts.length !== 3) return "not three parts";
  const decode = (part: string) =>
    JSON.parse(
      new TextDecoder().decode(
        Uint8Array.from(
          atob(part.replaceAll("-", "+").replaceAll("_", "/")),
          (c) => c.charCodeAt(0),
        ),
      ),
    );
  let header, claims;
  try {
    header = decode(parts[0]!);
    claims = decode(parts[1]!);
  } catch {
    return "not JSON";
  }
  if (header.alg !== "RS256") return `algorithm ${header.alg}`;
  const signature = Uint8Array.from(
    atob(parts[2]!.replaceAll("-", "+").replaceAll("_", "/")),
    (c) => c.charCodeAt(0),
  );
  const ok = verify(
    "RSA-SHA256",
    new TextEncoder().encode(`${parts[0]}.${parts[1]}`),
    createPublicKey(publicKeyPem),
    signature,
  );
  if (!ok) return "bad signature";
  if (String(claims.iss) !== String(appId)) return `issuer ${claims.iss}`;
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== "number" || claims.exp < now) return "expired";
  if (typeof claims.iat !== "number" || claims.iat > now + 60) {
    return "issued in the future";
  }
  return undefined;
}

function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

function notFound(): Response {
  return json(404, {
    message: "Not Found",
    "documentation_url": "https://docs.github.com/rest",
  });
}

function statusText(status: number): string {
  switch (status) {
    case 401:
      return "Bad credentials";
    case 403:
      return "Resource not accessible by integration";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return `Status ${status}`;
  }
}
