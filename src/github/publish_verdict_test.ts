import assert from "node:assert/strict";
import { type Finding, finding } from "../core/finding.ts";
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import { MARKDOWN_MARKER } from "../report/render_markdown.ts";
import { startFakeGitHub } from "../../tests/_fake_github.ts";
import {
  type CheckRunOutput,
  type CreateCheckRunRequest,
  createGitHubClient,
  type CreateStatusRequest,
  type GitHub,
  type IssueComment,
} from "./github_client.ts";
import { publishInProgress } from "./publish_in_progress.ts";
import {
  buildPublication,
  publishVerdict,
  STATUS_DESCRIPTION_MAX,
} from "./publish_verdict.ts";

const HEAD = "8e7d6c5b4a39".padEnd(40, "b");

function verdict(findings: Finding[], clock?: Verdict["clock"]): Verdict {
  return buildVerdict(findings, {
    pawl: { version: "0.1.0" },
    now: "2026-11-30T12:00:00Z",
    ...(clock === undefined ? {} : { clock }),
    repo: "https://github.com/o/r.git",
    base: "3f1c2a9b0d11".padEnd(40, "a"),
    head: HEAD,
    contract: {
      layouts: ["000"],
      files: [{
        path: "tests/agent_contract.yaml",
        layout: "000",
        sha256: "c".repeat(64),
      }],
      digest: `sha256:${"d".repeat(64)}`,
      freezeBodyHashes: [],
    },
    options: { allowFixtureRotate: false, isolation: "auto" },
    isolation: null,
    tests: null,
  });
}

function failures(n: number): Finding[] {
  return Array.from(
    { length: n },
    (_, i) =>
      finding("tests.failed", `Test "test_${i}" failed: assert ${i} < 0`, {
        path: "tests/test_many.py",
        line: 1 + 3 * i,
      }),
  );
}

Deno.test("buildPublication() batches annotations 50 per request", () => {
  const note = finding("config.settings_ignored", "pawl.toml changed", {
    path: "pawl.toml",
    blocking: false,
  });
  const pathless = finding("property.removed", 'Property "a" was removed');
  const p = buildPublication({
    kind: "verdict",
    verdict: verdict([...failures(120), note, pathless]),
    markdown: "# report\n",
  });
  const create = p.checkRun.create;
  assert.equal(create.name, "pawl");
  assert.equal(create.headSha, HEAD);
  assert.equal(create.conclusion, "failure");
  assert.equal(create.output.title, "Reject: 121 blocking findings");
  assert.deepEqual(
    [create.output, ...p.checkRun.updates].map((o) => o.annotations.length),
    [50, 50, 21],
  );
  const all = [create.output, ...p.checkRun.updates].flatMap((o) =>
    o.annotations
  );
  assert.deepEqual(all[0], {
    path: "tests/test_many.py",
    startLine: 1,
    endLine: 1,
    level: "failure",
    message: 'Test "test_0" failed: assert 0 < 0',
    title: "tests.failed",
  });
  // A finding without a line points at line 1; a non-blocking one is a notice.
  assert.deepEqual(all.at(-1), {
    path: "pawl.toml",
    startLine: 1,
    endLine: 1,
    level: "notice",
    message: "pawl.toml changed",
    title: "config.settings_ignored",
  });
  for (const update of p.checkRun.updates) {
    assert.equal(update.title, create.output.title);
    assert.equal(update.summary, create.output.summary);
  }
  assert.match(create.output.summary, /\| Decision \| \*\*reject\*\* \|/);
  assert.match(create.output.summary, /…and 72 more findings\./);
  assert.equal(p.status.request.state, "failure");
  assert.equal(p.status.sha, HEAD);
  assert.equal(p.comment, `${MARKDOWN_MARKER}\n# report\n`);
});

