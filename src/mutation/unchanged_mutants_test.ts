import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { applyMutant } from "./mutant.ts";
import { namedByChange, unchangedMutants } from "./unchanged_mutants.ts";

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
        assert.equal(b.endLine, m.endLine - 3);
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

Deno.test("what a pull request changed is named by function, by statement and by the names it uses", async (t) => {
  const changedOf = (base: string, head: string) =>
    unchangedMutants(parser, [{ file: "m.py", base, head }], {
      operators: ["arithmetic"],
    });
  await t.step("a function the base defines twice counts as changed", () => {
    const base = BASE + "\n\ndef scale(m, k):\n    return m\n";
    const u = changedOf(base, BASE);
    assert.deepEqual(u.changed.map((c) => [c.qualname, c.line]), [
      ["scale", 11],
    ]);
    assert.ok(u.mutants.every((m) => m.function !== "scale"));
    assert.ok(u.mutants.some((m) => m.function === "add"));
  });
  await t.step(
    "a function the head defines twice is not named, nor kept",
    () => {
      const head = BASE + "\n\ndef scale(m, k):\n    return m\n";
      const u = changedOf(BASE, head);
      assert.ok(u.changed.every((c) => c.qualname !== "scale"));
      assert.ok(u.mutants.every((m) => m.function !== "scale"));
    },
  );
  await t.step(
    "blank lines, comments, lines the base has and lines inside functions are no changed statement",
    () => {
      const head = "# a new comment\n\n\n" +
        BASE.replace(
          "        self.cents = cents\n",
          "        self.cents = cents + 0\n\n",
        ) +
        "\nadd(1, 2)\n    # indented comment\n";
      const u = changedOf(BASE, head);
      assert.deepEqual(u.changed.map((c) => [c.qualname, c.line]), [
        ["Money.__init__", 5],
        ["add(1, 2)", 18],
      ]);
    },
  );
  await t.step(
    "a blank line is no statement, even where the base has none",
    () => {
      const u = changedOf("X = 1", "X = 1\n\nY = 2\n");
      assert.deepEqual(u.changed.map((c) => [c.qualname, c.line]), [
        ["Y = 2", 3],
      ]);
    },
  );
  await t.step("changes are listed by file, then by line", () => {
    const u = unchangedMutants(parser, [
      { file: "b.py", base: "X = 1\n", head: "X = 1\nY = 2\n" },
      { file: "a.py", base: "", head: "\n\n\n\nZ = 3\n" },
      { file: "b.py", base: "", head: "W = 0\n" },
    ], { operators: ["arithmetic"] });
    assert.deepEqual(u.changed.map((c) => [c.file, c.line]), [
      ["a.py", 5],
      ["b.py", 1],
      ["b.py", 2],
    ]);
  });
  await t.step("a statement only re-indented is not changed", () => {
    const base = BASE + "if DEBUG:\n    LIMIT = 1\n";
    const u = changedOf(base, BASE + "if DEBUG:\n  LIMIT = 1\n");
    assert.deepEqual(u.changed, []);
  });
  await t.step("a change that uses no name names nothing", () => {
    const u = changedOf(BASE, BASE + "42\n");
    assert.deepEqual(u.changed.map((c) => c.qualname), ["42"]);
    assert.deepEqual(u.referenced, new Set());
  });
  await t.step("the line right after a function is outside it", () => {
    const head = BASE + "RATE = 3\n";
    const u = changedOf(BASE, head);
    assert.deepEqual(u.changed.map((c) => [c.qualname, c.line]), [
      ["RATE = 3", 13],
    ]);
  });
  await t.step(
    "a long statement is named by its first sixty characters",
    () => {
      const long = `NAMES = [${"'x', ".repeat(20)}]`;
      const u = changedOf(BASE, BASE + long + "\n");
      assert.deepEqual(u.changed.map((c) => c.qualname), [long.slice(0, 60)]);
    },
  );
  await t.step("changes are listed by file, then by line", () => {
    const u = unchangedMutants(parser, [
      {
        file: "b.py",
        base: BASE,
        head: "A = 0\n" + BASE.replace("m.cents * k", "m.cents * k * 1") +
          "B = 1\n",
      },
      { file: "a.py", base: BASE, head: "Z = 0\n" + BASE },
    ], { operators: ["arithmetic"] });
    assert.deepEqual(u.changed.map((c) => [c.file, c.qualname, c.line]), [
      ["a.py", "Z = 0", 1],
      ["b.py", "A = 0", 1],
      ["b.py", "scale", 12],
      ["b.py", "B = 1", 14],
    ]);
  });
  await t.step(
    "a mutant is named by the change when its function or class is",
    () => {
      const head = BASE.replace(
        "return Money(m.cents * k, m.currency)",
        "return Money(m.cents * k + add(m, m).cents, m.currency)",
      ) + "TOTAL = Money(0, 'EUR')\n";
      const u = unchangedMutants(parser, [{ file: "m.py", base: BASE, head }], {
        operators: ["arithmetic", "comparison", "constant", "statement"],
      });
      const named = new Set(
        u.mutants.filter((m) => namedByChange(u, m)).map((m) => m.function),
      );
      assert.deepEqual([...named].sort(), ["Money.__init__", "add"]);
      assert.ok(u.referenced.has("TOTAL"));
    },
  );
});
