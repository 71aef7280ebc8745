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

Deno.test("generateMutants() leaves a class body unmutated inside a function too, and mutates its methods as their own functions", () => {
  const text = [
    "def make(n):",
    "    class Box:",
    "        size = 1",
    "        def grow(self):",
    "            return self.size + n",
    "    return Box",
    "",
  ].join("\n");
  const all = mutate(text);
  assert.deepEqual([...new Set(all.map((m) => m.function))].sort(), [
    "make",
    "make.Box.grow",
  ]);
  assert.ok(all.every((m) => m.line !== 3), "no class level change");
  assert.ok(
    all.filter((m) => m.line === 5).every((m) =>
      m.function === "make.Box.grow"
    ),
  );
});

Deno.test("generateMutants() adds no space beside a replacement that starts or ends with no word character", () => {
  const mutants = generateMutants(
    parser,
    "m.py",
    "def f(a, b):\n    return a<b\n",
    {
      operators: ["comparison"],
    },
  );
  assert.deepEqual(mutants.map((m) => m.replacement), ["<="]);
});

Deno.test("generateMutants() orders the changes of one place by their replacement's text", () => {
  // 10 is made 9 before 11, and listed "11" before "9".
  assert.deepEqual(
    summary("def f(a):\n    return a + 10\n")
      .filter((m) => m.startsWith("constant")),
    ['constant: "10" -> "11"', 'constant: "10" -> "9"'],
  );
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
    [
      "an integer before a keyword",
      "def f(a):\n    return 1if a else 2\n",
      "1",
      " if a else 2",
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

Deno.test("generateMutants() makes exactly these changes, at these places", async (t) => {
  const cases: [string, string, string[]][] = [
    [
      "every comparison flips to its twin",
      "def f(a, b):\n    return a > b, a >= b, a == b, a != b, a in b, a is not b, a <= b\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:69 return: "a > b, a >= b, a == b, a != b, a in b, a is not b, a <= b" -> "None"',
        'f 2:14-2:15 comparison: ">" -> ">="',
        'f 2:21-2:23 comparison: ">=" -> ">"',
        'f 2:29-2:31 comparison: "==" -> "!="',
        'f 2:37-2:39 comparison: "!=" -> "=="',
        'f 2:45-2:47 comparison: "in" -> "not in"',
        'f 2:53-2:59 comparison: "is not" -> "is"',
        'f 2:65-2:67 comparison: "<=" -> "<"',
      ],
    ],
    [
      "every arithmetic operator swaps; matrix product is left alone",
      "def f(a, b):\n    return a - b, a * b, a / b, a // b, a % b, a ** b, a << b, a >> b, a & b, a | b, a ^ b, a @ b\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:98 return: "a - b, a * b, a / b, a // b, a % b, a ** b, a << b, a >> b, a & b, a | b, a ^ b, a @ b" -> "None"',
        'f 2:14-2:15 arithmetic: "-" -> "+"',
        'f 2:21-2:22 arithmetic: "*" -> "/"',
        'f 2:28-2:29 arithmetic: "/" -> "*"',
        'f 2:35-2:37 arithmetic: "//" -> "/"',
        'f 2:43-2:44 arithmetic: "%" -> "//"',
        'f 2:50-2:52 arithmetic: "**" -> "*"',
        'f 2:58-2:60 arithmetic: "<<" -> ">>"',
        'f 2:66-2:68 arithmetic: ">>" -> "<<"',
        'f 2:74-2:75 arithmetic: "&" -> "|"',
        'f 2:81-2:82 arithmetic: "|" -> "&"',
        'f 2:88-2:89 arithmetic: "^" -> "&"',
      ],
    ],
    [
      "augmented assignments swap, except by zero or one and **=",
      "def f(a):\n    a -= 2\n    a *= 2\n    a /= 2\n    a //= 2\n    a %= 2\n    a **= 2\n    a -= 0\n    a *= 1\n    a /= 1\n    a += 0_0\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:5-2:11 statement: "a -= 2" -> "pass"',
        'f 2:7-2:9 arithmetic: "-=" -> "+="',
        'f 2:10-2:11 constant: "2" -> "1"',
        'f 2:10-2:11 constant: "2" -> "3"',
        'f 3:5-3:11 statement: "a *= 2" -> "pass"',
        'f 3:7-3:9 arithmetic: "*=" -> "/="',
        'f 3:10-3:11 constant: "2" -> "1"',
        'f 3:10-3:11 constant: "2" -> "3"',
        'f 4:5-4:11 statement: "a /= 2" -> "pass"',
        'f 4:7-4:9 arithmetic: "/=" -> "*="',
        'f 4:10-4:11 constant: "2" -> "1"',
        'f 4:10-4:11 constant: "2" -> "3"',
        'f 5:5-5:12 statement: "a //= 2" -> "pass"',
        'f 5:7-5:10 arithmetic: "//=" -> "/="',
        'f 5:11-5:12 constant: "2" -> "1"',
        'f 5:11-5:12 constant: "2" -> "3"',
        'f 6:5-6:11 statement: "a %= 2" -> "pass"',
        'f 6:7-6:9 arithmetic: "%=" -> "//="',
        'f 6:10-6:11 constant: "2" -> "1"',
        'f 6:10-6:11 constant: "2" -> "3"',
        'f 7:5-7:12 statement: "a **= 2" -> "pass"',
        'f 7:11-7:12 constant: "2" -> "1"',
        'f 7:11-7:12 constant: "2" -> "3"',
        'f 8:5-8:11 statement: "a -= 0" -> "pass"',
        'f 8:10-8:11 constant: "0" -> "1"',
        'f 9:5-9:11 statement: "a *= 1" -> "pass"',
        'f 9:10-9:11 constant: "1" -> "0"',
        'f 9:10-9:11 constant: "1" -> "2"',
        'f 10:5-10:11 statement: "a /= 1" -> "pass"',
        'f 10:10-10:11 constant: "1" -> "0"',
        'f 10:10-10:11 constant: "1" -> "2"',
        'f 11:5-11:13 statement: "a += 0_0" -> "pass"',
        'f 11:10-11:13 constant: "0_0" -> "1"',
      ],
    ],
    [
      "adding or taking one and multiplying or dividing by zero still swap",
      "def f(a):\n    a += 1\n    a -= 1\n    a *= 0\n    a /= 0\n    return a * 0, a / 0, a + 1\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:5-2:11 statement: "a += 1" -> "pass"',
        'f 2:7-2:9 arithmetic: "+=" -> "-="',
        'f 2:10-2:11 constant: "1" -> "0"',
        'f 2:10-2:11 constant: "1" -> "2"',
        'f 3:5-3:11 statement: "a -= 1" -> "pass"',
        'f 3:7-3:9 arithmetic: "-=" -> "+="',
        'f 3:10-3:11 constant: "1" -> "0"',
        'f 3:10-3:11 constant: "1" -> "2"',
        'f 4:5-4:11 statement: "a *= 0" -> "pass"',
        'f 4:7-4:9 arithmetic: "*=" -> "/="',
        'f 4:10-4:11 constant: "0" -> "1"',
        'f 5:5-5:11 statement: "a /= 0" -> "pass"',
        'f 5:7-5:9 arithmetic: "/=" -> "*="',
        'f 5:10-5:11 constant: "0" -> "1"',
        'f 6:12-6:31 return: "a * 0, a / 0, a + 1" -> "None"',
        'f 6:14-6:15 arithmetic: "*" -> "/"',
        'f 6:16-6:17 constant: "0" -> "1"',
        'f 6:21-6:22 arithmetic: "/" -> "*"',
        'f 6:23-6:24 constant: "0" -> "1"',
        'f 6:28-6:29 arithmetic: "+" -> "-"',
        'f 6:30-6:31 constant: "1" -> "0"',
        'f 6:30-6:31 constant: "1" -> "2"',
      ],
    ],
    [
      "integers move by one, never below zero; floats and other bases stay",
      "def f(a):\n    return a - 0, a / 1, a * 2, 0, 1_000, 0x10, 1.5, True, not a\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:65 return: "a - 0, a / 1, a * 2, 0, 1_000, 0x10, 1.5, True, not a" -> "None"',
        'f 2:16-2:17 constant: "0" -> "1"',
        'f 2:23-2:24 constant: "1" -> "0"',
        'f 2:23-2:24 constant: "1" -> "2"',
        'f 2:28-2:29 arithmetic: "*" -> "/"',
        'f 2:30-2:31 constant: "2" -> "1"',
        'f 2:30-2:31 constant: "2" -> "3"',
        'f 2:33-2:34 constant: "0" -> "1"',
        'f 2:36-2:41 constant: "1_000" -> "1001"',
        'f 2:36-2:41 constant: "1_000" -> "999"',
        'f 2:54-2:58 constant: "True" -> "False"',
        'f 2:60-2:65 boolean: "not a" -> "a"',
      ],
    ],
    [
      "strings are emptied or filled, bytes stay bytes; implicit concatenations stay",
      'def f():\n    return b"", b"x", "", "a" "b", rb"x", f"{1}"\n',
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:15 constant: "b\\"\\"" -> "b\\"pawl\\""',
        'f 2:12-2:49 return: "b\\"\\", b\\"x\\", \\"\\", \\"a\\" \\"b\\", rb\\"x\\", f\\"{1}\\"" -> "None"',
        'f 2:17-2:21 constant: "b\\"x\\"" -> "b\\"\\""',
        'f 2:23-2:25 constant: "\\"\\"" -> "\\"pawl\\""',
        'f 2:36-2:41 constant: "rb\\"x\\"" -> "b\\"\\""',
        'f 2:43-2:49 constant: "f\\"{1}\\"" -> "\\"\\""',
        'f 2:46-2:47 constant: "1" -> "0"',
        'f 2:46-2:47 constant: "1" -> "2"',
      ],
    ],
    [
      "after the docstring, a None return and trivial bodies are left alone",
      'def f(a):\n    """Doc."""\n    x = 1\n    return None\ndef g(a):\n    pass\ndef h(a):\n    ...\ndef i(a):\n    return\ndef j(a):\n    """Doc."""\n',
      [
        'f 3:5-3:5 return: "" -> "return None\\n    "',
        'f 3:5-3:10 statement: "x = 1" -> "pass"',
        'f 3:9-3:10 constant: "1" -> "0"',
        'f 3:9-3:10 constant: "1" -> "2"',
      ],
    ],
    [
      "only expression, raise, assert and del statements give way to pass",
      'def f(a):\n    print(a)\n    raise E\n    assert a\n    del a\n    pass\n    ...\n    x = 1\n    "doc"\n',
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:5-2:13 statement: "print(a)" -> "pass"',
        'f 3:5-3:12 statement: "raise E" -> "pass"',
        'f 4:5-4:13 statement: "assert a" -> "pass"',
        'f 5:5-5:10 statement: "del a" -> "pass"',
        'f 8:5-8:10 statement: "x = 1" -> "pass"',
        'f 8:9-8:10 constant: "1" -> "0"',
        'f 8:9-8:10 constant: "1" -> "2"',
      ],
    ],
    [
      "nested and decorated functions are mutated once, under their own names",
      "class C:\n    def m(self):\n        def inner():\n            return 1\n        return 2\n    @property\n    def p(self):\n        return 3\n\n@deco\ndef g():\n    if x:\n        def h():\n            return 4\n    return 5\n",
      [
        'C.m 3:9-3:9 return: "" -> "return None\\n        "',
        'C.m.inner 4:13-4:13 return: "" -> "return None\\n            "',
        'C.m.inner 4:20-4:21 constant: "1" -> "0"',
        'C.m.inner 4:20-4:21 constant: "1" -> "2"',
        'C.m.inner 4:20-4:21 return: "1" -> "None"',
        'C.m 5:16-5:17 constant: "2" -> "1"',
        'C.m 5:16-5:17 constant: "2" -> "3"',
        'C.m 5:16-5:17 return: "2" -> "None"',
        'C.p 8:9-8:9 return: "" -> "return None\\n        "',
        'C.p 8:16-8:17 constant: "3" -> "2"',
        'C.p 8:16-8:17 constant: "3" -> "4"',
        'C.p 8:16-8:17 return: "3" -> "None"',
        'g 12:5-12:5 return: "" -> "return None\\n    "',
        'g 12:8-12:9 negate: "x" -> "not (x)"',
        'g.h 14:13-14:13 return: "" -> "return None\\n            "',
        'g.h 14:20-14:21 constant: "4" -> "3"',
        'g.h 14:20-14:21 constant: "4" -> "5"',
        'g.h 14:20-14:21 return: "4" -> "None"',
        'g 15:12-15:13 constant: "5" -> "4"',
        'g 15:12-15:13 constant: "5" -> "6"',
        'g 15:12-15:13 return: "5" -> "None"',
      ],
    ],
    [
      "conditions are negated; slice bounds dropped unless the default",
      "def f(a):\n    while a > 0:\n        a = a[::2] + a[None:1] + a[0:] + a[:0] + a[1::1]\n    return a if a else b\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:11-2:16 negate: "a > 0" -> "not (a > 0)"',
        'f 2:13-2:14 comparison: ">" -> ">="',
        'f 2:15-2:16 constant: "0" -> "1"',
        'f 3:9-3:57 statement: "a = a[::2] + a[None:1] + a[0:] + a[:0] + a[1::1]" -> "pass"',
        'f 3:17-3:18 constant: "2" -> "1"',
        'f 3:17-3:18 constant: "2" -> "3"',
        'f 3:17-3:18 slice: "2" -> ""',
        'f 3:20-3:21 arithmetic: "+" -> "-"',
        'f 3:29-3:30 constant: "1" -> "0"',
        'f 3:29-3:30 constant: "1" -> "2"',
        'f 3:29-3:30 slice: "1" -> ""',
        'f 3:32-3:33 arithmetic: "+" -> "-"',
        'f 3:36-3:37 constant: "0" -> "1"',
        'f 3:40-3:41 arithmetic: "+" -> "-"',
        'f 3:45-3:46 constant: "0" -> "1"',
        'f 3:45-3:46 slice: "0" -> ""',
        'f 3:48-3:49 arithmetic: "+" -> "-"',
        'f 3:52-3:53 constant: "1" -> "0"',
        'f 3:52-3:53 constant: "1" -> "2"',
        'f 3:52-3:53 slice: "1" -> ""',
        'f 3:55-3:56 constant: "1" -> "0"',
        'f 3:55-3:56 constant: "1" -> "2"',
        'f 4:12-4:25 return: "a if a else b" -> "None"',
        'f 4:17-4:18 negate: "a" -> "not (a)"',
      ],
    ],
    [
      "if and elif conditions are negated, not and and flip",
      "def f(a):\n    if a:\n        pass\n    elif b:\n        pass\n    return not a and a\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:8-2:9 negate: "a" -> "not (a)"',
        'f 4:10-4:11 negate: "b" -> "not (b)"',
        'f 6:12-6:17 boolean: "not a" -> "a"',
        'f 6:12-6:23 return: "not a and a" -> "None"',
        'f 6:18-6:21 boolean: "and" -> "or"',
      ],
    ],
    [
      "a string beside other expressions is no docstring",
      'def f(a):\n    "a", g(a)\n',
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:5-2:14 statement: "\\"a\\", g(a)" -> "pass"',
      ],
    ],
    [
      "no early return where the body shares the def's line",
      "def f(a): return a + 1\n",
      [
        'f 1:18-1:23 return: "a + 1" -> "None"',
        'f 1:20-1:21 arithmetic: "+" -> "-"',
        'f 1:22-1:23 constant: "1" -> "0"',
        'f 1:22-1:23 constant: "1" -> "2"',
      ],
    ],
    [
      "the early return goes before the first statement, not a comment",
      "def f(a):\n    # why\n    return a\n",
      [
        'f 3:5-3:5 return: "" -> "return None\\n    "',
        'f 3:12-3:13 return: "a" -> "None"',
      ],
    ],
    [
      "a nested decorated function's decorator is left alone",
      "def g():\n    @deco(1)\n    def h():\n        return 2\n    return h\n",
      [
        'g 2:5-2:5 return: "" -> "return None\\n    "',
        'g.h 4:9-4:9 return: "" -> "return None\\n        "',
        'g.h 4:16-4:17 constant: "2" -> "1"',
        'g.h 4:16-4:17 constant: "2" -> "3"',
        'g.h 4:16-4:17 return: "2" -> "None"',
        'g 5:12-5:13 return: "h" -> "None"',
      ],
    ],
    [
      "an upper-case bytes prefix stays bytes",
      'def f():\n    return B"x", Rb""\n',
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:16 constant: "B\\"x\\"" -> "b\\"\\""',
        'f 2:12-2:22 return: "B\\"x\\", Rb\\"\\"" -> "None"',
        'f 2:18-2:22 constant: "Rb\\"\\"" -> "b\\"pawl\\""',
      ],
    ],
    [
      "a returned string is no docstring",
      'def f(a):\n    return "x"\n',
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:15 constant: "\\"x\\"" -> "\\"\\""',
        'f 2:12-2:15 return: "\\"x\\"" -> "None"',
      ],
    ],
    [
      "a number that only starts or ends with zero is no zero",
      "def f(a):\n    return a - 0.5, a + 10, a[0o1:]\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:12-2:36 return: "a - 0.5, a + 10, a[0o1:]" -> "None"',
        'f 2:14-2:15 arithmetic: "-" -> "+"',
        'f 2:23-2:24 arithmetic: "+" -> "-"',
        'f 2:25-2:27 constant: "10" -> "11"',
        'f 2:25-2:27 constant: "10" -> "9"',
        'f 2:31-2:34 slice: "0o1" -> ""',
      ],
    ],
    [
      "the early return takes the indentation of a one-character statement",
      "def f(a):\n    a\n",
      [
        'f 2:5-2:5 return: "" -> "return None\\n    "',
        'f 2:5-2:6 statement: "a" -> "pass"',
      ],
    ],
    [
      "an implicitly concatenated docstring is skipped too",
      'def f():\n    "a" "b"\n    x = 1\n',
      [
        'f 3:5-3:5 return: "" -> "return None\\n    "',
        'f 3:5-3:10 statement: "x = 1" -> "pass"',
        'f 3:9-3:10 constant: "1" -> "0"',
        'f 3:9-3:10 constant: "1" -> "2"',
      ],
    ],
    [
      "a body that only returns None is left alone",
      "def f(a):\n    return None\n",
      [],
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(
        mutate(text, "m.py").map((m) =>
          `${m.function} ${m.line}:${m.column}-${m.endLine}:${m.endColumn} ${m.operator}: ${
            JSON.stringify(m.original)
          } -> ${JSON.stringify(m.replacement)}`
        ),
        expected,
      );
    });
  }
});

