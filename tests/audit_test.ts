/**
 * `pawl audit` end to end: the real CLI lists the pull requests of a fake
 * GitHub (a real HTTP server on 127.0.0.1, git's smart HTTP protocol
 * behind it, pages of three), judges each at its own merged_at in a pool
 * of workers with their own sandbox uids, writes one record per pull
 * request and the report, resumes, and splits into shards whose records
 * copied together give the same report.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { explain, pawl, type PawlResult, type VerdictJson } from "./_cli.ts";
import {
  type FakeGitHub,
  makeBareRemote,
  startFakeGitHub,
} from "./_fake_github.ts";
import { buildRepo } from "./_repo.ts";

const TOKEN = "ghs_pawlAuditE2eSecretToken0123456789";
const MERGED_AT = "2026-11-30T11:30:00Z";
const NOW = "2026-11-30T12:00:00Z";
/** Sandbox uids of this file: 64150 and up, clear of every other test's. */
const UID = 64150;
const TITLE = `Fix the parser <script>alert("pwned")</script> & more`;

const patch = (branch: string) => {
  const found = SAMPLE_PATCHES.find((p) => p.branch === branch);
  if (found === undefined) throw new Error(`No sample patch "${branch}"`);
  return found.files;
};

const HEADS = {
  "pr/honest": patch("agent/honest-fix"),
  "pr/delete": patch("agent/delete-property"),
  "pr/freeze": patch("agent/extend-freeze"),
  "pr/vacuous": patch("agent/vacuous-assert"),
};

/** What each audited pull request must come to. */
const EXPECTED: Record<number, { decision: string; rule?: string }> = {
  1: { decision: "accept" },
  2: { decision: "reject", rule: "property.removed" },
  3: { decision: "reject", rule: "freeze.expiry_extended" },
  4: { decision: "reject", rule: "property.vacuous" },
  5: { decision: "undecided" },
  6: { decision: "skipped" },
};

interface RecordJson {
  pawlAudit: number;
  repo: string;
  pullRequest: { number: number; title: string; base: string; head: string };
  clock: { source: string; field?: string; now: string | null };
  decision: string;
  reason?: string;
  verdict?: VerdictJson & { clock?: { source: string; field?: string } };
}

function env(gh: FakeGitHub): Record<string, string> {
  return {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: gh.url,
    PAWL_GITHUB_RETRY_BASE_MS: "5",
  };
}

function audit(gh: FakeGitHub, args: string[]): Promise<PawlResult> {
  return pawl(["audit", "--repo", "o/r", ...args], {
    out: false,
    env: env(gh),
  });
}

