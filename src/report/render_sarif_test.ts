import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { RULES } from "../core/rules.ts";
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import {
  acceptVerdict,
  CONTRACT,
  HEAD,
  HOSTILE_MESSAGE,
  hostileVerdict,
  input,
  longVerdict,
  mixedFindings,
  rejectVerdict,
} from "./_testing.ts";
import { HOME_URL } from "../version.ts";
import { ruleHelpUri } from "./render_rules_doc.ts";
import {
  FINGERPRINT_KEY,
  renderSarif,
  type RenderSarifOptions,
  SARIF_SCHEMA,
} from "./render_sarif.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const LEVELS = new Set(["none", "note", "warning", "error"]);

/**
 * Structural checks for every property SARIF 2.1.0 requires of what pawl
 * writes, plus what GitHub code scanning needs to show a result.
 */
function assertValidSarif(log: Json): void {
  assert.equal(typeof log, "object");
  assert.equal(log.$schema, SARIF_SCHEMA);
  assert.equal(log.version, "2.1.0");
  assert.ok(Array.isArray(log.runs));
  assert.equal(log.runs.length, 1);
  const run = log.runs[0];
  const driver = run.tool.driver;
  assert.equal(driver.name, "pawl");
  assert.equal(typeof driver.version, "string");
  assert.match(driver.informationUri, /^https:\/\//);
  assert.ok(Array.isArray(driver.rules));
  const ids = new Set<string>();
  for (const rule of driver.rules) {
    assert.equal(typeof rule.id, "string");
    assert.ok(!ids.has(rule.id), `duplicate rule ${rule.id}`);
    ids.add(rule.id);
    assert.match(rule.name, /^[A-Z][A-Za-z0-9]*$/);
    assert.ok(rule.shortDescription.text.length > 0);
    assert.ok(rule.fullDescription.text.length > 0);
    assert.ok(LEVELS.has(rule.defaultConfiguration.level));
    assert.ok(Array.isArray(rule.properties.tags));
    assert.ok(rule.help.text.length > 0);
    assert.ok(rule.help.markdown.length > 0);
  }
  assert.match(run.automationDetails.id, /^pawl\/.+/);
  for (const vcs of run.versionControlProvenance ?? []) {
    assert.doesNotThrow(() => new URL(vcs.repositoryUri));
    assert.match(vcs.revisionId, /^\S+$/);
  }
  assert.equal(run.invocations.length, 1);
  assert.equal(run.invocations[0].executionSuccessful, true);
  assert.ok(
    ["accept", "reject"].includes(run.invocations[0].properties.decision),
  );
  assert.ok(Array.isArray(run.results));
  for (const result of run.results) {
    assert.equal(typeof result.ruleId, "string");
    assert.ok(Number.isInteger(result.ruleIndex));
    assert.equal(driver.rules[result.ruleIndex].id, result.ruleId);
    assert.ok(LEVELS.has(result.level));
    assert.equal(typeof result.message.text, "string");
    assert.ok(result.message.text.length > 0);
    assert.ok(result.locations.length >= 1);
    for (const location of result.locations) {
      const physical = location.physicalLocation;
      if (physical === undefined) {
        // Only the repository: no file that might not exist.
        assert.equal(location.logicalLocations[0].name, "repository");
        continue;
      }
      const uri: string = physical.artifactLocation.uri;
      assert.equal(physical.artifactLocation.uriBaseId, "%SRCROOT%");
      // A relative reference: no scheme, no leading slash, nothing a URI
      // cannot hold unescaped.
      assert.doesNotMatch(uri, /^[A-Za-z][A-Za-z0-9+.-]*:|^\//);
      assert.match(uri, /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$/);
      assert.doesNotThrow(() => decodeURIComponent(uri));
      assert.ok(Number.isInteger(physical.region.startLine));
      assert.ok(physical.region.startLine >= 1);
    }
    for (const value of Object.values(result.partialFingerprints)) {
      assert.equal(typeof value, "string");
    }
  }
}

function sarif(verdict: Verdict, options: RenderSarifOptions = {}): Json {
  const log = JSON.parse(renderSarif(verdict, options));
  assertValidSarif(log);
  return log;
}

function results(verdict: Verdict): Json[] {
  return sarif(verdict).runs[0].results;
}

Deno.test("renderSarif() writes a valid log for an accept with no findings", () => {
  const log = sarif(acceptVerdict());
  const run = log.runs[0];
  assert.deepEqual(run.results, []);
  assert.equal(run.invocations[0].properties.decision, "accept");
  assert.equal(run.automationDetails.id, `pawl/${HEAD}`);
  assert.equal(run.versionControlProvenance[0].revisionId, HEAD);
  assert.equal(run.tool.driver.version, "0.1.0");
});

Deno.test("renderSarif() lists every registry rule with its default level and layer", () => {
  const rules: Json[] = sarif(acceptVerdict()).runs[0].tool.driver.rules;
  assert.deepEqual(rules.map((r) => r.id), Object.keys(RULES));
  for (const rule of rules) {
    const spec = RULES[rule.id as keyof typeof RULES];
    assert.equal(rule.shortDescription.text, spec.summary);
    assert.equal(
      rule.defaultConfiguration.level,
      spec.blocking ? "error" : "note",
    );
    assert.ok(rule.properties.tags.includes(spec.layer));
  }
  const removed = rules.find((r) => r.id === "property.removed");
  assert.equal(removed.name, "PropertyRemoved");
});

Deno.test("renderSarif() reports a reject with blocking and non-blocking findings", async (t) => {
  const verdict = rejectVerdict();
  const log = sarif(verdict);
  const out: Json[] = log.runs[0].results;
  assert.equal(log.runs[0].invocations[0].properties.decision, "reject");

  await t.step("one result per finding, in verdict order", () => {
    assert.deepEqual(
      out.map((r) => r.ruleId),
      verdict.findings.map((f) => f.rule),
    );
  });

  await t.step("the level follows each finding's own blocking flag", () => {
    assert.deepEqual(
      out.map((r) => r.level),
      verdict.findings.map((f) => f.blocking ? "error" : "note"),
    );
  });

  await t.step("a finding with a path and line points at them", () => {
    const removed = out.find((r) => r.ruleId === "property.removed");
    assert.deepEqual(removed.locations[0].physicalLocation, {
      artifactLocation: { uri: CONTRACT, uriBaseId: "%SRCROOT%" },
      region: { startLine: 3 },
    });
    assert.equal(removed.properties.location, "own");
    assert.equal(
      removed.message.text,
      'Property "roundtrip_stable" was removed or renamed away: restore it',
    );
  });

  await t.step("a finding with a path and no line points at line 1", () => {
    const harness = out.find((r) =>
      r.ruleId === "harness.pytest_config_changed"
    );
    assert.equal(
      harness.locations[0].physicalLocation.artifactLocation.uri,
      "pyproject.toml",
    );
    assert.equal(harness.locations[0].physicalLocation.region.startLine, 1);
  });
});

Deno.test("renderSarif() shows a finding without a usable path at the contract file and says so", async (t) => {
  const cases = [
    {
      name: "no path at all",
      finding: finding("tests.timeout", "The test run was stopped"),
      note:
        '(shown at "tests/agent_contract.yaml": the finding has no file location)',
    },
    {
      name: "an absolute path",
      finding: finding("tests.failed", "Test failed", {
        path: "/etc/passwd",
        line: 9,
      }),
      note:
        '(shown at "tests/agent_contract.yaml": the finding\'s path "/etc/passwd" is not repository-relative)',
    },
    {
      name: "a path that climbs out",
      finding: finding("tests.failed", "Test failed", { path: "../x.py" }),
      note:
        '(shown at "tests/agent_contract.yaml": the finding\'s path "../x.py" is not repository-relative)',
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const [result] = results(buildVerdict([c.finding], input()));
      assert.equal(result.message.text, `${c.finding.message} ${c.note}`);
      assert.deepEqual(result.locations[0].physicalLocation, {
        artifactLocation: { uri: CONTRACT, uriBaseId: "%SRCROOT%" },
        region: { startLine: 1 },
      });
      assert.equal(result.properties.location, "shown");
    });
  }

  await t.step(
    "without contract files it names the repository, not a file",
    () => {
      const verdict = buildVerdict(
        [finding("tests.timeout", "The test run was stopped")],
        input({
          contract: {
            layouts: [],
            files: [],
            digest: "",
            freezeBodyHashes: [],
          },
        }),
      );
      const [result] = results(verdict);
      assert.equal(result.locations[0].physicalLocation, undefined);
      assert.deepEqual(result.locations[0].logicalLocations, [{
        name: "repository",
        fullyQualifiedName: "repository",
        kind: "module",
      }]);
      assert.equal(result.properties.location, "repository");
      assert.equal(
        result.message.text,
        "The test run was stopped (shown at the repository: the finding has no file location)",
      );
    },
  );
});

Deno.test("renderSarif() keeps hostile messages and percent-encodes odd paths", () => {
  const out = results(hostileVerdict());
  const failed = out.find((r) => r.ruleId === "tests.failed");
  assert.equal(failed.message.text, HOSTILE_MESSAGE);
  assert.equal(
    failed.locations[0].physicalLocation.artifactLocation.uri,
    "tests/test_a%7Cb%20%3Cx%3E.py",
  );
  assert.equal(
    decodeURIComponent(
      failed.locations[0].physicalLocation.artifactLocation.uri,
    ),
    "tests/test_a|b <x>.py",
  );
  const fresh = out.find((r) => r.ruleId === "seed.fresh_failed");
  // seed.fresh_failed blocks by default; this finding does not.
  assert.equal(fresh.level, "note");
  assert.ok(fresh.message.text.startsWith(HOSTILE_MESSAGE));
});

Deno.test("renderSarif() gives stable fingerprints", async (t) => {
  function fingerprintOf(f: ReturnType<typeof finding>): string {
    const [result] = results(buildVerdict([f], input()));
    return result.partialFingerprints[FINGERPRINT_KEY];
  }
  const base = finding(
    "property.min_examples_lowered",
    'Property "p" min_examples was lowered from 100 to 50: restore the count',
    { path: CONTRACT, line: 4 },
  );

  await t.step("a sha256 with an occurrence number", () => {
    assert.match(fingerprintOf(base), /^[0-9a-f]{64}:1$/);
  });

  await t.step("the same across moved lines, counts and digests", () => {
    assert.equal(
      fingerprintOf(
        finding(
          "property.min_examples_lowered",
          'Property "p" min_examples was lowered from 120 to 40:  restore the count',
          { path: CONTRACT, line: 9 },
        ),
      ),
      fingerprintOf(base),
    );
    assert.equal(
      fingerprintOf(
        finding(
          "fixture.digest_mismatch",
          "expected 8f3a1c0e0b77 got 00aa11bb22cc",
          {
            path: CONTRACT,
          },
        ),
      ),
      fingerprintOf(
        finding(
          "fixture.digest_mismatch",
          "expected 1234567890ab got deadbeef0001",
          {
            path: CONTRACT,
          },
        ),
      ),
    );
  });

  await t.step("different for another rule, path or wording", () => {
    const others = [
      finding("property.removed", base.message, { path: CONTRACT }),
      finding("property.min_examples_lowered", base.message, {
        path: "invariants.toml",
      }),
      finding(
        "property.min_examples_lowered",
        'Property "q" min_examples was lowered from 100 to 50: restore the count',
        { path: CONTRACT },
      ),
    ];
    for (const other of others) {
      assert.notEqual(fingerprintOf(other), fingerprintOf(base));
    }
  });

  await t.step("identical findings are numbered", () => {
    const out = results(buildVerdict([base, base], input()));
    const [first, second] = out.map((r) =>
      r.partialFingerprints[FINGERPRINT_KEY] as string
    );
    assert.equal(first!.slice(0, 64), second!.slice(0, 64));
    assert.ok(first!.endsWith(":1") && second!.endsWith(":2"));
  });
});

Deno.test("renderSarif() derives a repository URI without credentials", async (t) => {
  const cases = [
    {
      repo: "https://user:s3cret@github.com/o/r.git",
      uri: "https://github.com/o/r.git",
    },
    { repo: "git@github.com:o/r.git", uri: "ssh://github.com/o/r.git" },
    { repo: "/srv/repos/my repo", uri: "file:///srv/repos/my%20repo" },
  ];
  for (const c of cases) {
    await t.step(c.repo, () => {
      const log = sarif(buildVerdict([], input({ repo: c.repo })));
      assert.equal(
        log.runs[0].versionControlProvenance[0].repositoryUri,
        c.uri,
      );
    });
  }
  for (const repo of ["./some-repo", ".", "some-repo"]) {
    await t.step(
      `${repo}: a relative path has no URI, so no provenance`,
      () => {
        const log = sarif(buildVerdict([], input({ repo })));
        assert.equal(log.runs[0].versionControlProvenance, undefined);
        assert.equal(log.runs[0].automationDetails.id, `pawl/${HEAD}`);
      },
    );
  }
  await t.step("an explicit repositoryUri wins", () => {
    const log = sarif(acceptVerdict(), {
      repositoryUri: "https://github.com/o/r",
    });
    assert.equal(
      log.runs[0].versionControlProvenance[0].repositoryUri,
      "https://github.com/o/r",
    );
  });
});

Deno.test("renderSarif() reports every finding of a long list", () => {
  const out = results(longVerdict(500));
  assert.equal(out.length, 500);
  assert.equal(
    new Set(out.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).size,
    500,
  );
});

Deno.test("renderSarif() is deterministic", () => {
  const findings = mixedFindings();
  const once = renderSarif(buildVerdict(findings, input()));
  assert.equal(renderSarif(buildVerdict(findings, input())), once);
  assert.equal(
    renderSarif(buildVerdict([...findings].reverse(), input())),
    once,
  );
  assert.ok(once.endsWith("}\n"));
});

Deno.test("renderSarif() gives every rule its own help and a link to its section of the rules page", () => {
  const rules: Json[] = sarif(acceptVerdict()).runs[0].tool.driver.rules;
  for (const rule of rules) {
    const spec = RULES[rule.id as keyof typeof RULES];
    assert.ok(rule.help.text.includes(spec.fix), rule.id);
    assert.ok(rule.help.markdown.includes("**How to fix:**"), rule.id);
    assert.equal(rule.helpUri, ruleHelpUri(rule.id));
  }
  const helps = new Set(rules.map((r) => r.help.text));
  assert.equal(helps.size, rules.length, "two rules share one help text");
  const fixes = new Set(Object.values(RULES).map((r) => r.fix));
  assert.equal(fixes.size, rules.length, "two rules share one fix");
});

Deno.test("renderSarif() points informationUri at pawl's home unless given another", () => {
  const driver = (options: RenderSarifOptions) =>
    JSON.parse(renderSarif(acceptVerdict(), options)).runs[0].tool.driver;
  assert.equal(driver({}).informationUri, HOME_URL);
  assert.equal(
    driver({ informationUri: "https://example.org/pawl" }).informationUri,
    "https://example.org/pawl",
  );
});

Deno.test("renderSarif() carries what a failed test showed in the message and in properties.failure", () => {
  const failure = {
    test: "tests/test_codec.py::test_roundtrip",
    example: "Falsifying example: test_roundtrip(\n    data=b'\\x00',\n)",
    exception: "AssertionError: assert b'' == b'\\x00'",
    traceback: [
      "    assert decode(encode(data)) == data",
      "E   AssertionError: ``` not a fence end",
    ],
    reproduce:
      "CONTRACT_SEED=7 python -m pytest 'tests/test_codec.py::test_roundtrip' --hypothesis-seed=7",
  };
  const [result] = results(
    buildVerdict([
      finding("seed.fresh_failed", "test_roundtrip failed on seed 7", {
        path: "tests/test_codec.py",
        line: 12,
        failure,
      }),
    ], input()),
  );
  assert.deepEqual(result.properties.failure, failure);
  const text: string = result.message.text;
  assert.ok(text.startsWith("test_roundtrip failed on seed 7\n"));
  for (
    const part of [
      "Test: tests/test_codec.py::test_roundtrip",
      "data=b'\\x00'",
      "Exception: AssertionError: assert b'' == b'\\x00'",
      "E   AssertionError: ``` not a fence end",
      `Reproduce: ${failure.reproduce}`,
    ]
  ) {
    assert.ok(text.includes(part), part);
  }
  const markdown: string = result.message.markdown;
  assert.ok(markdown.endsWith(`\`\`\`sh\n${failure.reproduce}\n\`\`\``));
  assert.ok(markdown.includes("````text\n    assert decode"), markdown);
  // A finding without a failure keeps a plain text message.
  const [plain] = results(
    buildVerdict([finding("tests.failed", "t failed")], input()),
  );
  assert.equal(plain.message.markdown, undefined);
  assert.equal(plain.properties.failure, undefined);
});
