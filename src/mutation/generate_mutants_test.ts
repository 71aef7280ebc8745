import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { generateMutants } from "./generate_mutants.ts";
import { applyMutant, type Mutant, renderMutantDiff } from "./mutant.ts";

const parser = await loadPythonParser();

function mutate(text: string, file = "pkg/m.py"): Mutant[] {
  return generateMutants(parser, file, text);
}

/** Each mutant as `operator: original -> replacement`. */
function summary(text: string): string[] {
  return mutate(text).map((m) =>
    `${m.operator}: ${JSON.stringify(m.original)} -> ${
      JSON.stringify(m.replacement)
    }`
  );
}

Deno.test("generateMutants() makes each operator's change", async (t) => {
  const cases: [string, string, string[]][] = [
    ["comparison flips", "def f(a, b):\n    return a < b\n", [
      'return: "" -> "return None\\n    "',
      'return: "a < b" -> "None"',
      'comparison: "<" -> "<="',
    ]],
    [
      "membership and identity flips",
      "def f(a, b):\n    return a not in b or a is None\n",
      [
        'return: "" -> "return None\\n    "',
        'return: "a not in b or a is None" -> "None"',
        'comparison: "not in" -> "in"',
        'boolean: "or" -> "and"',
        'comparison: "is" -> "is not"',
      ],
    ],
    ["arithmetic swaps and off-by-one", "def f(a):\n    a += 2\n", [
      'return: "" -> "return None\\n    "',
      'statement: "a += 2" -> "pass"',
      'arithmetic: "+=" -> "-="',
      'constant: "2" -> "1"',
      'constant: "2" -> "3"',
    ]],
    [
      "negated conditions, strings and booleans",
      'def f(a):\n    if a:\n        return "x"\n    return False\n',
      [
        'return: "" -> "return None\\n    "',
        'negate: "a" -> "not (a)"',
        'constant: "\\"x\\"" -> "\\"\\""',
        'return: "\\"x\\"" -> "None"',
        'constant: "False" -> "True"',
        'return: "False" -> "None"',
      ],
    ],
    ["changed slices", "def f(a):\n    return a[1:-1]\n", [
      'return: "" -> "return None\\n    "',
      'return: "a[1:-1]" -> "None"',
      'constant: "1" -> "0"',
      'constant: "1" -> "2"',
      'slice: "1" -> ""',
      'slice: "-1" -> ""',
      'constant: "1" -> "0"',
      'constant: "1" -> "2"',
    ]],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(summary(text), expected);
    });
  }
});

Deno.test("generateMutants() drops changes equivalent by construction", () => {
  const text = [
    "def f(a, p):",
    '    """Docstring stays."""',
    "    x = a[0:3:1] + 0",
    "    y = a * 1",
    "    return p and p",
    "",
  ].join("\n");
  const got = summary(text);
  assert.ok(!got.includes('slice: "0" -> ""'), got.join("\n"));
  assert.ok(!got.includes('slice: "1" -> ""'), got.join("\n"));
  assert.ok(!got.some((m) => m.startsWith("arithmetic:")), got.join("\n"));
  assert.ok(!got.some((m) => m.startsWith("boolean:")), got.join("\n"));
  assert.ok(!got.some((m) => m.includes("Docstring")), got.join("\n"));
  assert.ok(got.includes('slice: "3" -> ""'), got.join("\n"));
});

Deno.test("generateMutants() mutates only function bodies, by qualified name", () => {
  const text = [
    "LIMIT = 3",
    "class Box:",
    "    size = 1",
    "    def grow(self, n):",
    "        return self.size + n",
    "def helper(n=5):",
    "    return n - 1",
    "",
  ].join("\n");
  const all = mutate(text);
  assert.deepEqual([...new Set(all.map((m) => m.function))], [
    "Box.grow",
    "helper",
  ]);
  assert.ok(all.every((m) => m.line >= 5), "no module or class level change");
  const onlyHelper = generateMutants(parser, "m.py", text, {
    include: (q) => q === "helper",
    operators: ["arithmetic"],
  });
  assert.deepEqual(onlyHelper.map((m) => [m.line, m.replacement]), [[7, "+"]]);
});