Deno.test("generateMutants() names a mutant by a digest of its file, place and replacement", () => {
  const [m] = mutate("def f(a, b):\n    return a < b\n").filter((x) =>
    x.operator === "comparison"
  );
  // "m" and the first 12 hex digits of sha256 of ["pkg/m.py",26,27,"<="].
  assert.equal(m?.id, "m5923067186c2");
  assert.deepEqual([m?.start, m?.end], [26, 27]);
});

Deno.test("generateMutants() places a change over several lines from its first line to its last", () => {
  const text =
    "def f(a, b):\n    if (a and\n            b):\n        return 1\n";
  const negated = mutate(text).filter((m) => m.operator === "negate");
  assert.deepEqual(
    negated.map((m) => [m.line, m.column, m.endLine, m.endColumn]),
    [[2, 8, 3, 15]],
  );
});

Deno.test("generateMutants() counts lines from the top of the file and puts the early return before the first statement, past any comment", async (t) => {
  const cases: [string, string, number[][]][] = [
    ["a blank first line", "\ndef f(a):\n    return a\n", [[3, 5], [3, 12]]],
    [
      "a comment after the docstring",
      'def f(a):\n    """Doc."""\n    # why\n    return a\n',
      [[4, 5], [4, 12]],
    ],
    [
      "a comment between statements",
      "def f(a):\n    # why\n    return a\n",
      [[3, 5], [3, 12]],
    ],
  ];
  for (const [name, text, expected] of cases) {
    await t.step(name, () => {
      const got = mutate(text).filter((m) => m.operator === "return");
      assert.deepEqual(got.map((m) => [m.line, m.column]), expected);
    });
  }
});

Deno.test("generateMutants() places a change on a file's last line when the file does not end in a newline, and after a one-character first line", () => {
  const text = "a\ndef f(x):\n    return x < 1";
  const places = mutate(text).filter((m) => m.operator === "comparison")
    .map((m) => [m.line, m.column, m.endLine, m.endColumn]);
  assert.ok(places.length > 0);
  for (const place of places) assert.deepEqual(place, [3, 14, 3, 15]);
});
