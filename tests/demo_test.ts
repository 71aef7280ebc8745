/**
 * `pawl demo` runs the real gate on the built-in sample: the honest fix is
 * accepted and every weakening patch is rejected for the layer it weakens.
 */
import assert from "node:assert/strict";
import { SAMPLE_PATCHES } from "../src/demo/_sample_files.ts";
import { demoCommand } from "../src/cli/demo_command.ts";
import { E2E_SANDBOX_UIDS, explain, pawl } from "./_cli.ts";

/** The verdict and rule family each sample patch should get. */
const EXPECTED: Record<string, { verdict: string; family: string }> = {
  "agent/honest-fix": { verdict: "accept", family: "-" },
  "agent/delete-property": { verdict: "reject", family: "property" },
  "agent/rewrite-fixture": { verdict: "reject", family: "fixture" },
  "agent/extend-freeze": { verdict: "reject", family: "freeze" },
  "agent/vacuous-assert": { verdict: "reject", family: "property" },
  "agent/conftest-hook": { verdict: "reject", family: "harness" },
};

Deno.test("pawl demo accepts the honest fix and rejects every weakening patch", async () => {
  const result = await pawl(["demo", "--quiet"], { out: false });
  assert.equal(result.code, 0, explain(result) + result.stdout);
  const rows = new Map<string, { verdict: string; rule: string }>();
  for (const line of result.stdout.split("\n")) {
    const cells = line.trim().split(/\s{2,}/);
    const [branch, verdict, rule] = cells;
    if (branch === undefined || verdict === undefined || rule === undefined) {
      continue;
    }
    if (!/^(accept|reject)$/.test(verdict)) continue;
    rows.set(branch, { verdict, rule });
  }
  assert.deepEqual(
    [...rows.keys()],
    SAMPLE_PATCHES.map((p) => p.branch),
    result.stdout,
  );
  for (const patch of SAMPLE_PATCHES) {
    const expected = EXPECTED[patch.branch];
    assert.ok(expected !== undefined, `no expectation for ${patch.branch}`);
    const row = rows.get(patch.branch)!;
    assert.equal(
      row.verdict,
      expected.verdict,
      `${patch.branch}\n${result.stdout}`,
    );
    const family = row.rule === "-" ? "-" : row.rule.split(".")[0];
    assert.equal(family, expected.family, `${patch.branch}\n${result.stdout}`);
  }
});

Deno.test("pawl demo on a 120-column terminal: header on its own line, rows within the width, advice whole", async () => {
  // stdout and stderr as one terminal would show them, in order.
  const screen: { stream: "out" | "err"; text: string }[] = [];
  const code = await demoCommand([], {
    out: (text) => screen.push({ stream: "out", text }),
    err: (text) => screen.push({ stream: "err", text }),
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      PAWL_SANDBOX_UIDS: E2E_SANDBOX_UIDS,
    },
    terminal: true,
    columns: 120,
  });
  assert.equal(code, 0);
  const header = screen.findIndex((w) =>
    w.text.startsWith("Sample repository:")
  );
  assert.ok(header > 0);
  // The progress line before the header was cleared, not left for the
  // header to be glued onto.
  const before = screen.slice(0, header).map((w) => w.text).join("");
  assert.ok(
    before.endsWith("\r\x1b[2K") || before.endsWith("\n"),
    JSON.stringify(before.slice(-80)),
  );
  const stdout = screen.filter((w) => w.stream === "out").map((w) => w.text)
    .join("");
  for (const line of stdout.split("\n")) {
    assert.ok(line.length <= 120, `${line.length} columns: ${line}`);
  }
  assert.ok(!stdout.includes("…"), stdout);
});
