import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";
import { exprKey } from "./_python_expr.ts";

const parser = await loadPythonParser();

function returnsOf(source: string, name = "names") {
  return analyzePython(parser, source).definitions?.get(name)?.returns;
}

Deno.test("analyzePython() reads what a helper that only returns an expression returns", () => {
  const returns = returnsOf(`from hypothesis import strategies as st


def names(size, alphabet):
    """Names of up to \`size\` letters."""
    return st.text(alphabet=alphabet, max_size=size)
`);
  assert.deepEqual(returns?.params, ["size", "alphabet"]);
  assert.match(
    exprKey(returns?.expr ?? { type: "none", line: 0 }),
    /name:"hypothesis\.strategies\.text"/,
  );
});

Deno.test("analyzePython() reads no returned expression where a call is not the expression", async (t) => {
  const cases: [string, string][] = [
    [
      "a decorated def",
      "@st.composite\ndef names(draw):\n    return draw(st.text())\n",
    ],
    ["an async def", "async def names():\n    return st.text()\n"],
    [
      "more than a return",
      "def names():\n    size = 5\n    return st.text(max_size=size)\n",
    ],
    ["a default", "def names(size=5):\n    return st.text(max_size=size)\n"],
    [
      "a star parameter",
      "def names(*sizes):\n    return st.text(max_size=sizes[0])\n",
    ],
    ["a generator", "def names():\n    return (yield st.text())\n"],
    [
      "a def bound twice",
      "def names():\n    return st.text()\n\n\ndef names():\n    return st.text(max_size=1)\n",
    ],
    ["a bare return", "def names():\n    return\n"],
  ];
  for (const [name, body] of cases) {
    await t.step(name, () => {
      assert.equal(
        returnsOf(`from hypothesis import strategies as st\n\n\n${body}`),
        undefined,
      );
    });
  }
});
