import assert from "node:assert/strict";
import { z } from "zod";
import { finding } from "../core/finding.ts";
import { buildVerdict } from "../core/verdict.ts";
import {
  acceptVerdict,
  CONTRACT,
  HOSTILE_MESSAGE,
  hostileVerdict,
  input,
  rejectVerdict,
} from "./_testing.ts";
import { renderCodeQuality } from "./render_codequality.ts";
import { renderUndecided } from "./render_undecided.ts";

/** The fields GitLab reads from a Code Quality report, and nothing else. */
const REPORT = z.array(z.strictObject({
  description: z.string().min(1),
  check_name: z.string().min(1),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  severity: z.enum(["info", "minor", "major", "critical", "blocker"]),
  location: z.strictObject({
    path: z.string().min(1).refine((p) => !p.startsWith("/")),
    lines: z.strictObject({ begin: z.number().int().min(1) }),
  }),
}));

function report(text: string) {
  assert.ok(text.endsWith("]\n"));
  return REPORT.parse(JSON.parse(text));
}

Deno.test("renderCodeQuality() writes one issue per finding in GitLab's shape", async (t) => {
  const cases = [
    { name: "accepted, no findings", verdict: acceptVerdict(), issues: 0 },
    { name: "rejected, mixed findings", verdict: rejectVerdict(), issues: 6 },
    { name: "hostile messages", verdict: hostileVerdict(), issues: 2 },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const issues = report(renderCodeQuality(c.verdict));
      assert.equal(issues.length, c.issues);
      assert.equal(
        new Set(issues.map((i) => i.fingerprint)).size,
        issues.length,
      );
    });
  }
});

Deno.test("renderCodeQuality() maps severity, rule and place from each finding", () => {
  const issues = report(renderCodeQuality(rejectVerdict()));
  const byRule = new Map(issues.map((i) => [i.check_name, i]));
  assert.deepEqual(byRule.get("property.removed"), {
    description:
      'Property "roundtrip_stable" was removed or renamed away: restore it',
    check_name: "property.removed",
    fingerprint: byRule.get("property.removed")!.fingerprint,
    severity: "blocker",
    location: { path: CONTRACT, lines: { begin: 3 } },
  });
  assert.equal(byRule.get("freeze.rerun_used")?.severity, "info");
  // A path without a line is line 1 of that file.
  assert.deepEqual(byRule.get("harness.pytest_config_changed")?.location, {
    path: "pyproject.toml",
    lines: { begin: 1 },
  });
  // No file at all: shown at the first contract file, and it says so.
  const timeout = byRule.get("tests.timeout")!;
  assert.deepEqual(timeout.location, { path: CONTRACT, lines: { begin: 1 } });
  assert.match(timeout.description, /has no file location/);
});

Deno.test("renderCodeQuality() keeps a finding's fingerprint when lines move and counts change", () => {
  const at = (line: number, ms: number) =>
    report(renderCodeQuality(buildVerdict([
      finding("tests.timeout", `Stopped at ${ms} ms`, {
        path: "tests/test_a.py",
        line,
      }),
    ], input())))[0]!.fingerprint;
  assert.equal(at(3, 600000), at(40, 1200));
  const other = report(renderCodeQuality(buildVerdict([
    finding("tests.timeout", "Stopped at 1 ms", { path: "tests/test_b.py" }),
  ], input())))[0]!.fingerprint;
  assert.notEqual(at(3, 1), other);
});

Deno.test("renderCodeQuality() gives identical findings distinct fingerprints, the first the same as alone", () => {
  const one = finding("tests.failed", "Test x failed", { path: "t.py" });
  const alone = report(renderCodeQuality(buildVerdict([one], input())));
  const twice = report(renderCodeQuality(buildVerdict([one, one], input())));
  assert.equal(twice.length, 2);
  assert.equal(twice[0]!.fingerprint, alone[0]!.fingerprint);
  assert.notEqual(twice[0]!.fingerprint, twice[1]!.fingerprint);
});

Deno.test("renderCodeQuality() never points outside the repository", async (t) => {
  const paths = ["/etc/passwd", "../outside.py", "a/../../b.py", "a\\b.py"];
  for (const path of paths) {
    await t.step(path, () => {
      const [issue] = report(renderCodeQuality(buildVerdict([
        finding("tests.failed", HOSTILE_MESSAGE, { path, line: 9 }),
      ], input({ contract: { ...input().contract, files: [] } }))));
      assert.deepEqual(issue!.location, { path: ".", lines: { begin: 1 } });
      assert.match(issue!.description, /is not repository-relative/);
      assert.ok(issue!.description.startsWith(HOSTILE_MESSAGE));
    });
  }
});

Deno.test("renderUndecided() writes a Code Quality blocker named pawl.undecided", () => {
  const plain = report(renderUndecided("Cannot decide: no clock").codequality);
  assert.equal(plain.length, 1);
  assert.equal(plain[0]!.check_name, "pawl.undecided");
  assert.equal(plain[0]!.severity, "blocker");
  assert.deepEqual(plain[0]!.location, { path: ".", lines: { begin: 1 } });
  assert.match(plain[0]!.description, /could not decide: Cannot decide/);
  const at = report(
    renderUndecided("Cannot read contract", {
      path: "invariants.toml",
      line: 4,
    })
      .codequality,
  );
  assert.deepEqual(at[0]!.location, {
    path: "invariants.toml",
    lines: { begin: 4 },
  });
});
