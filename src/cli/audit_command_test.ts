import assert from "node:assert/strict";
import {
  type AuditDecision,
  buildAuditRecord,
  readAuditPullRequest,
} from "../audit/mod.ts";
import { UsageError } from "./parse_command_args.ts";
import { buildVerdict } from "../core/verdict.ts";
import { finding } from "../core/finding.ts";
import { auditCommand } from "./audit_command.ts";
import type { CliIo } from "./cli_io.ts";

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    env: {},
    terminal: false,
  };
}

const NOW = "2026-11-30T11:30:00Z";

/** A record as `pawl audit` writes it. */
function recordJson(number: number, decision: AuditDecision): string {
  const pr = readAuditPullRequest({
    number,
    state: "closed",
    title: `Pull request ${number}`,
    "created_at": "2026-11-01T09:00:00Z",
    "updated_at": NOW,
    "merged_at": NOW,
    base: {
      ref: "main",
      sha: "a".repeat(40),
      repo: { "full_name": "o/r", "clone_url": "https://github.com/o/r.git" },
    },
    head: { ref: "x", sha: "b".repeat(40), repo: { "full_name": "o/r" } },
  }, "the test");
  const clock = {
    source: "merged-at" as const,
    field: "pull_request.merged_at",
    now: NOW,
  };
  const record = decision === "accept" || decision === "reject"
    ? buildAuditRecord("o/r", pr, clock, {
      kind: "verdict",
      verdict: buildVerdict(
        decision === "reject" ? [finding("property.removed", "Removed")] : [],
        {
          pawl: { version: "0.1.0" },
          now: NOW,
          clock: { source: "merged-at", field: "pull_request.merged_at" },
          repo: "https://github.com/o/r.git",
          base: pr.base.sha,
          head: pr.head.sha,
          contract: {
            layouts: [],
            files: [],
            digest: "",
            freezeBodyHashes: [],
          },
          options: { allowFixtureRotate: false, isolation: "auto" },
          isolation: null,
          tests: null,
        },
      ),
    })
    : buildAuditRecord("o/r", pr, clock, { kind: decision, reason: "gone" });
  return JSON.stringify(record, null, 2) + "\n";
}

Deno.test("auditCommand() refuses a command line it cannot run, before asking GitHub", async (t) => {
  const base = ["--repo", "o/r", "--prs", "1..3", "--now", NOW];
  const cases: [string, string[], new (...a: never[]) => Error, RegExp][] = [
    ["no --repo", ["--prs", "1", "--now", NOW], UsageError, /"--repo"/],
    [
      "a --repo that is not OWNER/REPO",
      ["--repo", "o", "--prs", "1", "--now", NOW],
      UsageError,
      /Cannot read --repo "o"/,
    ],
    [
      "neither --prs nor --since",
      ["--repo", "o/r", "--now", NOW],
      UsageError,
      /Missing "--prs" or "--since"/,
    ],
    [
      "no clock",
      ["--repo", "o/r", "--prs", "1"],
      UsageError,
      /without a clock/,
    ],
    [
      "a malformed --now",
      [...base.slice(0, 4), "--now", "today"],
      UsageError,
      /"today"/,
    ],
    [
      "--now and --now-from together",
      [...base, "--now-from", "merged-at"],
      UsageError,
      /exclude each other/,
    ],
    [
      "an unknown clock source",
      ["--repo", "o/r", "--prs", "1", "--now-from", "updated-at"],
      UsageError,
      /Unknown clock source "updated-at"/,
    ],
    [
      "a bad --prs",
      ["--repo", "o/r", "--prs", "9..3", "--now", NOW],
      UsageError,
      /runs backwards/,
    ],
    [
      "a bad --since",
      ["--repo", "o/r", "--since", "May", "--now", NOW],
      UsageError,
      /--since "May"/,
    ],
    [
      "a bad --shard",
      [...base, "--shard", "2/2"],
      UsageError,
      /--shard "2\/2"/,
    ],
    [
      "--concurrency 0",
      [...base, "--concurrency", "0"],
      UsageError,
      /--concurrency "0"/,
    ],
    [
      "a bad --sandbox-uid",
      [...base, "--sandbox-uid", "root"],
      UsageError,
      /--sandbox-uid "root"/,
    ],
    [
      "a bad --sandbox-uids",
      [...base, "--sandbox-uids", "64200-"],
      UsageError,
      /--sandbox-uids "64200-": expected "FIRST-LAST"/,
    ],
    [
      "--sandbox-uid with --sandbox-uids",
      [...base, "--sandbox-uid", "64200", "--sandbox-uids", "64200-64201"],
      UsageError,
      /"--sandbox-uid" and "--sandbox-uids" exclude each other/,
    ],
    [
      "an unknown isolation",
      [...base, "--isolation", "bogus"],
      UsageError,
      /"bogus"/,
    ],
    ["an unknown option", [...base, "--publish"], UsageError, /publish/],
  ];
  for (const [name, args, type, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(auditCommand(args, io()), (error) => {
        assert.ok(error instanceof type, String(error));
        assert.match((error as Error).message, message);
        return true;
      });
    });
  }
});

