import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { applyMutant } from "./mutant.ts";
import { unchangedMutants } from "./unchanged_mutants.ts";

const parser = await loadPythonParser();

const BASE = `class Money:
    def __init__(self, cents, currency):
        self.cents = cents
        self.currency = currency


def add(a, b):
    return Money(a.cents + b.cents, a.currency)


def scale(m, k):
    return Money(m.cents * k, m.currency)
`;

Deno.test("mutants of unchanged code are placed in both commits", async (t) => {
  await t.step(
    "a file the same at both commits keeps every mutant where it is",
    () => {
      const u = unchangedMutants(parser, [{
        file: "m.py",
        base: BASE,
        head: BASE,
      }], {
        operators: ["arithmetic"],
      });
      assert.ok(u.mutants.length >= 2);
      assert.deepEqual(u.changedFiles, new Set());
      assert.deepEqual(u.changed, []);
      for (const m of u.mutants) assert.equal(u.atBase.get(m.id), m);
    },
  );

  await t.step(
    "in a changed file, only unchanged functions' mutants are kept, moved to their base places",
    () => {
      const head = BASE.replace(
        "        self.currency = currency\n",
        "        self.currency = currency\n\n    def __eq__(self, other):\n        return self.cents == other.cents\n",
      ).replace(
        "return Money(m.cents * k, m.currency)",
        "return Money(m.cents * k + 1, m.currency)",
      );
      const u = unchangedMutants(parser, [{ file: "m.py", base: BASE, head }], {
        operators: ["arithmetic", "comparison"],
      });
      assert.deepEqual(u.changedFiles, new Set(["m.py"]));
      assert.deepEqual(u.changed.map((c) => c.qualname), [
        "Money.__eq__",
        "scale",
      ]);
      assert.deepEqual([...new Set(u.mutants.map((m) => m.function))], ["add"]);
      for (const m of u.mutants) {
        const b = u.atBase.get(m.id)!;
        assert.equal(b.id, m.id);
        // The same change, made to the base's text, is the same function's change.
        const atHead = applyMutant(head, m);
        const atBase = applyMutant(BASE, b);
        const fn = (text: string) =>
          text.slice(text.indexOf("def add"), text.indexOf("def scale"));
        assert.equal(fn(atBase), fn(atHead));
        assert.notEqual(fn(atBase), fn(BASE));
        assert.equal(b.line, m.line - 3);
      }
    },
  );

  await t.step(
    "a statement changed outside every function is named with its line",
    () => {
      const head = BASE.replace(
        "class Money:\n",
        "class Money:\n    __slots__ = ('cents',)\n",
      );
      const u = unchangedMutants(parser, [{ file: "m.py", base: BASE, head }], {
        operators: ["arithmetic"],
      });
      assert.deepEqual(u.changed, [
        { file: "m.py", qualname: "__slots__ = ('cents',)", line: 2 },
      ]);
      // Every function is the base's: all their mutants are kept.
      assert.ok(u.mutants.some((m) => m.function === "add"));
      assert.ok(u.mutants.some((m) => m.function === "scale"));
    },
  );

  await t.step("a function defined twice, or only at head, is left out", () => {
    const head = BASE + "\n\ndef add(a, b):\n    return a - b\n";
    const u = unchangedMutants(parser, [{ file: "m.py", base: BASE, head }], {
      operators: ["arithmetic"],
    });
    assert.ok(u.mutants.every((m) => m.function !== "add"));
    assert.ok(u.mutants.some((m) => m.function === "scale"));
  });
});
