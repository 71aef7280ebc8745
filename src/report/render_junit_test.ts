import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { finding } from "../core/finding.ts";
import { LAYERS } from "../core/rules.ts";
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import { parseJunit } from "../run/parse_junit.ts";
import {
  acceptVerdict,
  HOSTILE_MESSAGE,
  hostileVerdict,
  input,
  longVerdict,
  mixedFindings,
  rejectVerdict,
  staticVerdict,
} from "./_testing.ts";
import { renderJunit } from "./render_junit.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => ["testcase", "failure", "property"].includes(name),
});

/** The document parsed for structure (counts, elements; entities left as written). */
function structure(xml: string): Json {
  assert.equal(XMLValidator.validate(xml), true);
  return PARSER.parse(xml);
}

function suiteOf(verdict: Verdict): Json {
  const xml = renderJunit(verdict);
  const doc = structure(xml);
  assert.equal(doc.testsuites.name, "pawl");
  const suite = doc.testsuites.testsuite;
  assert.equal(suite.name, "pawl");
  for (const key of ["tests", "failures", "errors", "skipped"]) {
    assert.equal(doc.testsuites[key], suite[key], key);
  }
  return suite;
}

function caseOf(suite: Json, layer: string): Json {
  return suite.testcase.find((c: Json) => c.classname === `pawl.${layer}`);
}

Deno.test("renderJunit() writes one passing testcase per rule family for an accept", () => {
  const verdict = acceptVerdict();
  const suite = suiteOf(verdict);
  assert.deepEqual(
    suite.testcase.map((c: Json) => [c.classname, c.name]),
    LAYERS.map((layer) => [`pawl.${layer}`, layer]),
  );
  assert.equal(suite.tests, "7");
  assert.equal(suite.failures, "0");
  assert.equal(suite.skipped, "0");
  assert.deepEqual(
    parseJunit(renderJunit(verdict)).map((c) => c.outcome),
    LAYERS.map(() => "passed"),
  );
  const properties = Object.fromEntries(
    suite.properties.property.map((p: Json) => [p.name, p.value]),
  );
  assert.equal(properties["decision"], "accept");
  assert.equal(properties["head"], verdict.head);
});

Deno.test("renderJunit() fails a family once per blocking finding and notes the rest", async (t) => {
  const verdict = rejectVerdict();
  const suite = suiteOf(verdict);

  await t.step("failures counts the families with a blocking finding", () => {
    const failing = new Set(
      verdict.findings.filter((f) => f.blocking).map((f) => f.layer),
    );
    assert.equal(suite.failures, String(failing.size));
    assert.equal(suite.tests, "7");
    const outcomes = parseJunit(renderJunit(verdict));
    for (const c of outcomes) {
      const layer = c.classname.replace("pawl.", "");
      assert.equal(
        c.outcome,
        failing.has(layer as never) ? "failed" : "passed",
        layer,
      );
    }
  });

  await t.step(
    "each blocking finding is one failure with its rule and place",
    () => {
      for (const layer of LAYERS) {
        const expected = verdict.findings.filter((f) =>
          f.blocking && f.layer === layer
        );
        const failures: Json[] = caseOf(suite, layer).failure ?? [];
        assert.equal(failures.length, expected.length, layer);
        failures.forEach((failure, i) => {
          assert.equal(failure.type, expected[i]!.rule);
        });
      }
      const property = caseOf(suite, "property").failure[0];
      assert.equal(
        property["#text"],
        "property.removed tests/agent_contract.yaml:3",
      );
      const timeout = caseOf(suite, "tests").failure[0];
      assert.equal(timeout["#text"], "tests.timeout (no file location)");
    },
  );

  await t.step("the failure message round-trips through parseJunit", () => {
    const property = parseJunit(renderJunit(verdict)).find((c) =>
      c.classname === "pawl.property"
    );
    assert.equal(
      property?.message,
      'Property "roundtrip_stable" was removed or renamed away: restore it',
    );
  });

  await t.step("non-blocking findings are system-out notes", () => {
    const config = caseOf(suite, "config");
    assert.equal(config.failure, undefined);
    assert.match(
      config["system-out"],
      /^note: config\.settings_ignored pawl\.toml: The pull request changes/,
    );
    assert.match(
      caseOf(suite, "freeze")["system-out"],
      /note: freeze\.rerun_used tests\/test_report\.py:7: Frozen test/,
    );
  });

  await t.step("what the run observed is in system-out", () => {
    assert.match(
      caseOf(suite, "tests")["system-out"],
      /tests: 4 passed, 1 failed, 0 errors, 0 skipped, 0 xfailed/,
    );
    assert.match(
      caseOf(suite, "seed")["system-out"],
      /fresh seed 1234567 \(trials 50\)/,
    );
  });
});

Deno.test("renderJunit() skips the tests and seed families when nothing ran", () => {
  const suite = suiteOf(staticVerdict());
  assert.equal(suite.skipped, "2");
  assert.deepEqual(
    parseJunit(renderJunit(staticVerdict())).map((c) => c.outcome),
    ["passed", "passed", "passed", "passed", "passed", "skipped", "skipped"],
  );
  const failing = suiteOf(
    staticVerdict([finding("tests.skip_added", "A skip was added")]),
  );
  assert.equal(failing.skipped, "1");
  assert.equal(failing.failures, "1");
});

Deno.test("renderJunit() escapes quotes, markup, ampersands, newlines and control characters", async (t) => {
  const verdict = hostileVerdict();
  const xml = renderJunit(verdict);

  await t.step("the document is well-formed XML 1.0", () => {
    assert.equal(XMLValidator.validate(xml), true);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    assert.doesNotMatch(xml, /<script>/);
  });

  await t.step("the message attribute decodes to the message", () => {
    const tests = parseJunit(xml).find((c) => c.classname === "pawl.tests");
    // parseJunit drops control characters (\r included) and trims; the
    // renderer replaced the bell with U+FFFD.
    assert.equal(
      tests?.message,
      HOSTILE_MESSAGE.replace("\u0007", "\ufffd").replace(/\r/g, ""),
    );
  });

  await t.step("line breaks in attributes survive as references", () => {
    assert.match(xml, /y&#10;second line\ufffd bell&#13;&#10;carriage/);
  });

  await t.step("lone surrogates and non-characters are replaced", () => {
    const odd = renderJunit(
      buildVerdict([
        finding("tests.failed", "a\ud800b\udc00c\uffffd\u0000e\ud83d\ude00"),
      ], input()),
    );
    assert.equal(XMLValidator.validate(odd), true);
    assert.match(odd, /message="a\ufffdb\ufffdc\ufffdd\ufffde\ud83d\ude00"/);
  });
});

Deno.test("renderJunit() lists every finding of a long list", () => {
  const suite = suiteOf(longVerdict(300));
  assert.equal(caseOf(suite, "tests").failure.length, 300);
  assert.equal(suite.failures, "1");
});

Deno.test("renderJunit() is deterministic", () => {
  const findings = mixedFindings();
  const once = renderJunit(buildVerdict(findings, input()));
  assert.equal(renderJunit(buildVerdict(findings, input())), once);
  assert.equal(
    renderJunit(buildVerdict([...findings].reverse(), input())),
    once,
  );
});
