import assert from "node:assert/strict";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { finding } from "../core/finding.ts";
import { LAYERS, RULES } from "../core/rules.ts";
import { buildVerdict, type Verdict } from "../core/verdict.ts";
import { parseJunit } from "../run/parse_junit.ts";
import {
  acceptVerdict,
  CONTRACT,
  HOSTILE_MESSAGE,
  hostileVerdict,
  input,
  longVerdict,
  mixedFindings,
  rejectVerdict,
  staticVerdict,
} from "./_testing.ts";
import { renderJunit, type RenderJunitOptions } from "./render_junit.ts";
import { renderUndecided } from "./render_undecided.ts";

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

/** Every testcase of a layer, in order. */
function casesOf(suite: Json, layer: string): Json[] {
  return suite.testcase.filter((c: Json) => c.classname === `pawl.${layer}`);
}

// The constraints of the JUnit schema CI tools read (Jenkins' junit-10.xsd,
// after Ant's): which elements and attributes exist, in which order, which
// are required, and that counts and times are numbers.
const SCHEMA: Record<
  string,
  { attributes: string[]; required: string[]; children: string[] }
> = {
  testsuites: {
    attributes: [
      "name",
      "time",
      "tests",
      "failures",
      "disabled",
      "errors",
      "skipped",
    ],
    required: [],
    children: ["testsuite"],
  },
  testsuite: {
    attributes: [
      "name",
      "tests",
      "failures",
      "errors",
      "time",
      "disabled",
      "skipped",
      "timestamp",
      "hostname",
      "id",
      "package",
      "file",
      "log",
      "url",
      "version",
    ],
    required: ["name", "tests"],
    children: ["properties", "testcase", "system-out", "system-err"],
  },
  properties: { attributes: [], required: [], children: ["property"] },
  property: {
    attributes: ["name", "value"],
    required: ["name", "value"],
    children: [],
  },
  testcase: {
    attributes: [
      "name",
      "assertions",
      "time",
      "classname",
      "status",
      "file",
      "line",
    ],
    required: ["name"],
    children: ["skipped", "error", "failure", "system-out", "system-err"],
  },
  skipped: { attributes: ["message"], required: [], children: [] },
  error: { attributes: ["message", "type"], required: [], children: [] },
  failure: { attributes: ["message", "type"], required: [], children: [] },
  "system-out": { attributes: [], required: [], children: [] },
  "system-err": { attributes: [], required: [], children: [] },
};

const ORDERED = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  preserveOrder: true,
  parseAttributeValue: false,
  parseTagValue: false,
});

/** Check `xml` against the schema's element, attribute and order rules. */
function assertJunitSchema(xml: string): void {
  assert.equal(XMLValidator.validate(xml), true);
  const visit = (node: Json, parent: string | undefined): void => {
    const tag = Object.keys(node).find((k) => k !== ":@")!;
    if (tag === "#text" || tag === "?xml") return;
    const rule = SCHEMA[tag];
    assert.ok(rule !== undefined, `unknown element <${tag}>`);
    if (parent !== undefined) {
      assert.ok(
        SCHEMA[parent]!.children.includes(tag),
        `<${tag}> in <${parent}>`,
      );
    }
    const attributes = node[":@"] ?? {};
    for (const name of Object.keys(attributes)) {
      assert.ok(rule.attributes.includes(name), `<${tag} ${name}>`);
    }
    for (const name of rule.required) {
      assert.ok(name in attributes, `<${tag}> lacks ${name}`);
    }
    for (const name of ["tests", "failures", "errors", "skipped"]) {
      if (name in attributes) assert.match(attributes[name], /^\d+$/);
    }
    if ("time" in attributes) {
      assert.match(attributes.time, /^\d+(\.\d+)?$/, `<${tag} time>`);
    }
    const children: Json[] = node[tag];
    const order = children.map((c) => Object.keys(c).find((k) => k !== ":@")!)
      .filter((t) => t !== "#text").map((t) => rule.children.indexOf(t));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      `order in <${tag}>`,
    );
    for (const child of children) visit(child, tag);
  };
  const roots = ORDERED.parse(xml).filter((n: Json) => !("?xml" in n));
  assert.equal(roots.length, 1);
  assert.ok("testsuites" in roots[0]);
  visit(roots[0], undefined);
}

function suiteOf(verdict: Verdict, options: RenderJunitOptions = {}): Json {
  const xml = renderJunit(verdict, options);
  assertJunitSchema(xml);
  const doc = structure(xml);
  assert.equal(doc.testsuites.name, "pawl");
  const suite = doc.testsuites.testsuite;
  assert.equal(suite.name, "pawl");
  for (const key of ["tests", "failures", "errors", "skipped", "time"]) {
    assert.equal(doc.testsuites[key], suite[key], key);
  }
  assert.equal(suite.tests, String(suite.testcase.length));
  return suite;
}

