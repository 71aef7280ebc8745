/**
 * `pawl serve` under load and faults: 200 deliveries (duplicates,
 * redeliveries, superseding pushes, forged signatures, events it ignores)
 * against 4 workers, with the real server, queue, App tokens and
 * publisher, a fake GitHub, and a judge that reads each head's verdict
 * from the repository (`verdict.txt` at the head commit), so the right
 * answer is known. Once with SQLite and a GitHub outage, once with two
 * replicas sharing PostgreSQL, restarted mid-run.
 */
import assert from "node:assert/strict";
import type { Outcome } from "../src/github/publish_verdict.ts";
import type { Judge } from "../src/serve/judge.ts";
import { resolveServeConfig } from "../src/serve/serve_config.ts";
import { type RunningServe, startServe } from "../src/serve/start_serve.ts";
import { startTestPostgres } from "./_postgres.ts";
import {
  type FakeGitHub,
  sendWebhook,
  startFakeGitHub,
} from "./_fake_github.ts";
import { GIT_ENV } from "./_repo.ts";
import { makeAppKeys, until } from "./_serve.ts";

const SECRET = "load-test-webhook-secret-abcdef";
const APP_ID = 99;
const INSTALLATION = 5;
const PULLS = 30;

async function git(
  gitDir: string,
  args: string[],
  input?: string,
): Promise<string> {
  const child = new Deno.Command("git", {
    args: [`--git-dir=${gitDir}`, ...args],
    env: { ...GIT_ENV },
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(
      `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** One commit whose tree holds `verdict.txt` = `text`. */
async function commit(
  gitDir: string,
  text: string,
  parent?: string,
): Promise<string> {
  const blob = await git(gitDir, ["hash-object", "-w", "--stdin"], text);
  const tree = await git(
    gitDir,
    ["mktree"],
    `100644 blob ${blob}\tverdict.txt\n`,
  );
  return await git(gitDir, [
    "commit-tree",
    tree,
    ...(parent === undefined ? [] : ["-p", parent]),
    "-m",
    text,
  ]);
}

interface Push {
  number: number;
  head: string;
  decision: "accept" | "reject";
  updatedAt: string;
}

/** PULLS pull requests, each with 1 to 3 pushes. */
async function buildHistory(gitDir: string) {
  const base = await commit(gitDir, "base");
  const pushes: Push[] = [];
  for (let n = 1; n <= PULLS; n++) {
    for (let k = 0; k < 1 + (n % 3); k++) {
      const decision = (n + k) % 3 === 0 ? "reject" : "accept";
      const head = await commit(gitDir, `${decision} ${n}.${k}`, base);
      const minute = String(k * 10 + (n % 10)).padStart(2, "0");
      pushes.push({
        number: n,
        head,
        decision,
        updatedAt: `2026-11-30T1${k}:${minute}:00Z`,
      });
    }
  }
  return { base, pushes };
}

/** The judge: the verdict is what the head commit's verdict.txt says. */
function repositoryJudge(
  gitDir: string,
  calls: string[],
  extraMs: number,
): Judge {
  return async (job) => {
    calls.push(job.headSha);
    const text = await git(gitDir, ["show", `${job.headSha}:verdict.txt`]);
    await new Promise((r) =>
      setTimeout(r, extraMs + 20 + (job.number % 5) * 10)
    );
    const decision = text.startsWith("accept") ? "accept" : "reject";
    const blocking = decision === "reject"
      ? [{
        layer: "tests",
        rule: "tests.failed",
        message: "verdict.txt says reject",
        blocking: true,
      }]
      : [];
    const outcome: Outcome = {
      kind: "verdict",
      verdict: {
        decision,
        now: job.now,
        clock: { source: "event", field: job.clockField },
        repo: job.cloneUrl,
        base: job.baseSha,
        head: job.headSha,
        contract: { files: [] },
        findings: blocking,
        tests: null,
        isolation: null,
      } as never,
      markdown: `pawl: ${decision} for ${job.headSha}`,
    };
    return outcome;
  };
}

/** 200 deliveries: each push once, then duplicates, late redeliveries, reopens, forgeries and ignored events. */
function deliveries(gh: FakeGitHub, pushes: Push[]) {
  const list: {
    payload: unknown;
    event: string;
    forged: boolean;
    id?: string;
  }[] = [];
  const event = (p: Push, action: string) => {
    gh.addPullRequest("o/r", {
      number: p.number,
      baseSha: baseOf,
      headSha: p.head,
      updatedAt: p.updatedAt,
    });
    return gh.pullRequestEvent("o/r", p.number, {
      action,
      installationId: INSTALLATION,
    });
  };
  let baseOf = "";
  return {
    setBase(base: string) {
      baseOf = base;
    },
    build() {
      let seed = 7;
      const random = () =>
        (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
      const firsts = pushes.map((p, i) => ({
        payload: event(
          p,
          i > 0 && pushes[i - 1]!.number === p.number
            ? "synchronize"
            : "opened",
        ),
        event: "pull_request",
        forged: false,
        id: `first-${i}`,
      }));
      list.push(...firsts);
      while (list.length < 110) list.push({ ...pick(firsts) }); // redeliveries, also late ones
      while (list.length < 130) {
        list.push({
          payload: event(pick(pushes), "reopened"),
          event: "pull_request",
          forged: false,
        });
      }
      while (list.length < 170) {
        list.push({
          payload: event(pick(pushes), "synchronize"),
          event: "pull_request",
          forged: true,
        });
      }
      while (list.length < 200) {
        list.push({
          payload: event(pick(pushes), "labeled"),
          event: "pull_request",
          forged: false,
        });
      }
      // Shuffle: pushes of one pull request arrive in any order.
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [list[i], list[j]] = [list[j]!, list[i]!];
      }
      return list;
    },
  };
}

async function runLoad(options: {
  queueUrl?: string;
  replicas?: number;
  judgeMs?: number;
  during?: (ctx: { gh: FakeGitHub; serve: RunningServe }) => Promise<void>;
}) {
  const keys = makeAppKeys();
  const parent = await Deno.makeTempDir({ prefix: "pawl-serve-load-" });
  const gitDir = `${parent}/repo.git`;
  await git(parent, ["init", "-q", "--bare", gitDir]);
  await using gh = startFakeGitHub({
    app: {
      id: APP_ID,
      publicKeyPem: keys.publicKeyPem,
      installations: [INSTALLATION],
    },
  });
  gh.addRepository("o/r", { gitDir });
  const { base, pushes } = await buildHistory(gitDir);
  const plan = deliveries(gh, pushes);
  plan.setBase(base);
  const list = plan.build();
  const calls: string[] = [];
  const lines: string[] = [];
  const config = resolveServeConfig({
    flags: {
      port: "0",
      "data-dir": `${parent}/data`,
      workers: "4",
      ...(options.queueUrl ? { "queue-url": options.queueUrl } : {}),
    },
    env: {
      PAWL_SERVE_WEBHOOK_SECRET: SECRET,
      PAWL_SERVE_APP_ID: String(APP_ID),
      PAWL_SERVE_PRIVATE_KEY: keys.privateKeyPem,
      GITHUB_API_URL: gh.url,
      PAWL_SERVE_BACKOFF_SECONDS: "0.1",
      PAWL_SERVE_LEASE_SECONDS: "3",
    },
  });
  // Replicas share the queue (PostgreSQL); each has its own 4 workers' worth split.
  const replicas: RunningServe[] = [];
  for (let r = 0; r < (options.replicas ?? 1); r++) {
    replicas.push(
      await startServe(
        { ...config, workers: 4 / (options.replicas ?? 1) },
        {
          judge: repositoryJudge(gitDir, calls, options.judgeMs ?? 0),
          write: (line) => lines.push(line),
          env: { PAWL_GITHUB_RETRY_BASE_MS: "5" },
        },
      ),
    );
  }
  const serve = replicas[0]!;
  try {
    const urls = replicas.map((r) => `http://127.0.0.1:${r.port}/`);
    const answers: number[] = [];
    // Eight senders at a time.
    for (let i = 0; i < list.length; i += 8) {
      answers.push(
        ...await Promise.all(
          list.slice(i, i + 8).map(async (d, j) =>
            (await sendWebhook(urls[(i + j) % urls.length]!, d.payload, {
              secret: d.forged ? "forged" : SECRET,
              event: d.event,
              ...(d.id === undefined ? {} : { deliveryId: d.id }),
            })).status
          ),
        ),
      );
    }
    const forged = list.map((d, i) => [d, answers[i]] as const).filter(([d]) =>
      d.forged
    );
    assert.ok(
      forged.every(([, status]) => status === 401),
      "a forged delivery was not refused",
    );
    assert.equal(forged.length, 40);
    await options.during?.({ gh, serve });
    const newest = new Map<number, Push>();
    for (const p of pushes) {
      const seen = newest.get(p.number);
      if (seen === undefined || seen.updatedAt < p.updatedAt) {
        newest.set(p.number, p);
      }
    }
    await until("every pull request's newest head published", () => {
      return [...newest.values()].every((p) =>
        gh.checkRuns.some((r) =>
          r.headSha === p.head && r.status === "completed"
        )
      );
    }, 90_000);
    await until("the queue drained", async () => {
      const counts = await serve.queue.counts();
      return counts.queued + counts.running + counts.judged === 0;
    }, 30_000);
    // Nothing published twice; no head judged twice.
    const perHead = new Map<string, number>();
    for (const run of gh.checkRuns) {
      perHead.set(run.headSha, (perHead.get(run.headSha) ?? 0) + 1);
    }
    assert.ok(
      [...perHead.values()].every((n) => n === 1),
      "a head got two check runs",
    );
    const judgedPerHead = new Map<string, number>();
    for (const head of calls) {
      judgedPerHead.set(head, (judgedPerHead.get(head) ?? 0) + 1);
    }
    for (const p of newest.values()) {
      const run = gh.checkRuns.find((r) => r.headSha === p.head)!;
      assert.equal(
        run.conclusion,
        p.decision === "accept" ? "success" : "failure",
        `#${p.number}`,
      );
      // Published last for its pull request: an older head's check run came first.
      for (
        const older of pushes.filter((q) => q.number === p.number && q !== p)
      ) {
        const olderRun = gh.checkRuns.find((r) => r.headSha === older.head);
        if (olderRun?.completedOrder !== undefined) {
          assert.ok(
            olderRun.completedOrder < run.completedOrder!,
            `#${p.number}: older published after newer`,
          );
        }
      }
      // The sticky comment speaks of the newest head.
      const sticky = gh.comments.filter((c) => c.issue === p.number);
      assert.equal(
        sticky.length,
        1,
        `#${p.number} has ${sticky.length} comments`,
      );
      assert.ok(
        sticky[0]!.body.includes(p.head),
        `#${p.number}: the comment is not about the newest head`,
      );
    }
    // Statuses: one verdict per head published (besides the pending ones).
    assert.equal(
      gh.statuses.filter((s) => s.state !== "pending").length,
      gh.checkRuns.filter((r) => r.status === "completed").length,
    );
    // One token for the one installation, never in a log line.
    const token = gh.issuedTokens[0]!.token;
    assert.ok(lines.every((l) => !l.includes(token) && !l.includes(SECRET)));
    assert.equal(
      replicas.reduce(
        (sum, r) =>
          sum +
          r.metrics.value(
            "pawl_serve_webhook_rejections_total",
            'reason="signature"',
          ),
        0,
      ),
      40,
    );
    return { calls, judgedPerHead, lines, gh };
  } finally {
    for (const r of replicas) await r.shutdown();
    await Deno.remove(parent, { recursive: true });
  }
}

Deno.test("pawl serve judges 200 deliveries with 4 workers: each newest head once, forged ones refused, a GitHub outage only delays", async () => {
  const { judgedPerHead, lines } = await runLoad({
    during: async ({ gh }) => {
      // GitHub answers 503 to every check run for two seconds.
      gh.inject({
        method: "POST",
        path: "/repos/o/r/check-runs",
        status: 503,
        times: 1_000_000,
      });
      await new Promise((r) => setTimeout(r, 2000));
      gh.clearInjections();
    },
  });
  assert.ok(
    [...judgedPerHead.values()].every((n) => n === 1),
    "a head was judged twice",
  );
  assert.ok(
    lines.some((l) => l.includes('"job.publish_failed"')),
    "the outage was not noticed",
  );
});

Deno.test("two pawl serve replicas on one PostgreSQL queue recover from a database restart without losing queued jobs", async () => {
  await using pg = await startTestPostgres();
  const { lines } = await runLoad({
    queueUrl: pg.url,
    replicas: 2,
    judgeMs: 150,
    during: async ({ serve }) => {
      const counts = await serve.queue.counts();
      assert.ok(counts.queued > 0, "nothing was left queued to lose");
      await pg.stop();
      await new Promise((r) => setTimeout(r, 1000));
      await pg.start();
    },
  });
  assert.ok(
    lines.some((l) =>
      l.includes('"queue.unavailable"') || l.includes('"queue.retry"') ||
      l.includes('"job.interrupted"')
    ),
    "the restart was not noticed",
  );
  // Both replicas took jobs from the shared queue.
  const servers = new Set(
    lines.map((l) => JSON.parse(l)).filter((l) => l.event === "job.published")
      .map((l) => String(l.worker).split("/")[0]),
  );
  assert.equal(servers.size, 2);
});
