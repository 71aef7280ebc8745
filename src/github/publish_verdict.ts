/**
 * Publishing a verdict on a pull request: one check run (annotations 50
 * per request), one commit status, and one sticky comment that later runs
 * update. {@linkcode buildPublication} turns the outcome into requests
 * (pure); {@linkcode publishVerdict} sends them through a
 * {@linkcode GitHub}.
 *
 * @module
 */
import { plural } from "../core/plural.ts";
import type { Finding } from "../core/finding.ts";
import type { Verdict } from "../core/verdict.ts";
import { layoutName } from "../core/layout_name.ts";
import { MARKDOWN_MARKER } from "../report/render_markdown.ts";
import type {
  Annotation,
  CheckRunOutput,
  CreateCheckRunRequest,
  CreateStatusRequest,
  GitHub,
  RepoRef,
} from "./github_client.ts";

/** The check run's name and the commit status's context. */
export const CHECK_NAME = "pawl";

/** GitHub takes at most this many annotations per request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/** Annotations beyond this many are left out (the summary says so). */
export const MAX_ANNOTATIONS = 1000;

/** GitHub's limit on a commit status description. */
export const STATUS_DESCRIPTION_MAX = 140;

const SUMMARY_MAX = 65_000;
const ANNOTATION_MESSAGE_MAX = 60_000;
const SUMMARY_FINDINGS_MAX = 50;

/** What the run came to: a verdict, or could not decide (exit 2). */
export type Outcome =
  | {
    /** A decision was made. */
    kind: "verdict";
    /** The verdict. */
    verdict: Verdict;
    /** The sticky comment's body (`renderMarkdown`). */
    markdown: string;
  }
  | {
    /** pawl could not decide. */
    kind: "undecided";
    /** Why (the exit-2 message). */
    reason: string;
    /** The head commit the pull request was at. */
    headSha: string;
  };

/** The requests that publish one outcome. */
export interface Publication {
  /** The check run: created with the first annotations, then updated with the rest. */
  checkRun: {
    /** `POST check-runs`. */
    create: CreateCheckRunRequest;
    /** One `PATCH check-runs/{id}` output per further batch. */
    updates: CheckRunOutput[];
  };
  /** The commit status. */
  status: {
    /** Commit it is set on. */
    sha: string;
    /** Its request (target URL filled in once the check run exists). */
    request: CreateStatusRequest;
  };
  /** The sticky comment's body; starts with {@linkcode MARKDOWN_MARKER}. */
  comment: string;
}

/**
 * Build the requests for `outcome`: conclusion `success`/`failure`
 * (`failure` with the reason when pawl could not decide: GitHub counts a
 * `neutral` check as passing, and could-not-decide must block), a summary
 * table, an annotation at `file:line` for every finding with a path
 * (`failure` if blocking, else `notice`), a status of at most 140
 * characters, and the comment body with the hidden marker.
 *
 * @example
 * ```ts
 * import { buildPublication } from "./publish_verdict.ts";
 * const p = buildPublication({ kind: "undecided", reason: "Cannot decide: no contract", headSha: "b".repeat(40) });
 * if (p.checkRun.create.conclusion !== "failure" || p.status.request.state !== "error") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function buildPublication(outcome: Outcome): Publication {
  if (outcome.kind === "undecided") return undecidedPublication(outcome);
  const { verdict } = outcome;
  const blocking = verdict.findings.filter((f) => f.blocking);
  const notes = verdict.findings.length - blocking.length;
  const accept = verdict.decision === "accept";
  const title = accept
    ? `Accept: no blocking findings${
      notes > 0 ? `, ${plural(notes, "note")}` : ""
    }`
    : `Reject: ${plural(blocking.length, "blocking finding")}`;
  const all = verdict.findings.filter((f) => f.path !== undefined).map(
    annotationFor,
  );
  const annotations = all.slice(0, MAX_ANNOTATIONS);
  const summary = verdictSummary(verdict, {
    title,
    omittedAnnotations: all.length - annotations.length,
  });
  const batches: Annotation[][] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  const output = (batch: Annotation[]): CheckRunOutput => ({
    title,
    summary,
    annotations: batch,
  });
  const rules = [...new Set(blocking.map((f) => f.rule))];
  return {
    checkRun: {
      create: {
        name: CHECK_NAME,
        headSha: verdict.head,
        conclusion: accept ? "success" : "failure",
        output: output(batches[0] ?? []),
      },
      updates: batches.slice(1).map(output),
    },
    status: {
      sha: verdict.head,
      request: {
        state: accept ? "success" : "failure",
        context: CHECK_NAME,
        description: truncate(
          accept ? title : `${title}: ${rules.join(", ")}`,
          STATUS_DESCRIPTION_MAX,
        ),
      },
    },
    comment: withMarker(outcome.markdown),
  };
}

/** Where to publish. */
export interface PublishTarget {
  /** The base repository. */
  repo: RepoRef;
  /** Pull request number. */
  number: number;
}