Deno.test("renderJunit() writes one passing testcase per layer checked for an accept", () => {
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

Deno.test("renderJunit() writes one testcase per finding, named by rule and place", async (t) => {
  const verdict = rejectVerdict();
  const suite = suiteOf(verdict);

  await t.step("each finding is its own testcase in its layer's class", () => {
    assert.deepEqual(
      suite.testcase.map((c: Json) => [c.classname, c.name]),
      [
        ["pawl.config", "config.settings_ignored pawl.toml"],
        ["pawl.harness", "harness.pytest_config_changed pyproject.toml"],
        ["pawl.property", "property.removed tests/agent_contract.yaml:3"],
        ["pawl.fixture", "fixture"],
        ["pawl.freeze", "freeze.expiry_extended tests/agent_contract.yaml:21"],
        ["pawl.freeze", "freeze.rerun_used tests/test_report.py:7"],
        ["pawl.seed", "seed"],
        ["pawl.tests", "tests.timeout"],
      ],
    );
    assert.equal(suite.failures, "4");
    assert.equal(suite.tests, "8");
  });

  await t.step(
    "a blocking finding fails with its message, place and fix",
    () => {
      const [property] = casesOf(suite, "property");
      assert.equal(property.failure.length, 1);
      assert.equal(property.failure[0].type, "property.removed");
      assert.equal(
        property.failure[0].message,
        'Property "roundtrip_stable" was removed or renamed away: restore it',
      );
      assert.equal(
        property.failure[0]["#text"],
        `Property "roundtrip_stable" was removed or renamed away: restore it\n\nWhere: tests/agent_contract.yaml:3\nHow to fix: ${
          RULES["property.removed"].fix.replace(/'/g, "&apos;")
        }`,
      );
      const [timeout] = casesOf(suite, "tests");
      assert.match(
        timeout.failure[0]["#text"],
        /^The test run was stopped at its time limit of 600000 ms\n\nHow to fix: /,
      );
    },
  );

  await t.step("outcomes round-trip through parseJunit", () => {
    const outcomes = parseJunit(renderJunit(verdict));
    assert.deepEqual(
      outcomes.map((c) => c.outcome),
      [
        "passed",
        "failed",
        "failed",
        "passed",
        "failed",
        "passed",
        "passed",
        "failed",
      ],
    );
    assert.equal(
      outcomes.find((c) => c.classname === "pawl.property")?.message,
      'Property "roundtrip_stable" was removed or renamed away: restore it',
    );
  });

  await t.step(
    "an advisory finding passes with its message in system-out",
    () => {
      const [config] = casesOf(suite, "config");
      assert.equal(config.failure, undefined);
      assert.match(config["system-out"], /^note: The pull request changes/);
      assert.match(
        casesOf(suite, "freeze")[1]["system-out"],
        /^note: Frozen test/,
      );
    },
  );

  await t.step("what the run observed is the suite's system-out", () => {
    assert.match(
      suite["system-out"],
      /tests: 4 passed, 1 failed, 0 errors, 0 skipped, 0 xfailed/,
    );
    assert.match(suite["system-out"], /fresh seed 1234567 \(trials 50\)/);
  });

  await t.step(
    "findings of one rule without a place get distinct names",
    () => {
      const twice = suiteOf(buildVerdict([
        finding("tests.timeout", "First"),
        finding("tests.timeout", "Second"),
      ], input()));
      assert.deepEqual(
        casesOf(twice, "tests").map((c: Json) => c.name),
        ["tests.timeout", "tests.timeout (2)"],
      );
    },
  );
});

Deno.test("renderJunit() puts what a failed test showed in the failure's body", () => {
  const failure = {
    test: "tests/test_codec.py::test_roundtrip",
    example: "Falsifying example: test_roundtrip(\n    data=b'\\x00',\n)",
    exception: "AssertionError: assert b'' == b'\\x00'",
    traceback: [
      "    assert decode(encode(data)) == data",
      "E   AssertionError",
    ],
    reproduce:
      "CONTRACT_SEED=7 python -m pytest 'tests/test_codec.py::test_roundtrip' --hypothesis-seed=7",
  };
  const verdict = buildVerdict([
    finding("seed.fresh_failed", "test_roundtrip failed on seed 7", {
      path: "tests/test_codec.py",
      line: 12,
      failure,
    }),
  ], input());
  const [c] = parseJunit(renderJunit(verdict)).filter((c) =>
    c.classname === "pawl.seed"
  );
  assert.equal(c?.outcome, "failed");
  assert.equal(c?.message, "test_roundtrip failed on seed 7");
  const [seed] = casesOf(suiteOf(verdict), "seed");
  const body: string = seed.failure[0]["#text"].replace(/&apos;/g, "'");
  assert.ok(
    body.startsWith(
      "test_roundtrip failed on seed 7\n\nWhere: tests/test_codec.py:12\nTest: tests/test_codec.py::test_roundtrip\n",
    ),
    body,
  );
  for (
    const part of [
      "Falsifying example:\n  Falsifying example: test_roundtrip(\n      data=b'\\x00',\n  )",
      "Exception: AssertionError: assert b'' == b'\\x00'",
      "Traceback (last lines):\n      assert decode(encode(data)) == data\n  E   AssertionError",
      `Reproduce: ${failure.reproduce}`,
    ]
  ) {
    assert.ok(body.includes(part), part);
  }
});

Deno.test("renderJunit() keeps what a failed test showed beside an advisory finding too", () => {
  const verdict = buildVerdict([
    finding("tests.failed_at_base", "test_a fails at the base too", {
      failure: {
        test: "tests/t.py::test_a",
        exception: "ZeroDivisionError: division by zero",
        reproduce: "python -m pytest tests/t.py::test_a",
      },
    }),
  ], input());
  const [c] = casesOf(suiteOf(verdict), "tests");
  assert.equal(c.failure, undefined);
  assert.equal(
    c["system-out"],
    "note: test_a fails at the base too\nTest: tests/t.py::test_a\nException: ZeroDivisionError: division by zero\nReproduce: python -m pytest tests/t.py::test_a",
  );
});

Deno.test("renderJunit() times each testcase by its test, else by its stage, and never with a made-up zero", async (t) => {
  const verdict = buildVerdict([
    finding("property.removed", "Removed", { path: CONTRACT, line: 3 }),
    finding("property.assertion_removed", "Dropped", { path: "tests/t.py" }),
    finding("tests.timeout", "Stopped"),
    finding("seed.fresh_failed", "Failed", {
      failure: {
        test: "tests/t.py::test_a",
        reproduce: "pytest tests/t.py::test_a",
      },
    }),
    finding("seed.replay_failed", "Failed", {
      failure: {
        test: "tests/t.py::test_b",
        reproduce: "pytest tests/t.py::test_b",
      },
    }),
  ], input());
  const timings = {
    total: 12.5,
    stages: { static: 0.25, tests: 11.75 },
    tests: { "tests/t.py::test_a": 1.5 },
  };

  await t.step("with timings", () => {
    const suite = suiteOf(verdict, { timings });
    const time = (name: string) =>
      suite.testcase.find((c: Json) => c.name === name)?.time;
    assert.equal(suite.time, "12.500");
    assert.equal(time(`property.removed ${CONTRACT}:3`), "0.250");
    assert.equal(time("tests.timeout"), "11.750");
    assert.equal(time("seed.fresh_failed"), "1.500");
    assert.equal(time("seed.replay_failed"), "11.750");
    // Raised by the static checks or the test runs: which one is not known.
    assert.equal(time("property.assertion_removed tests/t.py"), undefined);
    // A layer without findings took the stages its rules are raised in.
    assert.equal(time("fixture"), "0.250");
    assert.equal(
      casesOf(suiteOf(acceptVerdict(), { timings }), "harness")[0].time,
      "12.000",
    );
  });

  await t.step("without timings no testcase has a time", () => {
    assert.doesNotMatch(renderJunit(verdict), /time=/);
  });

  await t.step("a layer that was not run has no time", () => {
    const suite = suiteOf(staticVerdict(), {
      timings: { total: 0.25, stages: { static: 0.25 } },
    });
    assert.equal(casesOf(suite, "tests")[0].time, undefined);
    assert.equal(casesOf(suite, "seed")[0].time, undefined);
    assert.equal(casesOf(suite, "config")[0].time, "0.250");
    assert.equal(casesOf(suite, "harness")[0].time, "0.250");
  });
});

Deno.test("renderJunit() skips the tests and seed layers when nothing ran", () => {
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
  const tests = casesOf(suite, "tests");
  assert.equal(tests.length, 300);
  assert.ok(tests.every((c: Json) => c.failure.length === 1));
  assert.equal(suite.failures, "300");
  assert.equal(new Set(tests.map((c: Json) => c.name)).size, 300);
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

Deno.test("the JUnit schema check refuses what the schema does", async (t) => {
  const cases: [string, string][] = [
    [
      "an unknown attribute",
      '<testsuites><testsuite name="p" tests="1"><testcase name="a" rule="x"/></testsuite></testsuites>',
    ],
    [
      "a testcase without a name",
      '<testsuites><testsuite name="p" tests="1"><testcase classname="a"/></testsuite></testsuites>',
    ],
    [
      "a failure before a skipped",
      '<testsuites><testsuite name="p" tests="1"><testcase name="a"><failure/><skipped/></testcase></testsuite></testsuites>',
    ],
    [
      "a time that is not a number",
      '<testsuites><testsuite name="p" tests="1"><testcase name="a" time="soon"/></testsuite></testsuites>',
    ],
  ];
  for (const [name, xml] of cases) {
    await t.step(name, () => {
      assert.throws(() => assertJunitSchema(xml));
    });
  }
  assertJunitSchema(
    '<testsuites><testsuite name="p" tests="1"><testcase name="a" time="1.5"><skipped/><failure/></testcase></testsuite></testsuites>',
  );
  // An undecided run's JUnit holds to it too.
  assertJunitSchema(renderUndecided("Cannot decide without a clock").junit);
});
