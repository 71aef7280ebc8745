/**
 * `[[excuses]]` in the base's `pawl.toml`, end to end with real sandboxed
 * pytest runs: a test that fails only on this runner is deselected while
 * its excuse lasts, recorded in the verdict JSON, the text report and the
 * Markdown; past its expiry (on the `--now` clock) it runs and fails
 * again; a head cannot excuse its own failures; an excuse that would hide
 * a registered property is exit 2.
 */
import assert from "node:assert/strict";
import { sampleBaseFiles } from "../src/demo/build_sample_repo.ts";
import { blocking, check, explain, NOW, rules } from "./_cli.ts";
import { buildRepo } from "./_repo.ts";
import {
  APPLY_TEST,
  L002,
  L003,
  layout002Base,
  layout003Base,
} from "./_layouts.ts";

const RUNNER_TEST = "tests/test_runner_env.py";
const RUNNER_NODE = `${RUNNER_TEST}::test_needs_a_german_locale`;
/** Passes only where a locale this runner lacks is set. */
const RUNNER_TEXT = `import os


def test_needs_a_german_locale():
    assert os.environ.get("PAWL_EXAMPLE_LOCALE") == "de_DE.UTF-8"
`;

function excuse(test: string, owner = "platform-team"): string {
  return `[[excuses]]
test = "${test}"
owner = "${owner}"
expires = "2026-12-01T00:00:00Z"
reason = "this runner has no de_DE locale; PLAT-17"
`;
}

function base(settings: string): Record<string, string> {
  return {
    ...sampleBaseFiles(),
    [RUNNER_TEST]: RUNNER_TEXT,
    "pawl.toml": settings,
  };
}

