import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { explainProbes } from "./explain_probes.ts";

const probe = finding("harness.code_probes_tests", "probe", {
  path: "pkg/a.py",
  line: 10,
});

Deno.test("explainProbes() makes a probe finding non-blocking only inside a function the clean replay ran", async (t) => {
  const cases: [
    string,
    ReadonlyMap<string, readonly (readonly [number, number])[]> | undefined,
    boolean,
  ][] = [
    ["no replay (or a difference): still blocking", undefined, true],
    [
      "a replayed function around the line: explained",
      new Map([["pkg/a.py", [[8, 12]]]]),
      false,
    ],
    [
      "a replayed function elsewhere in the file: still blocking",
      new Map([["pkg/a.py", [[1, 9]]]]),
      true,
    ],
    [
      "another file replayed: still blocking",
      new Map([["pkg/b.py", [[1, 99]]]]),
      true,
    ],
  ];
  for (const [name, exercised, blocking] of cases) {
    await t.step(name, () => {
      const [out] = explainProbes([probe], exercised);
      assert.equal(out?.blocking, blocking);
    });
  }
  await t.step("other rules are left as they are", () => {
    const other = finding("harness.conftest_changed", "x", {
      path: "pkg/a.py",
      line: 10,
    });
    const [out] = explainProbes([other], new Map([["pkg/a.py", [[1, 99]]]]));
    assert.equal(out?.blocking, true);
  });
});
