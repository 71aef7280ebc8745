import assert from "node:assert/strict";
import fc from "fast-check";
import { checkExampleOnly } from "./check_example_only.ts";
import type { ExampleAssertionDelta } from "./example_assertion_deltas.ts";
import type { ContractStrengthening } from "./strengthened_contracts.ts";

const CONTRACTS = "contracts.yml";
const ADDED: ContractStrengthening = { kind: "added", id: "c" };

function judge(
  deltas: ExampleAssertionDelta[],
  strengthenings: ContractStrengthening[] = [],
) {
  return checkExampleOnly({ deltas, strengthenings, contractsPath: CONTRACTS });
}

Deno.test("checkExampleOnly() rejects more example assertions with no stronger contract", async (t) => {
  const cases: [
    string,
    ExampleAssertionDelta[],
    ContractStrengthening[],
    boolean,
  ][] = [
    ["no changed test file", [], [], false],
    [
      "the same number of assertions",
      [{ path: "a", base: 2, head: 2 }],
      [],
      false,
    ],
    ["fewer assertions", [{ path: "a", base: 3, head: 1 }], [], false],
    ["one more assertion", [{ path: "a", base: 2, head: 3 }], [], true],
    [
      "one more assertion and a new contract",
      [{ path: "a", base: 2, head: 3 }],
      [ADDED],
      false,
    ],
    [
      "one file grows as much as another shrinks",
      [{ path: "a", base: 0, head: 2 }, { path: "b", base: 2, head: 0 }],
      [],
      false,
    ],
    [
      "one file grows more than another shrinks",
      [{ path: "a", base: 0, head: 3 }, { path: "b", base: 2, head: 0 }],
      [],
      true,
    ],
  ];
  for (const [name, deltas, strengthenings, rejected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        judge(deltas, strengthenings).map((f) => [f.rule, f.blocking]),
        rejected ? [["tests.unproven", true]] : [],
      );
    });
  }
});

Deno.test("checkExampleOnly() rejects exactly when the total grows and no contract is stronger", () => {
  const delta = fc.record({
    path: fc.constantFrom("a", "b", "c"),
    base: fc.nat(5),
    head: fc.nat(5),
  });
  fc.assert(
    fc.property(
      fc.array(delta, { maxLength: 4 }),
      fc.boolean(),
      (deltas, stronger) => {
        const grew = deltas.reduce((n, d) => n + d.head - d.base, 0) > 0;
        const findings = judge(deltas, stronger ? [ADDED] : []);
        assert.equal(findings.length, grew && !stronger ? 1 : 0);
      },
    ),
  );
});

Deno.test("checkExampleOnly() points at the first file that grew and counts what it adds", async (t) => {
  const cases: [
    string,
    ExampleAssertionDelta[],
    string,
    number | undefined,
    string,
  ][] = [
    [
      "one assertion in one file",
      [{ path: "a", base: 1, head: 2, line: 7 }],
      "a",
      7,
      "adds 1 example assertion (1 → 2 in 1 changed test file)",
    ],
    [
      "a file that grew, not one that kept its count",
      [{ path: "a", base: 1, head: 1, line: 3 }, {
        path: "b",
        base: 0,
        head: 2,
        line: 9,
      }],
      "b",
      9,
      "adds 2 example assertions (1 → 3 in 2 changed test files)",
    ],
    [
      "the first file that grew, not the first file",
      [
        { path: "a", base: 2, head: 1, line: 3 },
        { path: "b", base: 0, head: 3, line: 9 },
        { path: "c", base: 0, head: 1, line: 4 },
      ],
      "b",
      9,
      "adds 3 example assertions (2 → 5 in 3 changed test files)",
    ],
  ];
  for (const [name, deltas, path, line, counts] of cases) {
    await t.step(name, () => {
      const [f] = judge(deltas);
      assert.equal(f?.path, path);
      assert.equal(f?.line, line);
      assert.equal(
        f?.message,
        `Example-only test diff is unproven: the pull request ${counts} but adds or strengthens no contract in "${CONTRACTS}"; add a public contract whose predicate can fail on inputs the patch did not hard-code`,
      );
    });
  }
});