Deno.test("auditCommand() report rebuilds the report from every record in the directory", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_audit_command_" });
  try {
    await t.step("every record decided: exit 0", async () => {
      await Deno.writeTextFile(`${dir}/pr-1.json`, recordJson(1, "accept"));
      await Deno.writeTextFile(`${dir}/pr-2.json`, recordJson(2, "reject"));
      await Deno.writeTextFile(`${dir}/pr-3.json`, recordJson(3, "skipped"));
      await Deno.writeTextFile(`${dir}/notes.json`, "not a record");
      const cli = io();
      assert.equal(
        await auditCommand(["report", "--out-dir", `${dir}/`], cli),
        0,
      );
      assert.match(
        cli.stdout.join(""),
        /3 pull requests: 1 accept, 1 reject, 0 undecided, 1 skipped/,
      );
      const json = JSON.parse(await Deno.readTextFile(`${dir}/audit.json`));
      assert.deepEqual(json.counts, {
        total: 3,
        accept: 1,
        reject: 1,
        undecided: 0,
        skipped: 1,
      });
      assert.match(
        await Deno.readTextFile(`${dir}/audit.md`),
        /^# pawl audit: o\/r/,
      );
      assert.match(
        await Deno.readTextFile(`${dir}/audit.html`),
        /<svg class="chart decisions"/,
      );
      const left = (await Array.fromAsync(Deno.readDir(dir)))
        .map((e) => e.name).filter((n) => n.endsWith(".tmp"));
      assert.deepEqual(left, []);
    });
    await t.step("an undecided or unreadable record: exit 2", async () => {
      await Deno.writeTextFile(`${dir}/pr-4.json`, recordJson(4, "undecided"));
      await Deno.writeTextFile(
        `${dir}/pr-5.json`,
        recordJson(5, "accept").slice(0, 50),
      );
      const cli = io();
      assert.equal(
        await auditCommand(["report", "--out-dir", dir, "--json"], cli),
        2,
      );
      const json = JSON.parse(cli.stdout.join(""));
      assert.equal(json.counts.undecided, 1);
      assert.equal(json.counts.total, 4);
      assert.match(json.unreadable[0], /pr-5\.json": not JSON/);
      assert.match(cli.stderr.join(""), /pr-5\.json/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("auditCommand() report refuses a directory without records", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_audit_command_" });
  try {
    await assert.rejects(
      auditCommand(["report", "--out-dir", dir], io()),
      /holds no audit records/,
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), []);
    await assert.rejects(
      auditCommand(["report", "--out-dir", `${dir}/missing`], io()),
      /cannot read the directory/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
