import { deepEqual, equal } from "node:assert/strict";
import { finding } from "./finding.ts";
import { buildVerdict, type VerdictInput } from "./verdict.ts";

const INPUT: VerdictInput = {
  pawl: { version: "0.0.0" },
  now: "2026-11-30T12:00:00Z",
  repo: "./r",
  base: "a".repeat(40),
  head: "b".repeat(40),
  contract: {
    layouts: [],
    files: [],
    digest: "sha256:x",
    freezeBodyHashes: [],
  },
  options: { allowFixtureRotate: false, isolation: "auto" },
  isolation: null,
  tests: null,
};

Deno.test("buildVerdict() accepts when nothing blocks", () => {
  const v = buildVerdict([
    finding("config.settings_ignored", "pawl.toml changed"),
  ], INPUT);
  equal(v.decision, "accept");
  equal(v.findings.length, 1);
});

Deno.test("buildVerdict() rejects on any blocking finding", () => {
  equal(
    buildVerdict([finding("tests.failed", "test_a failed")], INPUT).decision,
    "reject",
  );
});

Deno.test("buildVerdict() orders findings the same whatever order they arrive in", () => {
  const fs = [
    finding("tests.failed", "b", { path: "tests/b.py", line: 2 }),
    finding("config.settings_ignored", "n"),
    finding("property.vacuous", "v", { path: "tests/a.py", line: 9 }),
    finding("property.removed", "r", {
      path: "tests/agent_contract.yaml",
      line: 3,
    }),
    finding("tests.failed", "a", { path: "tests/a.py", line: 5 }),
  ];
  const forward = buildVerdict(fs, INPUT).findings.map((f) => f.message);
  const backward = buildVerdict([...fs].reverse(), INPUT).findings.map((f) =>
    f.message
  );
  deepEqual(forward, backward);
  deepEqual(forward, ["r", "v", "a", "b", "n"]);
});

Deno.test("buildVerdict() accepts a pull request with no findings at all", () => {
  const v = buildVerdict([], INPUT);
  equal(v.decision, "accept");
  deepEqual(v.findings, []);
});

Deno.test("buildVerdict() rejects a mix of blocking and non-blocking findings, keeping both, blocking first", () => {
  const v = buildVerdict([
    finding("config.settings_ignored", "advisory"),
    finding("fixture.rotated", "rotated"),
    finding("tests.failed", "test_a failed"),
  ], INPUT);
  equal(v.decision, "reject");
  deepEqual(v.findings.map((f) => [f.rule, f.blocking]), [
    ["tests.failed", true],
    ["config.settings_ignored", false],
    ["fixture.rotated", false],
  ]);
});

Deno.test("buildVerdict() accepts when only non-blocking findings remain, however many", () => {
  const v = buildVerdict([
    finding("config.settings_ignored", "one"),
    finding("fixture.rotated", "two"),
    finding("tests.failed", "demoted", { blocking: false }),
  ], INPUT);
  equal(v.decision, "accept");
  equal(v.findings.length, 3);
});

Deno.test("finding() takes a per-finding blocking override over the rule's default, both ways", () => {
  equal(finding("tests.failed", "x").blocking, true);
  equal(finding("tests.failed", "x", { blocking: false }).blocking, false);
  equal(finding("config.settings_ignored", "x").blocking, false);
  equal(
    finding("config.settings_ignored", "x", { blocking: true }).blocking,
    true,
  );
  equal(
    buildVerdict([finding("tests.failed", "x", { blocking: false })], INPUT)
      .decision,
    "accept",
  );
  equal(
    buildVerdict(
      [finding("config.settings_ignored", "x", { blocking: true })],
      INPUT,
    ).decision,
    "reject",
  );
});