/** What {@linkcode publishVerdict} did; each part succeeds or fails alone. */
export interface PublishReport {
  /** The check run, when created. */
  checkRun?: { id: number; htmlUrl?: string; requests: number };
  /** Whether the commit status was set. */
  status: boolean;
  /** The sticky comment, when written. */
  comment?: { id: number; action: "created" | "updated" };
  /** Every failure, in order; publishing never throws. */
  errors: Error[];
}

/**
 * Send `publication`: the check run (completing the one named `pawl` on
 * the head if there is one, else creating it; then one update per further
 * 50 annotations), the commit status (linking the check run), and the
 * sticky comment: the first existing comment whose body starts with the
 * marker is updated, else one is created. A failing part does not stop
 * the others.
 */
export async function publishVerdict(
  github: GitHub,
  target: PublishTarget,
  publication: Publication,
): Promise<PublishReport> {
  const report: PublishReport = { status: false, errors: [] };
  const attempt = async (part: () => Promise<void>) => {
    try {
      await part();
    } catch (error) {
      report.errors.push(
        error instanceof Error ? error : new Error(String(error)),
      );
    }
  };
  await attempt(async () => {
    const { again, ...created } = await placeCheckRun(
      github,
      target.repo,
      publication.checkRun.create,
    );
    report.checkRun = { ...created, requests: 1 };
    // Annotations add up on GitHub: a repeated verdict has them all already.
    for (const output of again ? [] : publication.checkRun.updates) {
      await github.updateCheckRun(target.repo, created.id, output);
      report.checkRun.requests++;
    }
  });
  await attempt(async () => {
    const link = report.checkRun?.htmlUrl;
    await github.createStatus(
      target.repo,
      publication.status.sha,
      link === undefined
        ? publication.status.request
        : { ...publication.status.request, targetUrl: link },
    );
    report.status = true;
  });
  await attempt(async () => {
    const comments = await github.listIssueComments(target.repo, target.number);
    const sticky = comments.find((c) =>
      c.body.trimStart().startsWith(MARKDOWN_MARKER)
    );
    if (sticky === undefined) {
      const { id } = await github.createIssueComment(
        target.repo,
        target.number,
        publication.comment,
      );
      report.comment = { id, action: "created" };
    } else {
      await github.updateIssueComment(
        target.repo,
        sticky.id,
        publication.comment,
      );
      report.comment = { id: sticky.id, action: "updated" };
    }
  });
  return report;
}

/**
 * The check run that carries the verdict: the one marked in progress when
 * the judgement started (or left by an earlier attempt) completed in
 * place; the same verdict already completed (a publication repeated after
 * a crash) given its title and summary again (`again`); else a new one, as
 * GitHub never changes a completed check run's conclusion.
 */
async function placeCheckRun(
  github: GitHub,
  repo: RepoRef,
  create: CreateCheckRunRequest,
): Promise<{ id: number; htmlUrl?: string; again?: boolean }> {
  const existing = await github.findCheckRun?.(
    repo,
    create.headSha,
    create.name,
  );
  if (existing === undefined || github.completeCheckRun === undefined) {
    return await github.createCheckRun(repo, create);
  }
  if (!existing.completed) {
    return await github.completeCheckRun(repo, existing.id, create);
  }
  if (existing.conclusion !== create.conclusion) {
    return await github.createCheckRun(repo, create);
  }
  await github.updateCheckRun(repo, existing.id, {
    ...create.output,
    annotations: [],
  });
  return {
    id: existing.id,
    ...(existing.htmlUrl === undefined ? {} : { htmlUrl: existing.htmlUrl }),
    again: true,
  };
}

