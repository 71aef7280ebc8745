import assert from "node:assert/strict";
import fc from "fast-check";
import {
  besideTest,
  e2eTestsFor,
  graphFromDenoInfo,
  importers,
  isUnitTest,
  loadedBy,
  unitTestsFor,
} from "./select_tests.ts";

const graph = new Map<string, string[]>([
  ["src/a/judge.ts", ["src/a/rule.ts"]],
  ["src/a/rule.ts", []],
  ["src/a/rule_test.ts", ["src/a/rule.ts"]],
  ["src/a/judge_test.ts", ["src/a/judge.ts"]],
  ["src/b/uses_judge_test.ts", ["src/a/judge.ts"]],
  ["src/a/deep/uses_rule_test.ts", ["src/a/rule.ts"]],
  ["src/0/also_rule_test.ts", ["src/a/rule.ts"]],
  ["src/a/aaa_test.ts", ["src/a/rule.ts"]],
  ["tests/e2e_test.ts", ["src/a/rule.ts"]],
  ["src/a/cycle.ts", ["src/a/cycle_b.ts"]],
  ["src/a/cycle_b.ts", ["src/a/cycle.ts"]],
]);

Deno.test("the unit tests of a file are the tests that load it, the beside test first, nearest first, at most the limit", async (t) => {
  const byImporter = importers(graph);
  await t.step(
    "the beside test leads its distance, then the tests nearest in the folder tree, then by name; tests of importers follow",
    () => {
      assert.deepEqual(unitTestsFor("src/a/rule.ts", byImporter, 10), [
        "src/a/rule_test.ts",
        "src/a/aaa_test.ts",
        "src/a/deep/uses_rule_test.ts",
        "src/0/also_rule_test.ts",
        "src/a/judge_test.ts",
        "src/b/uses_judge_test.ts",
      ]);
    },
  );
  await t.step("the limit keeps the nearest", () => {
    assert.deepEqual(unitTestsFor("src/a/rule.ts", byImporter, 2), [
      "src/a/rule_test.ts",
      "src/a/aaa_test.ts",
    ]);
  });
  await t.step(
    "tests/ files are end-to-end, never chosen from the graph",
    () => {
      assert.deepEqual(isUnitTest("tests/e2e_test.ts"), false);
      assert.deepEqual(isUnitTest("main_test.ts"), true);
      assert.deepEqual(isUnitTest("src/a/rule.ts"), false);
    },
  );
  await t.step("a cycle without tests ends with none", () => {
    assert.deepEqual(unitTestsFor("src/a/cycle.ts", byImporter, 10), []);
  });
  assert.deepEqual(besideTest("src/a/rule.ts"), "src/a/rule_test.ts");
});

Deno.test("every chosen unit test reaches the file, none twice, and with room for all every reaching test is chosen", () => {
  const names = [
    "src/m0.ts",
    "src/m1.ts",
    "src/m2.ts",
    "src/m0_test.ts",
    "src/m1_test.ts",
    "src/x_test.ts",
  ];
  const arbGraph = fc.array(
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)),
    { maxLength: 20 },
  )
    .map((edges) => {
      const g = new Map<string, string[]>(names.map((n) => [n, []]));
      for (const [from, to] of edges) {
        if (from !== to && !g.get(from)!.includes(to)) g.get(from)!.push(to);
      }
      return g;
    });
  const reaches = (
    g: Map<string, string[]>,
    from: string,
    to: string,
  ): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const m = stack.pop()!;
      for (const d of g.get(m) ?? []) {
        if (d === to) return true;
        if (!seen.has(d)) seen.add(d), stack.push(d);
      }
    }
    return false;
  };
  fc.assert(
    fc.property(
      arbGraph,
      fc.constantFrom(...names),
      fc.integer({ min: 0, max: 6 }),
      (g, file, limit) => {
        const chosen = unitTestsFor(file, importers(g), limit);
        if (
          chosen.length > limit || new Set(chosen).size !== chosen.length
        ) return false;
        if (!chosen.every((t) => t !== file && reaches(g, t, file))) {
          return false;
        }
        const all = names.filter((n) =>
          n !== file && isUnitTest(n) && reaches(g, n, file)
        );
        return limit < all.length || chosen.length === all.length;
      },
    ),
  );
});

Deno.test("the named end-to-end tests are those of every prefix the path starts with, each once", () => {
  const table = [
    { prefix: "src/run/", tests: ["tests/a_test.ts", "tests/b_test.ts"] },
    {
      prefix: "src/run/observer",
      tests: ["tests/b_test.ts", "tests/c_test.ts"],
    },
    { prefix: "src/runner/", tests: ["tests/d_test.ts"] },
  ];
  assert.deepEqual(e2eTestsFor("src/run/observer_stream.ts", table), [
    "tests/a_test.ts",
    "tests/b_test.ts",
    "tests/c_test.ts",
  ]);
  assert.deepEqual(e2eTestsFor("src/run/verdict.ts", table), [
    "tests/a_test.ts",
    "tests/b_test.ts",
  ]);
  assert.deepEqual(e2eTestsFor("src/sign/key.ts", table), []);
});

Deno.test("the graph is read from deno info: local TypeScript modules and their code imports only", async () => {
  const root = decodeURIComponent(new URL("../../", import.meta.url).pathname)
    .replace(/\/$/, "");
  const out = await new Deno.Command("deno", {
    args: ["info", "--json", `${root}/tools/mutate/select_tests_test.ts`],
    cwd: root,
    stdout: "piped",
  }).output();
  const g = graphFromDenoInfo(
    JSON.parse(new TextDecoder().decode(out.stdout)),
    root,
  );
  assert.deepEqual(g.get("tools/mutate/select_tests_test.ts"), [
    "tools/mutate/select_tests.ts",
  ]);
  assert.deepEqual(g.get("tools/mutate/select_tests.ts"), []);
  assert.deepEqual(
    [...g.keys()].every((k) =>
      !k.startsWith("node_modules/") && k.endsWith(".ts")
    ),
    true,
  );
});

Deno.test("the program is every module main.ts loads, not what only tests load", () => {
  const graph = new Map<string, string[]>([
    ["main.ts", ["src/cli.ts"]],
    ["src/cli.ts", ["src/run/a.ts", "src/cli.ts"]],
    ["src/run/a.ts", ["src/core/b.ts"]],
    ["src/core/b.ts", []],
    ["src/run/_scripted.ts", ["src/run/a.ts"]],
    ["src/run/a_test.ts", ["src/run/a.ts", "src/run/_scripted.ts"]],
  ]);
  assert.deepEqual(
    [...loadedBy(graph, "main.ts")].sort(),
    ["main.ts", "src/cli.ts", "src/core/b.ts", "src/run/a.ts"],
  );
  assert.deepEqual([...loadedBy(graph, "missing.ts")], []);
});
