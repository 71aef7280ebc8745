import assert from "node:assert/strict";
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { type Finding, finding } from "../core/finding.ts";
import { refuseBaseFindings } from "./refuse_base_findings.ts";

const advisory = finding(
  "freeze.agent_owner",
  "An advisory note about the base",
  { path: "tests/freeze.yml", line: 2, blocking: false },
);
const blocking = finding(
  "property.removed",
  'Property "a" was removed',
  { path: "tests/agent_contract.yaml", line: 7 },
);

Deno.test("refuseBaseFindings() accepts a base contract whose findings are all non-blocking", async (t) => {
  const cases: [string, Finding[]][] = [
    ["no finding", []],
    ["one non-blocking finding", [advisory]],
    ["several non-blocking findings", [advisory, { ...advisory, line: 9 }]],
  ];
  for (const [name, findings] of cases) {
    await t.step(name, () => {
      assert.doesNotThrow(() => refuseBaseFindings(findings, "freeze.yml"));
    });
  }
});

Deno.test("refuseBaseFindings() refuses the base contract on its first blocking finding, past any non-blocking one", async (t) => {
  const cases: [string, Finding[], string][] = [
    [
      "a blocking finding alone",
      [blocking],
      'Cannot read contract "tests/agent_contract.yaml": the base commit\'s own copy breaks rule "property.removed" at line 7: property "a" was removed',
    ],
    [
      "a non-blocking finding before a blocking one",
      [advisory, blocking],
      'Cannot read contract "tests/agent_contract.yaml": the base commit\'s own copy breaks rule "property.removed" at line 7: property "a" was removed',
    ],
    [
      "a blocking finding without a path or line",
      [finding("freeze.agent_owner", "An advisory note about the base", {
        blocking: true,
      })],
      'Cannot read contract "freeze.yml": the base commit\'s own copy breaks rule "freeze.agent_owner": an advisory note about the base',
    ],
  ];
  for (const [name, findings, message] of cases) {
    await t.step(name, () => {
      assert.throws(
        () => refuseBaseFindings(findings, "freeze.yml"),
        (e: unknown) =>
          e instanceof ContractSyntaxError && e.message === message,
      );
    });
  }
});
