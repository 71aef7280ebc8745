import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { constantRuns, foldString, stringValue } from "./_fold_string.ts";
import { loadPythonParser } from "./load_python_parser.ts";

const parser = await loadPythonParser();

/** The expression of a one-line module. */
function expression(source: string): Node {
  const root = parser.parse(`${source}\n`).rootNode;
  const node = root.namedChildren[0]?.namedChildren[0];
  assert.ok(node, source);
  return node;
}

Deno.test("foldString() reads strings built from constants", async (t) => {
  const cases: [string, string | undefined][] = [
    ['"_py" + "test"', "_pytest"],
    ['"a" "b" f"c{\'d\'}"', "abcd"],
    ['"\\x70y\\u0074est"', "pytest"],
    ['r"\\x70"', "\\x70"],
    ['"tset"[::-1]', "test"],
    ['"xtesty"[1:5]', "test"],
    ['"".join(["py", "te", "st"])', "pytest"],
    ['"".join(map(chr, [112, 121]))', "py"],
    ['chr(116) + "est"', "test"],
    ['"%s%s" % ("py", "test")', "pytest"],
    ['"PY".lower() * 2', "pypy"],
    ['"a-b".replace("-", "")', "ab"],
    ['"py" + name', undefined],
    ['f"{name}"', undefined],
    ['"%d" % 3', undefined],
  ];
  for (const [source, want] of cases) {
    await t.step(source, () => {
      assert.equal(foldString(expression(source)), want);
    });
  }
});

Deno.test("constantRuns() reads the constants a chain of + builds between unknown parts", () => {
  assert.deepEqual(
    constantRuns(expression('x + "_py" + "test" + y + "z"')),
    ["_pytest", "z"],
  );
  const long = `${Array(60).fill('""').join(" + ")} + "_py" + "test"`;
  assert.deepEqual(constantRuns(expression(long)), ["_pytest"]);
});

Deno.test("stringValue() is undefined for an f-string with fields", () => {
  assert.equal(stringValue(expression('f"{x}"')), undefined);
  assert.equal(stringValue(expression('b"py"')), "py");
});