async function readRecords(dir: string): Promise<Map<number, RecordJson>> {
  const records = new Map<number, RecordJson>();
  for await (const entry of Deno.readDir(dir)) {
    const m = /^pr-(\d+)\.json$/.exec(entry.name);
    if (m !== null) {
      records.set(
        Number(m[1]),
        JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`)),
      );
    }
  }
  return records;
}

async function mtimes(dir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for await (const entry of Deno.readDir(dir)) {
    out[entry.name] = (await Deno.stat(`${dir}/${entry.name}`)).mtime!
      .getTime();
  }
  return out;
}

const gitRequests = (gh: FakeGitHub) =>
  gh.requests.filter((r) => r.path.startsWith("/git/")).length;

function assertNoToken(result: PawlResult): void {
  assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
}

Deno.test("pawl audit judges a range of past pull requests at their merged_at, resumes, and shards into one report", async (t) => {
  await using repo = await buildRepo({ heads: HEADS });
  const sha = async (rev: string) => await repo.commit(rev);
  await using remote = await makeBareRemote(repo.dir, {
    1: "pr/honest",
    2: "pr/delete",
    3: "pr/freeze",
    4: "pr/vacuous",
    6: "pr/honest",
    7: "pr/delete",
  });
  await using gh = startFakeGitHub({ token: TOKEN, maxPerPage: 3 });
  gh.addRepository("o/r", { gitDir: remote.gitDir, cloneVia: "http" });
  const main = await sha("main");
  const pulls = [
    { number: 1, head: await sha("pr/honest"), title: TITLE },
    { number: 2, head: await sha("pr/delete") },
    { number: 3, head: await sha("pr/freeze") },
    { number: 4, head: await sha("pr/vacuous") },
    // The head commit is gone from the repository (force-pushed away).
    { number: 5, head: "0123456789abcdef0123456789abcdef01234567" },
    // Still open: never merged, so it has no merged_at to be judged at.
    { number: 6, head: await sha("pr/honest"), merged: false },
    // Outside the range audited.
    { number: 7, head: await sha("pr/delete") },
  ];
  for (const p of pulls) {
    gh.addPullRequest("o/r", {
      number: p.number,
      baseSha: main,
      headSha: p.head,
      headRef: `pr-${p.number}`,
      state: p.merged === false ? "open" : "closed",
      merged: p.merged !== false,
      ...(p.title === undefined ? {} : { title: p.title }),
    });
  }
  const work = await Deno.makeTempDir({ prefix: "pawl-e2e-audit-" });
  const whole = `${work}/whole`;
  const shared = `${work}/shards`;
  const range = ["--prs", "1..6", "--now-from", "merged-at"];
  try {
    await t.step(
      "two workers with their own sandbox uids judge #1..#6",
      async () => {
        const result = await audit(gh, [
          ...range,
          "--out-dir",
          whole,
          "--concurrency",
          "2",
          "--sandbox-uid",
          String(UID),
        ]);
        assert.equal(result.code, 2, explain(result));
        assert.match(
          result.stdout,
          /6 pull requests selected, 5 judged now, 0 from earlier runs/,
        );
        assert.match(
          result.stdout,
          /1 accept, 3 reject, 1 undecided, 1 skipped/,
        );
        assert.match(result.stderr, /could not decide #5: /);
        // Both workers ran tests, each as its own uid.
        assert.match(result.stderr, new RegExp(`sandbox uid ${UID}\\)`));
        assert.match(result.stderr, new RegExp(`sandbox uid ${UID + 1}\\)`));
        assertNoToken(result);
        // The list was read page by page (three per page).
        const pages = gh.apiRequests("GET").filter((r) =>
          r.path === "/repos/o/r/pulls"
        ).map((r) => r.query["page"] ?? "1");
        assert.deepEqual(pages, ["1", "2", "3"]);
        assert.equal(gh.apiRequests("POST").length, 0, "audits never publish");

        const records = await readRecords(whole);
        assert.deepEqual([...records.keys()].sort(), [1, 2, 3, 4, 5, 6]);
        for (const [number, expected] of Object.entries(EXPECTED)) {
          const record = records.get(Number(number))!;
          assert.equal(record.decision, expected.decision, `#${number}`);
          assert.equal(record.pullRequest.base, main);
          if (expected.rule !== undefined) {
            assert.ok(
              record.verdict!.findings.some((f) =>
                f.blocking && f.rule === expected.rule
              ),
              `#${number}: ${JSON.stringify(record.verdict!.findings)}`,
            );
          }
          if (record.verdict !== undefined) {
            assert.equal(record.verdict.now, MERGED_AT);
            assert.deepEqual(record.verdict.clock, {
              source: "merged-at",
              field: "pull_request.merged_at",
            });
            assert.equal(record.verdict.head, record.pullRequest.head);
            assert.ok(record.verdict.tests !== null, "the suite ran");
            assert.notEqual(record.verdict.isolation?.tier, "none");
          }
        }
        assert.match(records.get(5)!.reason!, /Cannot (?:fetch|clone|resolve)/);
        assert.deepEqual(records.get(6)!.clock, {
          source: "merged-at",
          field: "pull_request.merged_at",
          now: null,
        });
        assert.match(records.get(6)!.reason!, /never merged/);

        const report = JSON.parse(
          await Deno.readTextFile(`${whole}/audit.json`),
        );
        assert.deepEqual(report.counts, {
          total: 6,
          accept: 1,
          reject: 3,
          undecided: 1,
          skipped: 1,
        });
        assert.equal(report.pullRequests[0].title, TITLE);
        assert.deepEqual(
          report.pullRequests.map((r: { decision: string }) => r.decision),
          Object.values(EXPECTED).map((e) => e.decision),
        );
        // The most telling rule first.
        assert.equal(
          report.pullRequests[1].blockingRules[0],
          "property.removed",
        );
        const markdown = await Deno.readTextFile(`${whole}/audit.md`);
        assert.match(
          markdown,
          /6 pull requests: \*\*1 accepted\*\*, \*\*3 rejected\*\*, 1 undecided, 1 skipped/,
        );
        assert.ok(!markdown.includes("<script>"));
        const html = await Deno.readTextFile(`${whole}/audit.html`);
        assert.match(html, /<svg class="chart decisions"/);
        assert.match(html, /<svg class="chart rules"/);
        assert.match(html, /&lt;script&gt;alert\(&quot;pwned&quot;\)/);
        // Each finding's message is on the page, escaped.
        const shown = report.pullRequests[1].findings[0];
        assert.ok(
          html.includes(
            `<li><code>${shown.rule}</code> ${
              shown.message.replace(/&/g, "&amp;").replace(/</g, "&lt;")
                .replace(/>/g, "&gt;").replace(/"/g, "&quot;")
                .replace(/'/g, "&#39;")
            }`,
          ),
          shown.message,
        );
        assert.ok(
          !/<script/i.test(html),
          "no script element, not even escaped wrongly",
        );
        assert.ok(!/(?:src|href)="(?!http:\/\/127\.0\.0\.1)/.test(html));
      },
    );

    await t.step(
      "a second run judges nothing; a damaged record is judged again",
      async () => {
        const gitBefore = gitRequests(gh);
        const before = await mtimes(whole);
        const again = await audit(gh, [...range, "--out-dir", whole]);
        assert.equal(again.code, 2, explain(again));
        assert.match(again.stdout, /0 judged now, 6 from earlier runs/);
        assert.equal(gitRequests(gh), gitBefore, "nothing was cloned");
        const after = await mtimes(whole);
        for (
          const name of Object.keys(before).filter((n) => n.startsWith("pr-"))
        ) {
          assert.equal(after[name], before[name], `${name} was rewritten`);
        }

        const original = await Deno.readTextFile(`${whole}/pr-2.json`);
        await Deno.writeTextFile(`${whole}/pr-2.json`, original.slice(0, 200));
        const repaired = await audit(gh, [...range, "--out-dir", whole]);
        assert.equal(repaired.code, 2, explain(repaired));
        assert.match(repaired.stdout, /1 judged now, 5 from earlier runs/);
        assert.match(
          repaired.stderr,
          /judging again: Cannot read audit record/,
        );
        assert.ok(gitRequests(gh) > gitBefore);
        assert.equal(await Deno.readTextFile(`${whole}/pr-2.json`), original);
      },
    );

    await t.step(
      "shards 0/2 and 1/2 into one directory give the unsharded report",
      async () => {
        const [even, odd] = await Promise.all([0, 1].map((index) =>
          audit(gh, [
            ...range,
            "--out-dir",
            shared,
            "--shard",
            `${index}/2`,
            "--concurrency",
            "1",
            "--sandbox-uid",
            String(UID + 2 + index),
          ])
        ));
        // Shard 0 has #2, #4, #6 (all decided or skipped); shard 1 has #5.
        assert.equal(even!.code, 0, explain(even!));
        assert.equal(odd!.code, 2, explain(odd!));
        assert.match(even!.stdout, /3 pull requests selected \(shard 0\/2\)/);
        const report = await pawl(["audit", "report", "--out-dir", shared], {
          out: false,
        });
        assert.equal(report.code, 2, explain(report));
        assert.match(report.stdout, /6 pull requests: 1 accept, 3 reject/);
        // The same inputs give the same verdicts, so the same bytes.
        const records = [1, 2, 3, 4, 5, 6].map((n) => `pr-${n}.json`);
        for (
          const file of [...records, "audit.json", "audit.md", "audit.html"]
        ) {
          assert.equal(
            await Deno.readTextFile(`${shared}/${file}`),
            await Deno.readTextFile(`${whole}/${file}`),
            file,
          );
        }
      },
    );

    await t.step(
      "--now for every pull request, a list, static rules only",
      async () => {
        const dir = `${work}/static`;
        const result = await audit(gh, [
          "--prs",
          "2,6,9",
          "--now",
          NOW,
          "--static",
          "--out-dir",
          dir,
          "--json",
        ]);
        assert.equal(result.code, 0, explain(result));
        assert.match(result.stderr, /pull request #9 is not in the list/);
        const report = JSON.parse(result.stdout);
        assert.deepEqual(report.counts, {
          total: 2,
          accept: 1,
          reject: 1,
          undecided: 0,
          skipped: 0,
        });
        const records = await readRecords(dir);
        assert.deepEqual(records.get(6)!.clock, { source: "flag", now: NOW });
        assert.equal(records.get(6)!.verdict!.clock, undefined);
        assert.equal(records.get(6)!.verdict!.tests, null);
      },
    );

    await t.step("a list that cannot be read is exit 2", async () => {
      gh.inject({
        method: "GET",
        path: "/repos/o/r/pulls",
        status: 502,
        times: 10,
      });
      const result = await audit(gh, [
        "--since",
        "2026-11-01",
        "--now",
        NOW,
        "--out-dir",
        `${work}/failed`,
      ]);
      assert.equal(result.code, 2, explain(result));
      assert.match(
        result.stderr,
        /list the pull requests of "o\/r": GitHub answered 502/,
      );
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
