import assert from "node:assert/strict";
import fc from "fast-check";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { generateMutants } from "./generate_mutants.ts";
import { selectMutants } from "./select_mutants.ts";
import { touchedFunctions } from "./touched_functions.ts";

const parser = await loadPythonParser();

const BASE = [
  "def keep(a):",
  "    return a + 1",
  "def change(a, b):",
  "    return a < b",
  "",
].join("\n");
const HEAD = [
  "def keep(a):",
  "    return a + 1",
  "def change(a, b):",
  "    return a <= b and b > 0",
  "def added(xs):",
  "    return xs[1:]",
  "",
].join("\n");

Deno.test("touchedFunctions() names the functions the head changed or added", () => {
  assert.deepEqual(
    [...touchedFunctions(parser, BASE, HEAD)].sort(),
    ["added", "change"],
  );
  assert.deepEqual(
    [...touchedFunctions(parser, undefined, BASE)].sort(),
    ["change", "keep"],
  );
  assert.equal(touchedFunctions(parser, BASE, BASE).size, 0);
});

Deno.test("touchedFunctions() counts a function defined twice as touched when either definition changed", async (t) => {
  const twice = (first: string, second: string) =>
    `def f():\n    return ${first}\n\ndef f():\n    return ${second}\n`;
  const cases: [string, string, string[]][] = [
    ["neither changed", twice("1", "2"), []],
    ["the last, which is the one called, changed", twice("1", "3"), ["f"]],
    ["the first changed", twice("0", "2"), ["f"]],
    ["the first dropped", "def f():\n    return 2\n", ["f"]],
    ["the last dropped", "def f():\n    return 1\n", ["f"]],
  ];
  for (const [name, head, want] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        [...touchedFunctions(parser, twice("1", "2"), head)],
        want,
      );
    });
  }
});

Deno.test("selectMutants() puts touched functions first, then a seeded sample up to the cap", () => {
  const touched = touchedFunctions(parser, BASE, HEAD);
  const mutants = generateMutants(parser, "m.py", HEAD);
  const isTouched = (m: { function: string }) => touched.has(m.function);
  const nTouched = mutants.filter(isTouched).length;
  const all = selectMutants(mutants, {
    touched: isTouched,
    seed: 7,
    max: 1000,
  });
  assert.equal(all.selected.length, mutants.length);
  assert.equal(all.capped, 0);
  assert.equal(all.touched, nTouched);
  assert.ok(all.selected.slice(0, nTouched).every(isTouched));
  assert.ok(!all.selected.slice(nTouched).some(isTouched));

  const capped = selectMutants(mutants, {
    touched: isTouched,
    seed: 7,
    max: nTouched + 1,
  });
  assert.equal(capped.selected.length, nTouched + 1);
  assert.equal(capped.capped, mutants.length - nTouched - 1);
  // The same seed draws the same sample; the sample depends on the seed.
  const again = selectMutants([...mutants].reverse(), {
    touched: isTouched,
    seed: 7,
    max: nTouched + 1,
  });
  assert.deepEqual(
    again.selected.slice(nTouched).map((m) => m.id),
    capped.selected.slice(nTouched).map((m) => m.id),
  );
  const orders = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    orders.add(
      selectMutants(mutants, { touched: isTouched, seed, max: 1000 }).selected
        .map((m) => m.id).join(","),
    );
  }
  assert.ok(orders.size > 1, "different seeds draw different samples");
});

Deno.test("mutants near the change are sampled before the rest, after the touched ones", () => {
  const ms = ["a1", "a2", "b1", "b2", "c1", "c2"].map((id) => ({
    id,
    file: `${id[0]}.py`,
    function: "f",
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    start: 0,
    end: 1,
    original: "<",
    replacement: "<=",
    operator: "comparison" as const,
  }));
  const s = selectMutants(ms, {
    touched: (m) => m.file === "c.py",
    near: (m) => m.file === "b.py",
    seed: 7,
    max: 4,
  });
  assert.deepEqual(s.selected.slice(0, 2).map((m) => m.id), ["c1", "c2"]);
  assert.deepEqual(
    new Set(s.selected.slice(2).map((m) => m.file)),
    new Set(["b.py"]),
  );
  assert.equal(s.capped, 2);
});

Deno.test("selectMutants() takes the first of one order, whatever the cap: touched in their order, the rest drawn from the seed alone", () => {
  const ms = Array.from({ length: 12 }, (_, i) => ({
    id: `m${i}`,
    file: `${"abc"[i % 3]}.py`,
    function: "f",
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    start: i,
    end: i + 1,
    original: "<",
    replacement: "<=",
    operator: "comparison" as const,
  }));
  const touched = (m: { file: string }) => m.file === "a.py";
  const near = (m: { file: string }) => m.file === "b.py";
  fc.assert(fc.property(
    fc.shuffledSubarray(ms, { minLength: ms.length }),
    fc.integer({ min: 0, max: ms.length + 2 }),
    fc.integer(),
    fc.boolean(),
    (shuffled, max, seed, withNear) => {
      const options = { touched, near: withNear ? near : undefined, seed };
      const ids = (list: readonly { id: string }[]) => list.map((m) => m.id);
      const full = selectMutants(shuffled, { ...options, max: 1000 }).selected;
      const s = selectMutants(shuffled, { ...options, max });
      assert.deepEqual(ids(s.selected), ids(full.slice(0, max)));
      assert.deepEqual(ids(full.slice(0, 4)), ids(shuffled.filter(touched)));
      assert.deepEqual(ids(full).sort(), ids(ms).sort(), "each mutant once");
      const inOrder = selectMutants(ms, { ...options, max: 1000 }).selected;
      assert.deepEqual(ids(full.slice(4)), ids(inOrder.slice(4)));
      assert.equal(s.touched, Math.min(4, max));
      assert.equal(s.capped, ms.length - s.selected.length);
      const ranks = full.map((m) =>
        touched(m) ? 0 : withNear && near(m) ? 1 : 2
      );
      assert.deepEqual(ranks, [...ranks].sort());
    },
  ));
});

Deno.test("selectMutants() draws the same sample from the same seed in every version, so a verdict can be reproduced", () => {
  const ms = Array.from({ length: 20 }, (_, i) => ({
    id: `m${i}`,
    file: "a.py",
    function: "f",
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 2,
    start: i,
    end: i + 1,
    original: "<",
    replacement: "<=",
    operator: "comparison" as const,
  }));
  // The rest in the order of sha256 of "<seed>:<id>".
  const s = selectMutants(ms, { touched: () => false, seed: 7, max: 20 });
  assert.deepEqual(s.selected.map((m) => m.id), [
    "m11",
    "m15",
    "m17",
    "m3",
    "m19",
    "m0",
    "m10",
    "m1",
    "m5",
    "m2",
    "m14",
    "m13",
    "m7",
    "m16",
    "m6",
    "m18",
    "m4",
    "m8",
    "m9",
    "m12",
  ]);
});
