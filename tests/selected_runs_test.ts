/**
 * A base whose test command names the tests directory (`pytest tests`, as
 * attrs has it): the runs that select tests (the properties on their own,
 * a failure repeated at the base) run what they select and nothing else,
 * while the suite still runs every test.
 */
import assert from "node:assert/strict";
import { buildRepo, defaultBaseFiles } from "./_repo.ts";
import { judgedJson } from "./_judge.ts";
import { realGatePorts } from "../src/gate/real_gate_ports.ts";
import type { GatePorts } from "../src/gate/gate_ports.ts";
import type { TestCaseResult } from "../src/run/parse_junit.ts";
import { readPytestReport } from "../src/run/run_pytest.ts";
import { casesForNodeId } from "../src/run/test_id.ts";

/** This file's uids. */
const RANGE = { first: 64741, last: 64746 };

const PAWL_TOML = `[tests]
command = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
`;

/** One pytest run the judgement made: its selection and what it reported. */
interface ReportedRun {
  select: string[];
  cases: TestCaseResult[];
}

Deno.test("a run that selects tests runs only those when the base's test command names the tests directory", async () => {
  await using repo = await buildRepo({
    base: { ...defaultBaseFiles(), "pawl.toml": PAWL_TOML },
    heads: {
      // A test outside the registered properties now fails: it is run
      // again at the base, the properties on their own.
      "paths/failing": {
        "payments/parser.py": (base) =>
          base.replace(
            "return sum(inv.cents for inv in invoices)",
            "return sum(inv.cents for inv in invoices) + 1",
          ),
      },
    },
  });
  const runs: ReportedRun[] = [];
  const real = realGatePorts({ sandbox: { lease: { range: RANGE } } });
  const ports: GatePorts = {
    ...real,
    sandbox: async (request) => {
      const sandbox = await real.sandbox(request);
      return {
        ...sandbox,
        run: async (command) => {
          const result = await sandbox.run(command);
          const { argv } = command;
          const flag = argv.find((a) => a.startsWith("--junitxml="));
          if (flag !== undefined) {
            const path = flag.slice("--junitxml=".length);
            const report = await readPytestReport(
              path,
              path.slice(0, path.lastIndexOf("/")),
            );
            runs.push({
              select: argv.slice(argv.indexOf("junit_family=xunit2") + 1),
              cases: report.cases ?? [],
            });
          }
          return result;
        },
      };
    },
  };
  const verdict = JSON.parse(await judgedJson(repo, "paths/failing", ports));
  const failing = "tests/test_invoices.py::test_fixture_invoices_parse";
  assert.equal(verdict.decision, "reject", JSON.stringify(verdict.findings));
  // The suite ran every test, the two properties and both other tests.
  assert.equal(verdict.tests.summary.total, 4, JSON.stringify(verdict.tests));
  const selecting = runs.filter((r) => r.select.length > 0);
  const selections = selecting.map((r) => r.select.join(" "));
  assert.ok(
    selections.includes(
      "tests/properties/test_codec.py::test_decode_encode_identity tests/properties/test_parse.py::test_empty_input_raises",
    ),
    selections.join("\n"),
  );
  assert.ok(selections.includes(failing), selections.join("\n"));
  for (const run of selecting) {
    const names = run.cases.map((c) => `${c.classname}::${c.name}`);
    assert.equal(
      run.cases.length,
      run.select.length,
      `${run.select.join(" ")} reported ${names.join(", ")}`,
    );
    for (const id of run.select) {
      assert.equal(casesForNodeId(run.cases, id).length, 1, id);
    }
  }
});