Deno.test("buildPublication() keeps the status description within 140 characters", async (t) => {
  const long = Object.keys({
    "harness.conftest_changed": 1,
    "harness.pytest_config_changed": 1,
    "harness.plugin_changed": 1,
    "property.removed": 1,
    "property.retargeted": 1,
    "property.min_examples_lowered": 1,
    "property.module_missing": 1,
  }) as Finding["rule"][];
  const cases: [string, Verdict][] = [
    [
      "an accept with notes",
      verdict([finding("config.settings_ignored", "x", { blocking: false })]),
    ],
    ["an accept", verdict([])],
    [
      "a reject naming many rules",
      verdict(long.map((rule) => finding(rule, "x"))),
    ],
  ];
  for (const [name, v] of cases) {
    await t.step(name, () => {
      const { description, state } =
        buildPublication({ kind: "verdict", verdict: v, markdown: "" }).status
          .request;
      assert.ok(
        Array.from(description).length <= STATUS_DESCRIPTION_MAX,
        description,
      );
      assert.equal(state, v.decision === "accept" ? "success" : "failure");
    });
  }
  const reject = buildPublication({
    kind: "verdict",
    verdict: cases[2]![1],
    markdown: "",
  });
  assert.match(
    reject.status.request.description,
    /^Reject: 7 blocking findings: harness\.conftest_changed, .*…$/,
  );
  const accept = buildPublication({
    kind: "verdict",
    verdict: cases[0]![1],
    markdown: "",
  });
  assert.equal(
    accept.status.request.description,
    "Accept: no blocking findings, 1 note",
  );
  assert.equal(accept.checkRun.create.conclusion, "success");
});

Deno.test("buildPublication() says where the clock came from", () => {
  const p = buildPublication({
    kind: "verdict",
    verdict: verdict([], { source: "event", field: "pull_request.updated_at" }),
    markdown: MARKDOWN_MARKER + "\nbody",
  });
  assert.match(
    p.checkRun.create.output.summary,
    /from event field `pull_request\.updated_at`/,
  );
  assert.equal(
    p.comment,
    `${MARKDOWN_MARKER}\nbody`,
    "the marker is not doubled",
  );
});

Deno.test("buildPublication() reports could-not-decide as a failing check run with the reason", () => {
  const reason = `Cannot decide: the base commit has no contract ${
    "x".repeat(300)
  }`;
  const p = buildPublication({ kind: "undecided", reason, headSha: HEAD });
  assert.equal(p.checkRun.create.conclusion, "failure");
  assert.equal(p.checkRun.create.output.title, "Could not decide");
  assert.ok(p.checkRun.create.output.summary.includes("has no contract"));
  assert.equal(p.status.request.state, "error");
  assert.equal(
    Array.from(p.status.request.description).length,
    STATUS_DESCRIPTION_MAX,
  );
  assert.ok(p.comment.startsWith(`${MARKDOWN_MARKER}\n`));
  assert.match(p.comment, /could not decide/);
});

/** An in-memory GitHub that records calls and can fail some. */
class MemoryGitHub implements GitHub {
  calls: string[] = [];
  comments: IssueComment[] = [];
  checkRuns: { request: CreateCheckRunRequest; updates: CheckRunOutput[] }[] =
    [];
  statuses: CreateStatusRequest[] = [];
  fail = new Set<string>();
  #next = 1;

  #call(name: string): void {
    this.calls.push(name);
    if (this.fail.has(name)) throw new Error(`Cannot ${name}: refused`);
  }
  getPullRequest(): Promise<unknown> {
    return Promise.reject(new Error("unused"));
  }
  createCheckRun(_repo: unknown, request: CreateCheckRunRequest) {
    this.#call("createCheckRun");
    this.checkRuns.push({ request, updates: [] });
    const id = this.checkRuns.length;
    return Promise.resolve({ id, htmlUrl: `https://github.test/runs/${id}` });
  }
  updateCheckRun(_repo: unknown, id: number, output: CheckRunOutput) {
    this.#call("updateCheckRun");
    this.checkRuns[id - 1]!.updates.push(output);
    return Promise.resolve();
  }
  createStatus(_repo: unknown, _sha: string, request: CreateStatusRequest) {
    this.#call("createStatus");
    this.statuses.push(request);
    return Promise.resolve();
  }
  listIssueComments() {
    this.#call("listIssueComments");
    return Promise.resolve(this.comments.map((c) => ({ ...c })));
  }
  createIssueComment(_repo: unknown, _issue: number, body: string) {
    this.#call("createIssueComment");
    const id = 100 + this.#next++;
    this.comments.push({ id, body });
    return Promise.resolve({ id });
  }
  updateIssueComment(_repo: unknown, id: number, body: string) {
    this.#call("updateIssueComment");
    const comment = this.comments.find((c) => c.id === id);
    if (comment !== undefined) comment.body = body;
    return Promise.resolve();
  }
}