function undecidedPublication(
  outcome: Extract<Outcome, { kind: "undecided" }>,
): Publication {
  const title = "Could not decide";
  const reason = truncate(outcome.reason, 4000);
  const summary = [
    "**pawl could not decide** (exit code 2): the pull request was not judged, and this is not an accept.",
    "",
    "```",
    reason.replaceAll("```", "'''"),
    "```",
    "",
  ].join("\n");
  return {
    checkRun: {
      create: {
        name: CHECK_NAME,
        headSha: outcome.headSha,
        // Not "neutral": branch protection counts neutral as passing.
        conclusion: "failure",
        output: { title, summary, annotations: [] },
      },
      updates: [],
    },
    status: {
      sha: outcome.headSha,
      request: {
        state: "error",
        context: CHECK_NAME,
        description: truncate(
          `${title}: ${oneLine(outcome.reason)}`,
          STATUS_DESCRIPTION_MAX,
        ),
      },
    },
    comment: withMarker(
      [
        "## ⚠️ pawl: could not decide",
        "",
        `Head \`${
          outcome.headSha.slice(0, 12)
        }\` was not judged (exit code 2); this is not an accept.`,
        "",
        summary,
      ].join("\n"),
    ),
  };
}

function annotationFor(f: Finding): Annotation {
  const line = f.line !== undefined && f.line > 0 ? f.line : 1;
  return {
    path: f.path ?? "",
    startLine: line,
    endLine: line,
    level: f.blocking ? "failure" : "notice",
    message: truncate(f.message, ANNOTATION_MESSAGE_MAX),
    title: f.rule,
  };
}

function verdictSummary(
  verdict: Verdict,
  options: { title: string; omittedAnnotations: number },
): string {
  const blocking = verdict.findings.filter((f) => f.blocking).length;
  const clock = verdict.clock?.source === "event"
    ? `event field \`${verdict.clock.field ?? "?"}\``
    : "`--now`";
  const rows: [string, string][] = [
    ["Decision", `**${verdict.decision}**`],
    ["Base", `\`${verdict.base.slice(0, 12)}\``],
    ["Head", `\`${verdict.head.slice(0, 12)}\``],
    ["Clock", `\`${verdict.now}\` (from ${clock})`],
    [
      "Contract",
      verdict.contract.files.length === 0
        ? "none"
        : verdict.contract.files.map((f) =>
          `\`${f.path}\` (${layoutName(f.layout)})`
        )
          .join(", "),
    ],
    ["Blocking findings", String(blocking)],
    ["Other findings", String(verdict.findings.length - blocking)],
  ];
  if (verdict.tests === null) {
    rows.push(["Tests", "not run (static rules only)"]);
  } else {
    const s = verdict.tests.summary;
    rows.push([
      "Tests",
      `${s.passed} passed, ${s.failed} failed, ${
        plural(s.errors, "error")
      }, ${s.skipped} skipped, ${s.xfailed} xfailed`,
    ]);
    const props = verdict.tests.properties;
    rows.push([
      "Properties",
      `${
        props.filter((p) => p.outcome === "passed").length
      }/${props.length} passed`,
    ]);
  }
  if (verdict.isolation !== null) {
    rows.push(["Sandbox", `\`${verdict.isolation.tier}\``]);
  }
  const lines = [
    `**${options.title}**`,
    "",
    "| | |",
    "|---|---|",
    ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`),
    "",
  ];
  if (verdict.findings.length > 0) {
    lines.push("| | Rule | Where | Finding |", "|---|---|---|---|");
    for (const f of verdict.findings.slice(0, SUMMARY_FINDINGS_MAX)) {
      const where = f.path === undefined
        ? ""
        : `\`${f.path}${f.line === undefined ? "" : `:${f.line}`}\``;
      lines.push(
        `| ${f.blocking ? "✗" : "•"} | \`${f.rule}\` | ${cell(where)} | ${
          cell(truncate(oneLine(f.message), 300))
        } |`,
      );
    }
    const more = verdict.findings.length - SUMMARY_FINDINGS_MAX;
    if (more > 0) lines.push("", `…and ${plural(more, "more finding")}.`);
  }
  if (options.omittedAnnotations > 0) {
    lines.push(
      "",
      `${
        plural(options.omittedAnnotations, "annotation")
      } left out (at most ${MAX_ANNOTATIONS}).`,
    );
  }
  return truncate(lines.join("\n") + "\n", SUMMARY_MAX);
}

/** `body` starting with the sticky comment's marker line. */
function withMarker(body: string): string {
  return body.trimStart().startsWith(MARKDOWN_MARKER)
    ? body
    : `${MARKDOWN_MARKER}\n${body}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replace(/[\r\n]+/g, " ");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * At most `max` UTF-16 code units (so also at most `max` code points),
 * cut between code points and ending in "…" when cut.
 */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  for (const char of text) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return `${out}…`;
}
