import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";
import { exprKey } from "./_python_expr.ts";

const parser = await loadPythonParser();

function scopeOf(source: string) {
  const fn = analyzePython(parser, source).functions.get("test_x");
  assert.ok(fn?.scope !== undefined, source);
  return fn.scope;
}

Deno.test("analyzePython() records the names a function binds, with the statements that bind them", () => {
  const scope = scopeOf(`import json


def test_x(a, b: int, c=3, *rest, key, **options):
    total = a + b
    total += c
    for item, (left, *more) in pairs(a):
        pass
    with open(a) as fh, lock:
        pass
    if (found := find(a)) is not None:
        pass
    obj.attr = 1
    items[0] = 2
    squares = [v * v for v in rest]
    assert total
`);
  assert.deepEqual(scope.params, ["a", "b", "c", "rest", "key", "options"]);
  assert.deepEqual([...scope.bindings.keys()].sort(), [
    "fh",
    "found",
    "item",
    "left",
    "more",
    "squares",
    "total",
  ]);
  assert.equal(scope.bindings.get("total")?.length, 2);
  assert.match(
    exprKey(scope.bindings.get("item")?.[0] ?? { type: "none", line: 0 }),
    /^for_binding\(/,
  );
  assert.deepEqual(scope.fixed, []);
});

Deno.test("analyzePython() marks the names a renaming may not follow", async (t) => {
  const cases: [string, string, string[]][] = [
    ["global and nonlocal", "    global G\n    G = 1\n", ["G"]],
    ["an import in the body", "    import json as j\n", ["j", "json"]],
    [
      "a nested def and class",
      "    def inner():\n        pass\n    class K:\n        pass\n",
      ["K", "inner"],
    ],
    [
      "except ... as",
      "    try:\n        pass\n    except ValueError as error:\n        pass\n",
      ["error"],
    ],
    [
      "a match capture",
      "    match a:\n        case [first, *others]:\n            pass\n",
      ["first", "others"],
    ],
    ["a parameter bound again", "    a = a + 1\n", ["a"]],
  ];
  for (const [name, body, fixed] of cases) {
    await t.step(name, () => {
      const scope = scopeOf(`def test_x(a):\n${body}    assert a\n`);
      assert.deepEqual(scope.fixed, fixed);
    });
  }
});

Deno.test("analyzePython() keeps what an assertion checks, its message left out", () => {
  const fn = analyzePython(
    parser,
    `import pytest as pt


def test_x(a):
    assert a > 1, "too small"
    with pt.raises(ValueError, match="x"):
        f(a)
    if a:
        raise AssertionError("no")
`,
  ).functions.get("test_x");
  const claims = (fn?.assertions ?? []).map((site) =>
    site.claim === undefined ? undefined : exprKey(site.claim)
  );
  assert.equal(claims.length, 3);
  assert.match(claims[0] ?? "", /^comparison_operator\(/);
  assert.doesNotMatch(claims[0] ?? "", /too small/);
  assert.match(claims[1] ?? "", /name:"pytest\.raises"/);
  assert.equal(claims[2], undefined);
});
