/**
 * The mutation-testing-elements report passes the schema the npm package
 * `mutation-testing-report-schema` publishes (pinned in deno.json), checked
 * with Ajv: a validator and a schema pawl did not write.
 */
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { generateMutants } from "./generate_mutants.ts";
import {
  NO_MUTATION_RUN,
  renderMutationReport,
} from "./render_mutation_report.ts";

const SCHEMA = new URL(
  "../../node_modules/mutation-testing-report-schema/dist/src/mutation-testing-report-schema.json",
  import.meta.url,
);
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(await Deno.readTextFile(SCHEMA)));

const TEXT =
  "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    return x\n";

function report() {
  const mutants = generateMutants(
    parser,
    "src/kit/core.py",
    TEXT,
  );
  const [a, b, c, d] = mutants;
  assert.ok(a && b && c && d);
  return JSON.parse(renderMutationReport({
    properties: [{
      key: "000/clamp",
      id: "clamp",
      layout: "000",
      file: "tests/test_kit.py",
      baseNodeId: "tests/test_kit.py::test_clamp",
    }, {
      key: "000/new",
      id: "new",
      layout: "000",
      file: "tests/test_kit.py",
    }],
    results: [
      {
        mutant: a,
        base: { "000/clamp": "killed" },
        head: { "000/clamp": "survived" },
        cached: false,
      },
      {
        mutant: b,
        base: { "000/clamp": "survived" },
        head: null,
        cached: false,
      },
      { mutant: c, base: { "000/clamp": "timeout" }, head: null, cached: true },
    ],
    unrun: [d],
    texts: new Map([["src/kit/core.py", TEXT]]),
    config: { runSeed: 1 },
  }, { version: "0.1.0" }));
}

const parser = await loadPythonParser();

Deno.test("renderMutationReport() writes a report the published schema accepts", () => {
  const json = report();
  assert.equal(validate(json), true, JSON.stringify(validate.errors));
  const mutants = json.files["src/kit/core.py"].mutants as {
    status: string;
    killedBy?: string[];
    statusReason?: string;
  }[];
  assert.deepEqual(
    mutants.map((m) => m.status).sort(),
    ["Ignored", "Killed", "Survived", "Timeout"],
  );
  const killed = mutants.find((m) => m.status === "Killed");
  assert.deepEqual(killed?.killedBy, ["000/clamp"]);
  assert.match(killed?.statusReason ?? "", /property\.oracle_weakened/);
  assert.equal(json.files["src/kit/core.py"].source, TEXT);
  assert.deepEqual(json.testFiles["tests/test_kit.py"].tests, [
    { id: "000/clamp", name: "tests/test_kit.py::test_clamp" },
    { id: "000/new", name: "new (layout agent-contract)" },
  ]);
  assert.equal(json.framework.name, "pawl");
  assert.deepEqual(json.framework, { name: "pawl", version: "0.1.0" });
  assert.deepEqual(json.config, { runSeed: 1 }, "the run's seeds and limits");
});

Deno.test("renderMutationReport() ends its JSON with a newline, and gives a mutated file it has no text of an empty source", () => {
  const [m] = generateMutants(parser, "src/kit/core.py", TEXT);
  assert.ok(m !== undefined);
  const text = renderMutationReport({
    ...NO_MUTATION_RUN,
    results: [{
      mutant: m,
      base: { "000/clamp": "killed" },
      head: null,
      cached: false,
    }],
    texts: new Map(),
  }, { version: "0" });
  assert.ok(text.endsWith("}\n"));
  assert.equal(JSON.parse(text).files["src/kit/core.py"].source, "");
});

Deno.test("renderMutationReport() of a run without mutants is still a valid report, and says mutation testing was off", () => {
  const json = JSON.parse(
    renderMutationReport(NO_MUTATION_RUN, { version: "0" }),
  );
  assert.equal(validate(json), true, JSON.stringify(validate.errors));
  assert.deepEqual(json.files, {});
  assert.deepEqual(json.testFiles, {});
  assert.deepEqual(json.config, { enabled: false });
});

/** The report's entry of one mutant run with these outcomes. */
function entryOf(
  base: Record<string, string>,
  head: Record<string, string> | null,
) {
  const [m] = generateMutants(parser, "src/kit/core.py", TEXT);
  const json = JSON.parse(renderMutationReport({
    properties: [],
    results: [{
      mutant: m!,
      base: base as Record<string, "killed">,
      head: head as Record<string, "killed"> | null,
      cached: false,
    }],
    unrun: [],
    texts: new Map([["src/kit/core.py", TEXT]]),
    config: {},
  }, { version: "0" }));
  const { status, killedBy, coveredBy, statusReason } =
    json.files["src/kit/core.py"].mutants[0];
  return { status, killedBy, coveredBy, statusReason };
}