Deno.test("an excused test is deselected until its expiry and shown to reviewers; afterwards it runs again", async () => {
  await using repo = await buildRepo({
    base: base(excuse(RUNNER_NODE)),
    heads: {
      "agent/readme": { "README.md": "# payments\n\nA note.\n" },
      "agent/excuse-own-failure": {
        "tests/test_more_env.py": RUNNER_TEXT.replace(
          "test_needs_a_german_locale",
          "test_needs_it_too",
        ),
        "pawl.toml": excuse(RUNNER_NODE) +
          "\n" + excuse("tests/test_more_env.py", "Agent"),
      },
    },
  });
  const markdown = await Deno.makeTempFile({ suffix: ".md" });
  try {
    const active = await check(repo.dir, "agent/readme", {
      extra: ["--markdown", markdown],
    });
    assert.equal(active.code, 0, explain(active));
    const v = active.verdict!;
    assert.deepEqual(blocking(v), []);
    assert.deepEqual((v as unknown as { excuses: unknown }).excuses, [{
      test: RUNNER_NODE,
      owner: "platform-team",
      reason: "this runner has no de_DE locale; PLAT-17",
      expires: "2026-12-01T00:00:00Z",
      status: "active",
    }]);
    const note = v.findings.find((f) => f.rule === "tests.excused");
    assert.equal(note?.blocking, false);
    assert.match(note?.message ?? "", /owner "platform-team"/);
    assert.equal(v.tests?.summary.failed, 0);
    assert.match(
      active.stdout,
      /excused on this runner: "tests\/test_runner_env\.py::test_needs_a_german_locale" \(owner "platform-team", until 2026-12-01T00:00:00Z\)/,
    );
    const md = await Deno.readTextFile(markdown);
    assert.match(md, /\*\*Excused on this runner\*\*/);
    assert.match(md, /test_needs_a_german_locale/);

    // On the --now clock only: at its expiry the test is back, and fails
    // at the base as well: not the pull request's doing, so undecided.
    const expired = await check(repo.dir, "agent/readme", {
      now: "2026-12-01T00:00:00Z",
    });
    assert.equal(expired.code, 2, explain(expired));
    assert.match(
      expired.stderr,
      /"tests\/test_runner_env\.py::test_needs_a_german_locale" already fails on this runner/,
    );
    assert.match(expired.stderr, /excuse it in the base's pawl\.toml/);

    // The head's own excuse changes nothing: its failing test runs (the
    // base's excuse still holds) and the settings change is a reject.
    const own = await check(repo.dir, "agent/excuse-own-failure");
    assert.equal(own.code, 1, explain(own));
    const ownRules = rules(blocking(own.verdict));
    assert.ok(ownRules.includes("tests.failed"), ownRules.join());
    assert.ok(ownRules.includes("config.settings_changed"), ownRules.join());
    assert.ok(
      blocking(own.verdict).some((f) =>
        f.rule === "tests.failed" && /test_needs_it_too/.test(f.message)
      ),
      explain(own),
    );
    assert.ok(
      !blocking(own.verdict).some((f) => /german_locale/.test(f.message)),
      explain(own),
    );
  } finally {
    await Deno.remove(markdown);
  }
});

Deno.test("an excuse that would deselect a registered property is the base's problem: exit 2", async () => {
  await using repo = await buildRepo({
    base: base(excuse("tests/properties/test_codec.py")),
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const result = await check(repo.dir, "agent/readme", { command: "diff" });
  assert.equal(result.code, 2, explain(result));
  assert.match(result.stderr, /config\.excuse_covers_property/);
  assert.match(result.stderr, /"roundtrip_stable"/);
  assert.match(result.stderr, /not the pull request's fault/);
});

Deno.test("an agent-owned excuse in the base's pawl.toml is exit 2 naming the key and line", async () => {
  await using repo = await buildRepo({
    base: base(excuse(RUNNER_NODE, "аgent")),
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const result = await check(repo.dir, "agent/readme", {
    now: NOW,
    command: "diff",
  });
  assert.equal(result.code, 2, explain(result));
  assert.match(result.stderr, /excuses\.0\.owner" at line 3/);
  assert.match(result.stderr, /reads as "agent"/);
});

Deno.test("excuses in layouts 002 and 003: a frozen seed's or a registered property's test cannot be excused, any other test can", async (t) => {
  const { files: files003 } = await layout003Base();
  const cases: [string, Record<string, string>, string, RegExp | null][] = [
    [
      "002: the frozen seed's contract test",
      layout002Base(),
      APPLY_TEST,
      /frozen seed 1725781203|"ledger\.apply\.idempotent"/,
    ],
    ["002: an example test", layout002Base(), L002.examples, null],
    [
      "003: a registered property's file",
      files003,
      L003.properties,
      /"money\.roundtrip"/,
    ],
    ["003: a plain test", files003, L003.total, null],
  ];
  for (const [name, files, test, refused] of cases) {
    await t.step(name, async () => {
      await using repo = await buildRepo({
        base: { ...files, "pawl.toml": excuse(test) },
        heads: { "agent/readme": { "README.md": "# readme\n" } },
      });
      const result = await check(repo.dir, "agent/readme", { command: "diff" });
      if (refused === null) {
        assert.equal(result.code, 0, explain(result));
        const records = (result.verdict as unknown as {
          excuses: { test: string; status: string }[];
        }).excuses;
        assert.deepEqual(records.map((r) => [r.test, r.status]), [[
          test,
          "active",
        ]]);
      } else {
        assert.equal(result.code, 2, explain(result));
        assert.match(result.stderr, /config\.excuse_covers_property/);
        assert.match(result.stderr, refused);
      }
    });
  }
});

Deno.test("an excused file is not even collected, so a module this runner cannot import is excused too", async () => {
  const file = "tests/test_needs_a_library.py";
  const text =
    "import pawl_example_library_this_runner_lacks\n\n\ndef test_uses_it():\n    assert pawl_example_library_this_runner_lacks.ok()\n";
  await using repo = await buildRepo({
    base: {
      ...base(`${excuse(RUNNER_NODE)}\n${excuse(file)}`),
      [file]: text,
    },
    heads: { "agent/readme": { "README.md": "# payments\n" } },
  });
  const result = await check(repo.dir, "agent/readme");
  assert.equal(result.code, 0, explain(result));
  assert.deepEqual(blocking(result.verdict), []);
  assert.ok(
    !result.verdict!.findings.some((f) => f.rule === "tests.collection_error"),
    explain(result),
  );
});
