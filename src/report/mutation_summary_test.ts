import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { buildVerdict, type MutationReport } from "../core/verdict.ts";
import { input } from "./_testing.ts";
import { markdownInline } from "./markdown_text.ts";
import { renderMarkdown } from "./render_markdown.ts";
import { renderSarif } from "./render_sarif.ts";
import { renderText } from "./render_text.ts";

const MUTATION: MutationReport = {
  reach: "import analysis",
  sampleSeed: 11,
  runSeed: 12,
  generated: 20,
  selected: 15,
  touched: 4,
  ran: 15,
  killed: 12,
  survived: 2,
  timedOut: 1,
  cutByCap: 5,
  cutByBudget: 0,
  weakened: 2,
};

function verdict() {
  const base = input();
  return buildVerdict([
    finding(
      "property.oracle_weakened",
      'Property "clamp_exact" (layout agent-contract) no longer catches 2 bugs\n--- src/kit/core.py:8\n+++ src/kit/core.py:8 (negate mutant m1)\n-    if x > hi:\n+    if not (x > hi):',
      { path: "src/kit/core.py", line: 8 },
    ),
    finding("property.mutants_survived", "2 of 15 mutants survive", {
      path: "src/kit/core.py",
      line: 6,
    }),
  ], { ...base, tests: { ...base.tests!, mutation: MUTATION } });
}

Deno.test("the terminal report and the Markdown comment carry the kill summary", () => {
  const summary =
    "15 of 20 mutants ran (4 in touched functions, found by import analysis): 12 killed, 2 survived, 1 timed out; 2 weaken a property; cut: 5 by max_mutants, 0 by the budget";
  const text = renderText(verdict());
  assert.ok(text.includes(`  mutation: ${summary}\n`), text);
  assert.match(text, /✗ src\/kit\/core\.py:8: Property "clamp_exact"/);
  const md = renderMarkdown(verdict());
  assert.ok(md.includes(`- **Mutation:** ${markdownInline(summary)}\n`), md);
});

Deno.test("the reports say how many mutants no test covers, when coverage picked the tests", () => {
  const base = input();
  const v = buildVerdict([], {
    ...base,
    tests: {
      ...base.tests!,
      mutation: { ...MUTATION, cutByBudget: 3, notCovered: 4 },
    },
  });
  const tail =
    "cut: 5 by max_mutants, 3 by the budget; 4 not run because no test covers them";
  assert.ok(renderText(v).includes(tail), renderText(v));
  assert.ok(
    renderMarkdown(v).includes(markdownInline(tail)),
    renderMarkdown(v),
  );
  assert.equal(
    JSON.parse(JSON.stringify(v)).tests.mutation.notCovered,
    4,
  );
});

Deno.test("reports leave the kill summary out when mutation is off", () => {
  const v = buildVerdict([], input());
  assert.ok(!renderText(v).includes("mutation:"));
  assert.ok(!renderMarkdown(v).includes("**Mutation:**"));
});

Deno.test("SARIF has a result at file:line for a weakening, blocking as an error", () => {
  const sarif = JSON.parse(renderSarif(verdict()));
  const results = sarif.runs[0].results as {
    ruleId: string;
    level: string;
    locations: {
      physicalLocation: {
        artifactLocation: { uri: string };
        region: { startLine: number };
      };
    }[];
  }[];
  const weak = results.find((r) => r.ruleId === "property.oracle_weakened");
  assert.ok(weak !== undefined, JSON.stringify(results));
  assert.equal(weak.level, "error");
  assert.equal(
    weak.locations[0]?.physicalLocation.artifactLocation.uri,
    "src/kit/core.py",
  );
  assert.equal(weak.locations[0]?.physicalLocation.region.startLine, 8);
  const gap = results.find((r) => r.ruleId === "property.mutants_survived");
  assert.notEqual(gap?.level, "error");
});