Deno.test("renderMutationReport() gives a mutant its status from the base's outcomes, and says when the head's property lets it survive", async (t) => {
  const observer =
    "The run left no report pawl's observer could confirm: counted neither killed nor survived";
  const weakened = (keys: string) =>
    `The head's property ${keys} lets this mutant survive (property.oracle_weakened)`;
  const cases: [
    string,
    Record<string, string>,
    Record<string, string> | null,
    ReturnType<typeof entryOf>,
  ][] = [
    [
      "one kill kills it",
      { b: "survived", a: "killed" },
      null,
      {
        status: "Killed",
        killedBy: ["a"],
        coveredBy: ["a", "b"],
        statusReason: undefined,
      },
    ],
    [
      "every killer is named, in order",
      { b: "killed", a: "killed" },
      { b: "killed", a: "killed" },
      {
        status: "Killed",
        killedBy: ["a", "b"],
        coveredBy: ["a", "b"],
        statusReason: undefined,
      },
    ],
    [
      "one timeout without a kill is a timeout",
      { a: "survived", b: "timeout" },
      null,
      {
        status: "Timeout",
        killedBy: undefined,
        coveredBy: ["a", "b"],
        statusReason: undefined,
      },
    ],
    [
      "a timeout outranks a run the observer could not confirm",
      { a: "unknown", b: "timeout" },
      null,
      {
        status: "Timeout",
        killedBy: undefined,
        coveredBy: ["a", "b"],
        statusReason: undefined,
      },
    ],
    [
      "one unconfirmed run without a kill or timeout is ignored",
      { a: "survived", b: "unknown" },
      null,
      {
        status: "Ignored",
        killedBy: undefined,
        coveredBy: ["a", "b"],
        statusReason: observer,
      },
    ],
    [
      "no kill, timeout or unconfirmed run: survived",
      { a: "survived" },
      { a: "survived" },
      {
        status: "Survived",
        killedBy: undefined,
        coveredBy: ["a"],
        statusReason: undefined,
      },
    ],
    [
      "the head's properties that let a base kill survive are named",
      { b: "killed", a: "killed", c: "killed" },
      { a: "survived", b: "survived", c: "killed" },
      {
        status: "Killed",
        killedBy: ["a", "b", "c"],
        coveredBy: ["a", "b", "c"],
        statusReason: weakened("a, b"),
      },
    ],
    [
      "a head timeout is no weakening",
      { a: "killed" },
      { a: "timeout" },
      {
        status: "Killed",
        killedBy: ["a"],
        coveredBy: ["a"],
        statusReason: undefined,
      },
    ],
  ];
  for (const [name, base, head, want] of cases) {
    await t.step(name, () => assert.deepEqual(entryOf(base, head), want));
  }
});

Deno.test("renderMutationReport() lists every mutated file, its mutants by line then column, and each test by its node id", () => {
  const [, x1, x2, y, z] = generateMutants(parser, "src/kit/core.py", TEXT);
  assert.ok(x1 && x2 && y && z);
  // Two on one line; then a later line whose column is past the last's.
  assert.deepEqual(
    [x1, x2, y, z].map((m) => [m.line, m.column]),
    [[2, 8], [2, 10], [3, 16], [4, 12]],
  );
  const json = JSON.parse(renderMutationReport({
    properties: [{
      key: "000/clamp",
      id: "clamp",
      layout: "000",
      file: "tests/test_kit.py",
      baseNodeId: "tests/test_kit.py::test_clamp",
      headNodeId: "tests/test_kit.py::test_clamp_head",
    }, {
      key: "000/new",
      id: "new",
      layout: "000",
      file: "tests/test_kit.py",
      headNodeId: "tests/test_kit.py::test_new",
    }],
    results: [{
      mutant: z,
      base: { "000/clamp": "survived" },
      head: null,
      cached: false,
    }],
    unrun: [x2, y],
    notCovered: [x1],
    texts: new Map([["src/kit/z.py", "X = 1\n"], ["src/kit/core.py", TEXT]]),
    config: {},
  }, { version: "0" }));
  assert.equal(validate(json), true, JSON.stringify(validate.errors));
  assert.deepEqual(Object.keys(json.files), [
    "src/kit/core.py",
    "src/kit/z.py",
  ]);
  assert.deepEqual(json.files["src/kit/z.py"], {
    language: "python",
    source: "X = 1\n",
    mutants: [],
  });
  const listed = json.files["src/kit/core.py"].mutants as {
    id: string;
    status: string;
    statusReason?: string;
  }[];
  const budget = "Not run: the [mutation] time budget ran out";
  assert.deepEqual(listed.map((m) => [m.id, m.status, m.statusReason]), [
    [
      x1.id,
      "NoCoverage",
      "Not run: no base test executes its line on the unmutated code",
    ],
    [x2.id, "Ignored", budget],
    [y.id, "Ignored", budget],
    [z.id, "Survived", undefined],
  ]);
  assert.deepEqual(json.testFiles["tests/test_kit.py"].tests, [
    { id: "000/clamp", name: "tests/test_kit.py::test_clamp" },
    { id: "000/new", name: "tests/test_kit.py::test_new" },
  ]);
  assert.deepEqual(json.thresholds, { high: 80, low: 60 });
});

Deno.test("renderMutationReport() places each mutant where it starts and ends, and says what it changes", () => {
  const text = "def f(a):\n    return g(a,\n             1)\n";
  const m = generateMutants(parser, "src/kit/f.py", text).find((x) =>
    x.operator === "return" && x.replacement === "None"
  );
  assert.ok(m);
  assert.deepEqual([m.line, m.column, m.endLine, m.endColumn], [2, 12, 3, 16]);
  const json = JSON.parse(renderMutationReport({
    properties: [],
    results: [],
    unrun: [m],
    texts: new Map([["src/kit/f.py", text]]),
    config: {},
  }, { version: "0" }));
  assert.equal(validate(json), true, JSON.stringify(validate.errors));
  const [listed] = json.files["src/kit/f.py"].mutants;
  assert.deepEqual(
    {
      id: listed.id,
      mutatorName: listed.mutatorName,
      replacement: listed.replacement,
      description: listed.description,
      location: listed.location,
    },
    {
      id: m.id,
      mutatorName: "return",
      replacement: "None",
      description: 'return in f: "g(a,\\n             1)" → "None"',
      location: {
        start: { line: 2, column: 12 },
        end: { line: 3, column: 16 },
      },
    },
  );
});
