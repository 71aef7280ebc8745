import assert from "node:assert/strict";
import { loadPythonParser, PythonParser } from "./load_python_parser.ts";

Deno.test("loadPythonParser() loads the grammar once and shares the parser", async () => {
  const [first, second] = await Promise.all([
    loadPythonParser(),
    loadPythonParser(),
  ]);
  assert.ok(first instanceof PythonParser);
  assert.equal(first, second);
  assert.equal(await loadPythonParser(), first);
});

Deno.test("PythonParser.parse() reads Python source", async (t) => {
  const parser = await loadPythonParser();
  const cases: [string, string, { types: string[]; rows: number[] }][] = [
    ["LF line endings", "x = 1\ndef f():\n    pass\n", {
      types: ["expression_statement", "function_definition"],
      rows: [0, 1],
    }],
    ["CRLF line endings", "x = 1\r\ndef f():\r\n    pass\r\n", {
      types: ["expression_statement", "function_definition"],
      rows: [0, 1],
    }],
    ["lone carriage returns as line breaks", "x = 1\rdef f():\r    pass\r", {
      types: ["expression_statement", "function_definition"],
      rows: [0, 1],
    }],
  ];
  for (const [name, source, expected] of cases) {
    await t.step(name, () => {
      const tree = parser.parse(source);
      try {
        const statements = tree.rootNode.namedChildren.filter((node) =>
          node !== null
        );
        assert.equal(tree.rootNode.hasError, false);
        assert.deepEqual(statements.map((node) => node.type), expected.types);
        assert.deepEqual(
          statements.map((node) => node.startPosition.row),
          expected.rows,
        );
      } finally {
        tree.delete();
      }
    });
  }
});

Deno.test("PythonParser.parse() indexes the original string in UTF-16 code units", async () => {
  const parser = await loadPythonParser();
  const source = 's = "é😀"\ndef f(): pass\n';
  const tree = parser.parse(source);
  try {
    const def = tree.rootNode.namedChildren[1];
    assert.ok(def !== null && def !== undefined);
    assert.equal(source.slice(def.startIndex, def.endIndex), "def f(): pass");
  } finally {
    tree.delete();
  }
});

Deno.test("PythonParser.withTree() frees the tree after its user is done, whether it returned or threw", async (t) => {
  const freed: string[] = [];
  const parser = new PythonParser(
    {
      parse: (text: string) => ({
        rootNode: { text },
        delete: () => freed.push(text),
      }),
    } as unknown as ConstructorParameters<typeof PythonParser>[0],
  );
  await t.step("returned", () => {
    assert.equal(
      parser.withTree("x = 1\n", (tree) => tree.rootNode.text),
      "x = 1\n",
    );
    assert.deepEqual(freed, ["x = 1\n"]);
  });
  await t.step("threw", () => {
    assert.throws(
      () =>
        parser.withTree("y = 2\n", () => {
          throw new Error("no such function");
        }),
      /no such function/,
    );
    assert.deepEqual(freed, ["x = 1\n", "y = 2\n"]);
  });
  await t.step("the real parser hands a parsed tree", async () => {
    const real = await loadPythonParser();
    assert.equal(
      real.withTree(
        "def f():\n    pass\n",
        (tree) => tree.rootNode.child(0)?.type,
      ),
      "function_definition",
    );
  });
});