const TARGET = { repo: { owner: "o", repo: "r" }, number: 7 };

Deno.test("publishVerdict() creates one sticky comment and updates it afterwards", async () => {
  const github = new MemoryGitHub();
  github.comments.push({ id: 1, body: `> ${MARKDOWN_MARKER}\n> a quote` });
  const p = buildPublication({
    kind: "verdict",
    verdict: verdict(failures(60)),
    markdown: "first",
  });
  const first = await publishVerdict(github, TARGET, p);
  assert.deepEqual(first.errors, []);
  assert.deepEqual(first.checkRun, {
    id: 1,
    htmlUrl: "https://github.test/runs/1",
    requests: 2,
  });
  assert.equal(first.comment?.action, "created");
  assert.equal(github.statuses[0]?.targetUrl, "https://github.test/runs/1");
  const second = await publishVerdict(
    github,
    TARGET,
    buildPublication({
      kind: "verdict",
      verdict: verdict([]),
      markdown: "second",
    }),
  );
  assert.deepEqual(second.comment, {
    id: first.comment!.id,
    action: "updated",
  });
  assert.equal(github.comments.length, 2);
  assert.equal(github.comments[1]!.body, `${MARKDOWN_MARKER}\nsecond`);
  assert.deepEqual(github.calls, [
    "createCheckRun",
    "updateCheckRun",
    "createStatus",
    "listIssueComments",
    "createIssueComment",
    "createCheckRun",
    "createStatus",
    "listIssueComments",
    "updateIssueComment",
  ]);
});

Deno.test("publishVerdict() goes on after a part fails and never throws", async () => {
  const github = new MemoryGitHub();
  github.fail.add("createCheckRun");
  github.fail.add("listIssueComments");
  const report = await publishVerdict(
    github,
    TARGET,
    buildPublication({
      kind: "undecided",
      reason: "Cannot decide: x",
      headSha: HEAD,
    }),
  );
  assert.equal(report.checkRun, undefined);
  assert.equal(report.status, true);
  assert.equal(github.statuses[0]?.targetUrl, undefined);
  assert.equal(report.comment, undefined);
  assert.deepEqual(report.errors.map((e) => e.message), [
    "Cannot createCheckRun: refused",
    "Cannot listIssueComments: refused",
  ]);
});

Deno.test("buildPublication() cuts long reasons between code points", () => {
  const p = buildPublication({
    kind: "undecided",
    reason: "🦀".repeat(200),
    headSha: HEAD,
  });
  const { description } = p.status.request;
  assert.ok(
    description.length <= STATUS_DESCRIPTION_MAX,
    String(description.length),
  );
  assert.ok(description.endsWith("🦀…"));
});

Deno.test("buildPublication() names each contract file's layout by what it keeps", () => {
  const p = buildPublication({
    kind: "verdict",
    verdict: verdict([]),
    markdown: "# report\n",
  });
  assert.match(
    p.checkRun.create.output.summary,
    /\| Contract \| `tests\/agent_contract\.yaml` \(agent-contract\) \|/,
  );
});

Deno.test("publishVerdict() completes the check run marked in progress, repeats a finished verdict without doubling its annotations, and gives a new verdict a new check run", async () => {
  await using gh = startFakeGitHub();
  gh.addRepository("o/r", { gitDir: "/nowhere" });
  const github = createGitHubClient({ apiUrl: gh.url, retryBaseMs: 1 });
  const target = { repo: { owner: "o", repo: "r" }, number: 5 };
  const reject = buildPublication({
    kind: "verdict",
    verdict: verdict(failures(120)),
    markdown: "reject",
  });
  await publishInProgress(github, target, HEAD);
  const [started] = gh.checkRuns;
  assert.equal(started?.status, "in_progress");
  for (let run = 0; run < 2; run++) {
    const report = await publishVerdict(github, target, reject);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(
      gh.checkRuns.map((r) => [r.id, r.status, r.conclusion]),
      [[started!.id, "completed", "failure"]],
    );
    assert.equal(gh.checkRuns[0]!.annotations.length, 120);
  }
  const accept = buildPublication({
    kind: "verdict",
    verdict: verdict([]),
    markdown: "accept",
  });
  await publishVerdict(github, target, accept);
  assert.deepEqual(gh.checkRuns.map((r) => [r.status, r.conclusion]), [
    ["completed", "failure"],
    ["completed", "success"],
  ]);
});
