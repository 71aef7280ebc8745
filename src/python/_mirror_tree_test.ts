import assert from "node:assert/strict";
import type { Node } from "web-tree-sitter";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";
import { mirrorTree } from "./_mirror_tree.ts";

const SOURCES: Record<string, string> = {
  "tests and decorators": `import pytest
from hypothesis import given, settings, strategies as st, assume

pytestmark = pytest.mark.slow  # a comment after code

@settings(max_examples=200, deadline=None)
@given(st.integers(), st.lists(st.text()))
def test_commutes(x, xs):
    """A docstring."""
    assume(x > 0)
    # a comment between statements
    assert x + 1 == 1 + x, "message"
    assert sorted(xs) == sorted(reversed(xs))

class TestThings:
    @pytest.mark.skipif(True, reason="never")
    def test_skipped(self):
        assert (1 +  # inside parentheses
                2) == 3

    async def test_async(self):
        async with ctx() as c:
            assert await c.value() is not None
`,
  "a stateful machine":
    `from hypothesis.stateful import RuleBasedStateMachine, rule, invariant, initialize

class Machine(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.items = []

    @rule(x=st.integers())
    def add(self, x):
        self.items.append(x)

    @invariant()
    def bounded(self):
        assert len(self.items) < 1000

TestMachine = Machine.TestCase
`,
  "non-ASCII text and names": `# -*- coding: utf-8 -*-
def test_ünïcode():
    café = "naïve 🐍 text"
    assert café.endswith("t") == True
    assert len("𝔘𝔫𝔦") == 3  # astral characters are two UTF-16 units

def test_after():
    assert "é" * 2 == "éé"
`,
  "CRLF line ends":
    "def test_crlf():\r\n    x = 1\r\n    assert x == 1\r\n\r\n" +
    "def test_second():\r\n    assert 2 > 1\r\n",
  "lone carriage returns": "def test_cr():\r    x = 1\r    assert x == 1\r" +
    "def test_next():\r    assert True\r",
  "continuations and odd syntax": `import os, sys as system
x = 1 + \\
    2
if (n := len(sys.argv)) > 1:
    pass
match command:
    case [a, *rest] if a:
        pass
    case {"k": v}:
        pass
lambda y: y ** 2
f"{x!r:>10} {system}"
globals().update(vars(os))
def test_env(monkeypatch):
    assert os.environ.get("HOME") != ""
    with pytest.raises(ValueError):
        int("x")
`,
};

function pairs(real: Node, copy: Node, path: string): void {
  assert.equal(copy.type, real.type, path);
  assert.equal(copy.text, real.text, path);
  assert.equal(copy.startIndex, real.startIndex, path);
  assert.equal(copy.endIndex, real.endIndex, path);
  assert.deepEqual(copy.startPosition, real.startPosition, path);
  assert.deepEqual(copy.endPosition, real.endPosition, path);
  assert.equal(copy.isNamed, real.isNamed, path);
  assert.equal(copy.isExtra, real.isExtra, path);
  assert.equal(copy.childCount, real.childCount, path);
  assert.equal(copy.namedChildren.length, real.namedChildren.length, path);
  for (
    const field of [
      "name",
      "body",
      "left",
      "right",
      "function",
      "value",
      "operators",
      "operator",
    ]
  ) {
    assert.equal(
      copy.childForFieldName(field)?.startIndex,
      real.childForFieldName(field)?.startIndex,
      `${path} field ${field}`,
    );
    assert.equal(
      copy.childrenForFieldName(field).length,
      real.childrenForFieldName(field).length,
      `${path} fields ${field}`,
    );
  }
  real.children.forEach((child, i) => {
    pairs(child as Node, copy.child(i) as Node, `${path}/${i}:${child?.type}`);
  });
}

Deno.test("mirrorTree() copies every node, field and position of the parse tree", async (t) => {
  const parser = await loadPythonParser();
  for (const [name, text] of Object.entries(SOURCES)) {
    for (
      const [how, calls] of [
        ["binding's cursor", undefined],
        ["direct cursor calls", parser.cursorCalls],
      ] as const
    ) {
      await t.step(`${name} (${how})`, () => {
        const tree = parser.parse(text);
        try {
          const copy = mirrorTree(tree, parser.normalized(text), calls);
          assert.ok(copy !== undefined);
          pairs(tree.rootNode, copy, "");
        } finally {
          tree.delete();
        }
      });
    }
  }
});

Deno.test("the Python parser offers the direct cursor calls, and a walk with them leaves the binding usable", async () => {
  const parser = await loadPythonParser();
  assert.ok(parser.cursorCalls !== undefined);
  // Long enough that the cursor's own stack grows while it walks.
  const text = `x = ${"(".repeat(200)}1${")".repeat(200)}  # deep\n`;
  for (let i = 0; i < 3; i++) {
    const tree = parser.parse(text);
    try {
      const copy = mirrorTree(tree, text, parser.cursorCalls);
      assert.ok(copy !== undefined);
      pairs(tree.rootNode, copy, "");
      const cursor = tree.walk();
      assert.ok(cursor.gotoFirstChild());
      assert.equal(cursor.nodeType, "expression_statement");
      cursor.delete();
    } finally {
      tree.delete();
    }
  }
});

Deno.test("analyzePython() reads the copy and the parser's nodes alike", async (t) => {
  const parser = await loadPythonParser();
  const observer = await Deno.readTextFile(
    new URL("../run/pytest_plugin/pawl_observer.py", import.meta.url),
  );
  for (const [name, text] of Object.entries({ ...SOURCES, observer })) {
    await t.step(name, () => {
      const module = analyzePython(parser, text);
      assert.ok(module.functions.size > 0 || name === "observer");
      assert.deepStrictEqual(
        module,
        analyzePython(parser, text, { mirror: false }),
      );
    });
  }
});

Deno.test("mirrorTree() leaves a tree with a syntax error to the parser's nodes", async () => {
  const parser = await loadPythonParser();
  const text = "def test_broken(:\n    assert 1 ==\n";
  const tree = parser.parse(text);
  try {
    assert.equal(mirrorTree(tree, text), undefined);
  } finally {
    tree.delete();
  }
  const module = analyzePython(parser, text);
  assert.ok(module.syntaxError !== undefined);
  assert.deepStrictEqual(
    module,
    analyzePython(parser, text, { mirror: false }),
  );
});

Deno.test("mirrorTree() hands out children no caller can change for the next", async () => {
  const parser = await loadPythonParser();
  const text = "def test_a():\n    assert 1 == 1\n";
  const tree = parser.parse(text);
  try {
    const copy = mirrorTree(tree, text) as Node;
    assert.throws(() => (copy.children as Node[]).push(copy), TypeError);
    assert.throws(() => (copy.namedChildren as Node[]).pop(), TypeError);
    assert.equal(copy.namedChildren[0]?.type, "function_definition");
  } finally {
    tree.delete();
  }
});