Deno.test("generateMutants() ids are stable and every mutant parses and differs", () => {
  const text = [
    "def clamp(lo, hi, xs):",
    "    out = []",
    "    for x in xs[1:]:",
    "        if lo <= x and x < hi or not x:",
    "            out.append(x * 2 // 3)",
    "        elif x == 0:",
    "            raise ValueError('zero')",
    "    return out if out else None",
    "",
  ].join("\n");
  const first = mutate(text);
  const second = mutate(text);
  assert.deepEqual(first, second);
  assert.equal(new Set(first.map((m) => m.id)).size, first.length);
  assert.ok(first.length > 20, `${first.length} mutants`);
  for (const m of first) {
    const mutated = applyMutant(text, m);
    assert.notEqual(mutated, text, m.id);
    const tree = parser.parse(mutated);
    try {
      assert.equal(tree.rootNode.hasError, false, `${m.id}:\n${mutated}`);
    } finally {
      tree.delete();
    }
    assert.equal(text.slice(m.start, m.end), m.original);
  }
});

Deno.test("generateMutants() keeps a replacement from running into the word beside it", async (t) => {
  const cases: [string, string, string, string][] = [
    [
      "a negated while",
      "def f(a):\n    while(a):\n        a -= 1\n",
      "(a)",
      "while not ((a)):",
    ],
    [
      "a negated if",
      "def f(a):\n    if(a):\n        return 1\n",
      "(a)",
      "if not ((a)):",
    ],
    ["a returned None", "def f(a):\n    return(a)\n", "(a)", "return None\n"],
    [
      "a negated conditional",
      "def f(a):\n    return 1 if(a)else 2\n",
      "(a)",
      "1 if not ((a))else 2",
    ],
  ];
  for (const [name, text, original, expected] of cases) {
    await t.step(name, () => {
      const mutants = mutate(text);
      const changed = mutants.filter((m) => m.original === original);
      assert.ok(changed.length > 0);
      for (const m of changed) {
        assert.ok(
          applyMutant(text, m).includes(expected),
          applyMutant(text, m),
        );
      }
      // Python reads a word run into a keyword (`whilenot`) as a name.
      for (const m of mutants) {
        assert.doesNotMatch(
          applyMutant(text, m),
          /whilenot|ifnot|returnNone/,
        );
      }
    });
  }
});

Deno.test("generateMutants() takes no comment or line continuation for an operand", async (t) => {
  const cases: [string, string[], string, string[][]][] = [
    [
      "a conditional with a comment inside",
      [
        "def f(a):",
        "    return (",
        "        1  # one",
        "        if a",
        "        else 2",
        "    )",
      ],
      "negate",
      [["a", "not (a)"]],
    ],
    [
      "a returned value after a line continuation",
      ["def f(a):", "    x = 1", "    return \\", "        a"],
      "return",
      [["", "return None\n    "], ["a", "None"]],
    ],
    [
      "a slice bound after a line continuation",
      ["def f(a):", "    return a[:\\", "        b]"],
      "slice",
      [["b", ""]],
    ],
  ];
  for (const [name, lines, operator, expected] of cases) {
    await t.step(name, () => {
      const text = lines.join("\n") + "\n";
      const got = mutate(text).filter((m) => m.operator === operator);
      assert.deepEqual(got.map((m) => [m.original, m.replacement]), expected);
    });
  }
});

Deno.test("renderMutantDiff() shows the changed lines at file:line", () => {
  const text = "def f(a):\n    if a:\n        return 1\n";
  const m = mutate(text).find((x) => x.operator === "negate");
  assert.ok(m !== undefined);
  assert.equal(
    renderMutantDiff(text, m),
    [
      "--- pkg/m.py:2",
      `+++ pkg/m.py:2 (negate mutant ${m.id})`,
      "-    if a:",
      "+    if not (a):",
    ].join("\n"),
  );
});
