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
