/**
 * The SARIF pawl writes against the SARIF 2.1.0 JSON schema as the SARIF
 * SDK ships it (npm `@microsoft/sarif-multitool-linux`, pinned), checked by
 * Ajv: a validator and a schema pawl did not write.
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  acceptVerdict,
  hostileVerdict,
  longVerdict,
  rejectVerdict,
  staticVerdict,
} from "./_testing.ts";
import { renderSarif } from "./render_sarif.ts";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { finding } from "../core/finding.ts";
import { BaseProblemError } from "../layouts/base_problems.ts";
import { renderUndecided, undecidedLocation } from "./render_undecided.ts";

const SCHEMA_PATH = new URL(
  "../../tools/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json",
  import.meta.url,
);

const schema = JSON.parse(await Deno.readTextFile(SCHEMA_PATH));
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

Deno.test("the schema is the SARIF 2.1.0 one", () => {
  assert.match(schema.title, /SARIF\) Version 2\.1\.0 JSON Schema/);
});

Deno.test("every SARIF log pawl writes passes the SARIF 2.1.0 schema", async (t) => {
  const logs: [string, string][] = [
    ["an accept", renderSarif(acceptVerdict())],
    ["a reject", renderSarif(rejectVerdict())],
    ["a static-only run", renderSarif(staticVerdict())],
    ["hostile messages and paths", renderSarif(hostileVerdict())],
    ["500 findings", renderSarif(longVerdict(500))],
    [
      "with a repository URI and an information URI",
      renderSarif(rejectVerdict(), {
        repositoryUri: "https://github.com/o/r",
        informationUri: "https://github.com/o/r#readme",
      }),
    ],
    [
      "an undecided run",
      renderUndecided("Cannot decide without a clock").sarif,
    ],
    [
      "an undecided run that names a file",
      renderUndecided('Cannot read contract "invariants.toml": bad', {
        path: "invariants.toml",
        line: 4,
      }).sarif,
    ],
  ];
  for (const [name, text] of logs) {
    await t.step(name, () => {
      const ok = validate(JSON.parse(text));
      assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    });
  }
});

Deno.test("an undecided SARIF log holds one blocking result", () => {
  const log = JSON.parse(renderUndecided("Cannot read base contract").sarif);
  const run = log.runs[0];
  assert.equal(run.results.length, 1);
  assert.equal(run.results[0].level, "error");
  assert.equal(run.results[0].ruleId, run.tool.driver.rules[0].id);
  assert.match(run.results[0].message.text, /could not decide: Cannot read/);
  assert.equal(run.invocations[0].executionSuccessful, false);
});

Deno.test("an undecided SARIF result is at the file its reason names, or at the repository", async (t) => {
  const cases: [string, unknown, unknown][] = [
    [
      "a contract that does not parse: its file and line",
      new ContractSyntaxError("tests/agent_contract.yaml", "bad", { line: 7 }),
      {
        physicalLocation: {
          artifactLocation: {
            uri: "tests/agent_contract.yaml",
            uriBaseId: "%SRCROOT%",
          },
          region: { startLine: 7 },
        },
      },
    ],
    [
      "a base that breaks its own contract: its first problem",
      new BaseProblemError("b".repeat(40), [
        finding("fixture.missing", "Fixture is missing", {
          path: "tests/fixtures/a.bin",
        }),
      ]),
      {
        physicalLocation: {
          artifactLocation: {
            uri: "tests/fixtures/a.bin",
            uriBaseId: "%SRCROOT%",
          },
          region: { startLine: 1 },
        },
      },
    ],
    [
      "a reason with no file: the repository, no physical location",
      new Error("Cannot decide without a clock"),
      {
        logicalLocations: [{
          name: "repository",
          fullyQualifiedName: "repository",
          kind: "module",
        }],
      },
    ],
    [
      "a path outside the repository: the repository",
      Object.assign(new Error("x"), { path: "/etc/passwd" }),
      {
        logicalLocations: [{
          name: "repository",
          fullyQualifiedName: "repository",
          kind: "module",
        }],
      },
    ],
  ];
  for (const [name, error, location] of cases) {
    await t.step(name, () => {
      const text = renderUndecided(
        (error as Error).message,
        undecidedLocation(error),
      ).sarif;
      assert.ok(validate(JSON.parse(text)));
      const log = JSON.parse(text);
      assert.deepEqual(log.runs[0].results[0].locations, [location]);
      assert.doesNotMatch(text, /pawl\.toml/);
    });
  }
});
