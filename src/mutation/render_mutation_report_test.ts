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
});

Deno.test("renderMutationReport() of a run without mutants is still a valid report", () => {
  const json = JSON.parse(
    renderMutationReport(NO_MUTATION_RUN, { version: "0" }),
  );
  assert.equal(validate(json), true, JSON.stringify(validate.errors));
  assert.deepEqual(json.files, {});
});
