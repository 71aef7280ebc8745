import assert from "node:assert/strict";
import { buildVerdict, type ExcuseRecord } from "../core/verdict.ts";
import { input } from "./_testing.ts";
import { renderMarkdown } from "./render_markdown.ts";
import { renderText } from "./render_text.ts";

const EXCUSES: ExcuseRecord[] = [
  {
    test: "tests/test_io.py::test_locale",
    owner: "platform-team",
    reason: "no de_DE locale | here",
    expires: "2026-12-31T00:00:00Z",
    status: "active",
  },
  {
    test: "tests/test_tz.py",
    owner: "oncall",
    reason: "no TZ data",
    expires: "2026-11-01T00:00:00Z",
    status: "expired",
  },
];

Deno.test("renderText() shows each excuse of the base with its owner and expiry", () => {
  const text = renderText(buildVerdict([], input({ excuses: EXCUSES })));
  assert.match(
    text,
    /^ {2}excused on this runner: "tests\/test_io\.py::test_locale" \(owner "platform-team", until 2026-12-31T00:00:00Z\)$/m,
  );
  assert.match(
    text,
    /^ {2}excuse expired: "tests\/test_tz\.py" \(owner "oncall", until 2026-11-01T00:00:00Z\)$/m,
  );
  assert.doesNotMatch(renderText(buildVerdict([], input())), /excuse/);
});

Deno.test("renderMarkdown() lists active and expired excuses for reviewers, escaped", () => {
  const md = renderMarkdown(buildVerdict([], input({ excuses: EXCUSES })));
  assert.match(
    md,
    /- \*\*Excused on this runner\*\* \(base `pawl.toml`, not run\): `tests\/test_io\.py::test_locale` \(owner platform-team, until `2026-12-31T00:00:00Z`: no de\\_DE locale \\\| here\)/,
  );
  assert.match(
    md,
    /- \*\*Expired excuses\*\* \(run like any test\): `tests\/test_tz\.py`/,
  );
  assert.doesNotMatch(renderMarkdown(buildVerdict([], input())), /xcuse/);
});
