import assert from "node:assert/strict";
import {
  buildStatement,
  IN_TOTO_STATEMENT_TYPE,
  PAWL_VERDICT_PREDICATE_TYPE,
} from "./statement.ts";
import { HEAD, sampleVerdict } from "./_testing.ts";

Deno.test("buildStatement() makes the head commit the subject and the verdict the predicate", () => {
  const verdict = sampleVerdict();
  const statement = buildStatement(verdict);
  assert.deepEqual(statement, {
    _type: "https://in-toto.io/Statement/v1",
    subject: [{ name: "./some-repo", digest: { gitCommit: HEAD } }],
    predicateType: "https://pawl.dev/verdict/v1",
    predicate: verdict,
  });
  assert.equal(statement._type, IN_TOTO_STATEMENT_TYPE);
  assert.equal(statement.predicateType, PAWL_VERDICT_PREDICATE_TYPE);
  assert.deepEqual(
    Object.keys(statement),
    ["_type", "subject", "predicateType", "predicate"],
  );
});
