import assert from "node:assert/strict";
import { RULES } from "../core/rules.ts";
import { HOME_URL } from "../version.ts";
import {
  renderRulesDoc,
  ruleAnchor,
  ruleHelpUri,
  RULES_DOC_PATH,
  UNDECIDED_RULE,
} from "./render_rules_doc.ts";
import { renderSarif } from "./render_sarif.ts";
import { renderUndecided } from "./render_undecided.ts";
import { acceptVerdict } from "./_testing.ts";

const COMMITTED = await Deno.readTextFile(
  new URL(`../../${RULES_DOC_PATH}`, import.meta.url),
);

/** The anchors GitHub gives the page's headings, computed from the page itself. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      heading!.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(
        / /g,
        "-",
      ),
    );
  }
  return anchors;
}

Deno.test("docs/rules.md is the page the rule registry generates", () => {
  assert.equal(
    COMMITTED,
    renderRulesDoc(),
    "docs/rules.md is stale: run `deno run --allow-write=docs tools/write_rules_doc.ts`",
  );
});

Deno.test("docs/rules.md has one section per rule with what it checks, its layer, its default and how to fix", () => {
  const sections = COMMITTED.split(/^### /m).slice(1);
  const ids = sections.map((s) => s.slice(0, s.indexOf("\n")));
  assert.deepEqual(
    [...ids].sort(),
    [...Object.keys(RULES), UNDECIDED_RULE].sort(),
  );
  for (const [id, spec] of Object.entries(RULES)) {
    const body = sections[ids.indexOf(id)]!.replace(/\s+/g, " ");
    assert.ok(body.includes(`Layer: \`${spec.layer}\``), id);
    assert.ok(
      body.includes(
        `Blocks a merge by default: ${spec.blocking ? "yes" : "no"}`,
      ),
      id,
    );
    assert.ok(body.includes("How to fix: "), id);
  }
});

Deno.test("every helpUri in pawl's SARIF points at a heading of docs/rules.md", () => {
  const anchors = anchorsOf(COMMITTED);
  const uris = [
    ...JSON.parse(renderSarif(acceptVerdict())).runs[0].tool.driver.rules,
    ...JSON.parse(renderUndecided("x").sarif).runs[0].tool.driver.rules,
  ].map((r: { helpUri: string }) => r.helpUri);
  assert.equal(uris.length, Object.keys(RULES).length + 1);
  const base = `${HOME_URL}/blob/main/${RULES_DOC_PATH}#`;
  for (const uri of uris) {
    assert.ok(uri.startsWith(base), uri);
    assert.ok(anchors.has(uri.slice(base.length)), uri);
  }
});

Deno.test("ruleAnchor() gives GitHub's anchor for a rule's heading", async (t) => {
  const cases: [string, string][] = [
    ["property.removed", "propertyremoved"],
    ["tests.changed_code_unexecuted", "testschanged_code_unexecuted"],
    ["pawl.undecided", "pawlundecided"],
  ];
  for (const [id, anchor] of cases) {
    await t.step(id, () => {
      assert.equal(ruleAnchor(id), anchor);
      assert.ok(ruleHelpUri(id).endsWith(`#${anchor}`));
    });
  }
});

Deno.test("every rule has a summary and a fix of its own, as sentences", () => {
  for (const [id, spec] of Object.entries(RULES)) {
    assert.match(spec.summary, /^[A-Za-z]/, id);
    assert.match(spec.fix, /^[A-Z].*\.$/, id);
    assert.notEqual(spec.fix, spec.summary, id);
  }
});
