import assert from "node:assert/strict";
import fc from "fast-check";
import type { ChangedPath } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { pyFunction, pyModule } from "./_testing.ts";
import {
  type ExampleAssertionDelta,
  exampleAssertionDeltas,
} from "./example_assertion_deltas.ts";

/** A module whose functions hold `[examples, def line]`. */
function mod(fns: Record<string, [number, number]>): PythonModule {
  return pyModule(
    ...Object.entries(fns).map(([name, [examples, line]]) =>
      pyFunction(name, { examples, line })
    ),
  );
}

function modules(
  spec: Record<string, Record<string, [number, number]>>,
): Map<string, PythonModule> {
  return new Map(Object.entries(spec).map(([path, fns]) => [path, mod(fns)]));
}

const A = "tests/test_a.py";
const B = "tests/test_b.py";

Deno.test("exampleAssertionDeltas() sums each changed test file's example assertions on both sides", async (t) => {
  const cases: [
    string,
    ChangedPath[],
    Map<string, PythonModule>,
    Map<string, PythonModule>,
    ExampleAssertionDelta[],
  ][] = [
    ["no change", [], new Map(), new Map(), []],
    [
      "a changed file that is not a test file",
      [{ status: "M", path: "src/billing/ledger.py" }],
      modules({ "src/billing/ledger.py": { f: [1, 3] } }),
      modules({ "src/billing/ledger.py": { f: [5, 3] } }),
      [],
    ],
    [
      "a file with more assertions points at the first function that grew",
      [{ status: "M", path: A }],
      modules({ [A]: { test_x: [1, 3], test_y: [1, 8], test_z: [0, 12] } }),
      modules({ [A]: { test_x: [1, 3], test_y: [2, 8], test_z: [3, 12] } }),
      [{ path: A, base: 2, head: 6, line: 8 }],
    ],
    [
      "a file whose functions keep their assertions has no line",
      [{ status: "M", path: A }],
      modules({ [A]: { test_x: [2, 3], test_y: [1, 8] } }),
      modules({ [A]: { test_x: [1, 3], test_y: [1, 8] } }),
      [{ path: A, base: 3, head: 2 }],
    ],
    [
      "an added file counts nothing at base",
      [{ status: "A", path: A }],
      new Map(),
      modules({ [A]: { test_x: [2, 4] } }),
      [{ path: A, base: 0, head: 2, line: 4 }],
    ],
    [
      "a deleted file counts nothing at head",
      [{ status: "D", path: A }],
      modules({ [A]: { test_x: [2, 4] } }),
      new Map(),
      [{ path: A, base: 2, head: 0 }],
    ],
    [
      "a new function counts from nothing",
      [{ status: "M", path: A }],
      modules({ [A]: { test_x: [1, 3] } }),
      modules({ [A]: { test_x: [1, 3], test_new: [1, 9] } }),
      [{ path: A, base: 1, head: 2, line: 9 }],
    ],
    [
      "files are listed once each, sorted by path",
      [{ status: "M", path: B }, { status: "M", path: A }, {
        status: "M",
        path: B,
      }],
      modules({ [A]: { test_x: [1, 3] }, [B]: { test_x: [1, 3] } }),
      modules({ [A]: { test_x: [1, 3] }, [B]: { test_x: [1, 3] } }),
      [{ path: A, base: 1, head: 1 }, { path: B, base: 1, head: 1 }],
    ],
  ];
  for (const [name, changes, base, head, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(exampleAssertionDeltas(changes, base, head), expected);
    });
  }
});

Deno.test("exampleAssertionDeltas() gives a line exactly when some function has more assertions than at base", () => {
  const counts = fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 5 });
  fc.assert(
    fc.property(counts, counts, (before, after) => {
      const side = (values: number[]) =>
        new Map([[
          A,
          pyModule(
            ...values.map((n, i) =>
              pyFunction(`test_${i}`, { examples: n, line: 10 * (i + 1) })
            ),
          ),
        ]]);
      const [delta] = exampleAssertionDeltas(
        [{ status: "M", path: A }],
        side(before),
        side(after),
      );
      const grew = after.findIndex((n, i) => n > (before[i] ?? 0));
      assert.equal(delta?.line, grew < 0 ? undefined : 10 * (grew + 1));
      assert.equal(delta?.base, before.reduce((a, b) => a + b, 0));
      assert.equal(delta?.head, after.reduce((a, b) => a + b, 0));
    }),
  );
});
