// Differential test: `source`, `line` and `endLine` must match CPython's
// `ast` exactly, because seed 003 hashes `ast.get_source_segment` output.
import assert from "node:assert/strict";
import { analyzePython } from "./analyze_python.ts";
import { loadPythonParser } from "./load_python_parser.ts";

const PYTHON_SCRIPT = `
import ast, json, sys
sources = json.loads(sys.stdin.buffer.read().decode("utf-8"))
results = []
for src in sources:
    try:
        tree = ast.parse(src)
    except SyntaxError as error:
        results.append({"error": f"{error.msg} at {error.lineno}:{error.offset}"})
        continue
    functions = {}
    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[prefix + node.name] = {
                    "line": node.lineno,
                    "endLine": node.end_lineno,
                    "source": ast.get_source_segment(src, node),
                }
            elif isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")
    visit(tree.body, "")
    results.append({"functions": functions})
print(json.dumps(results))
`;

interface PythonView {
  error?: string;
  functions?: Record<string, { line: number; endLine: number; source: string }>;
}

async function cpythonView(sources: string[]): Promise<PythonView[]> {
  const child = new Deno.Command("/usr/bin/python3", {
    args: ["-c", PYTHON_SCRIPT],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(sources)));
  await writer.close();
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

/** Join lines with `\n`; a trailing newline is added. */
function lines(...rows: string[]): string {
  return rows.join("\n") + "\n";
}

const CORPUS: [string, string][] = [
  [
    "a plain function",
    lines("def test_a():", "    x = 1", "    assert x == 1"),
  ],
  [
    "stacked decorators, one spanning lines",
    lines(
      "import pytest",
      "@pytest.mark.parametrize(",
      '    "x", [1, 2],',
      ")",
      "@settings(max_examples=5)  # trailing note",
      "# a comment between decorators and def",
      "def test_b(x):",
      "    assert x",
    ),
  ],
  [
    "async def with a decorator",
    lines(
      "@deco",
      "async def test_c():",
      "    await thing()",
      "    assert True",
    ),
  ],
  [
    "methods, static methods and async methods",
    lines(
      "class TestThing(Base):",
      '    """Doc."""',
      "    attr = 1",
      "",
      "    def setUp(self):",
      "        self.x = 1",
      "",
      "    @staticmethod",
      "    def helper(a, b=':'):",
      "        return a",
      "",
      "    async def test_async(self):",
      "        self.assertEqual(self.x, 1)",
    ),
  ],
  [
    "a trailing comment at the body's indentation",
    lines("def test_d():", "    return 1", "    # trailing", "", "x = 2"),
  ],
  [
    "a trailing comment indented deeper than the body",
    lines(
      "def test_e():",
      "    if x:",
      "        y()",
      "            # deeper",
      "z = 1",
    ),
  ],
  [
    "a comment at column 0 after the body, then another function",
    lines(
      "def test_f():",
      "    a = 1",
      "# top-level comment",
      "",
      "def test_g():",
      "    pass",
    ),
  ],
  [
    "a column-0 comment between two statements of one body",
    lines(
      "def test_h():",
      "    a = 1",
      "# odd comment",
      "    b = 2",
      "    # end",
      "# after",
    ),
  ],
  [
    "blank and whitespace-only lines inside and after the body",
    lines(
      "def test_i():",
      "",
      "    a = 1",
      "    ",
      "",
      "    b = 2",
      "        ",
      "",
      "",
      "y = 3",
    ),
  ],
  [
    "unicode identifiers and strings",
    lines(
      "def tést_ünïcode():",
      '    s = "日本語 — ü"',
      "    assert len(s) == 6  # ½",
      "",
      "def test_after_unicode(): return 'é'",
    ),
  ],
  [
    "astral-plane characters before and inside the body",
    lines(
      'EMOJI = "😀😀"',
      "def test_emoji():",
      '    assert EMOJI != "🙃"  # 🙂',
      '    return "🎉"',
    ),
  ],
  [
    "CRLF line endings",
    [
      "import os",
      "def test_crlf():",
      "    a = 1",
      "    # comment",
      "    assert a",
      "",
      "class T:",
      "    def test_m(self): pass",
      "",
    ].join("\r\n"),
  ],
  [
    "mixed CRLF and LF",
    "def test_mix():\r\n    a = 1\n    b = 2\r\n\r\ndef test_after():\n    pass\r\n",
  ],
  [
    "lone carriage returns as line endings",
    "x = 1\rdef test_cr():\r    return 1\r\rdef test_cr2(): pass\r",
  ],
  [
    "tab indentation, with spaces on a nested level",
    "def test_tab():\n\tif x:\n\t    y = 1\n\telse:\n\t\ty = 2\n\treturn y\n\t# tail\n",
  ],
  ["a one-line def", lines("def test_one(): return 1")],
  [
    "a one-line def with semicolons and a comment",
    lines("def test_semi(): x = 1; y = 2;  # note", "def test_next(): pass;"),
  ],
  [
    "nested defs, with the body ending in a nested def",
    lines(
      "def test_outer():",
      "    def inner():",
      "        assert 1",
      "        # inner tail",
      "    inner()",
      "    def last():",
      "        return 2",
      "",
      "        # deeper tail",
      "    # outer tail",
    ),
  ],
  [
    "docstring-only bodies",
    lines(
      "def test_doc():",
      '    """Only a docstring."""',
      "",
      "def test_doc_multiline():",
      "    '''Line one.",
      "",
      "    # not a comment",
      "    '''",
      "    # a real comment",
    ),
  ],
  [
    "backslash continuations in the last statement",
    lines(
      "def test_cont():",
      "    total = 1 + \\",
      "        2 + \\",
      "        3",
      "z = 0",
    ),
  ],
  [
    "an if __name__ block after the tests",
    lines(
      "def test_main():",
      "    assert run() == 0",
      "",
      "",
      'if __name__ == "__main__":',
      "    test_main()",
    ),
  ],
  [
    "a body ending in if / elif / else",
    lines(
      "def test_branch(x):",
      "    if x > 1:",
      "        return 1",
      "    elif x:",
      "        return 2",
      "    else:",
      "        return 3  # three",
      "        # else tail",
    ),
  ],
  [
    "a body ending in try / except / else / finally",
    lines(
      "def test_try():",
      "    try:",
      "        f()",
      "    except (ValueError, TypeError) as e:",
      "        raise",
      "    else:",
      "        g()",
      "    finally:",
      "        cleanup()",
      "    # after finally",
    ),
  ],
  [
    "a body ending in for / else and while",
    lines(
      "def test_loop():",
      "    for i in range(3):",
      "        continue",
      "    else:",
      "        done = True",
      "    while done:",
      "        break",
    ),
  ],
  [
    "a body ending in async with and async for",
    lines(
      "async def test_async_blocks():",
      "    async with ctx() as c:",
      "        async for item in c:",
      "            await item",
    ),
  ],
  [
    "a body ending in a match statement",
    lines(
      "def test_match(cmd):",
      "    match cmd:",
      "        case [x, y]:",
      "            return x",
      "        case {'k': v} if v:",
      "            return v",
      "        case _:",
      "            pass",
      "            # wildcard tail",
    ),
  ],
  [
    "a multi-line call with a comment inside the parentheses",
    lines(
      "def test_call():",
      "    result = compute(",
      "        1,  # first",
      "        2,",
      "    )  # closing",
    ),
  ],
  [
    "a triple-quoted string holding a hash sign as the last statement",
    lines(
      "def test_str():",
      '    text = """',
      "    # not a comment",
      '    """',
    ),
  ],
  ["a form feed in the body", "def test_ff():\n\f    return 1\n"],
  [
    "a multi-line signature with annotations and defaults",
    lines(
      "def test_sig(",
      "    a: int,",
      '    b: str = "x:y",',
      "    *args,",
      "    **kwargs,",
      ") -> None:",
      "    ...",
    ),
  ],
  [
    "nested classes and a decorated class",
    lines(
      "@dataclass",
      "class Outer:",
      "    class Inner:",
      "        def test_deep(self):",
      "            assert self",
      "        # inner class tail",
      "    # outer class comment",
      "    def test_outer_method(self):",
      "        pass",
    ),
  ],
  [
    "a class-level comment between methods",
    lines(
      "class TestC:",
      "    def test_one(self):",
      "        x = 1",
      "# column-0 comment",
      "    # class-level comment",
      "    def test_two(self):",
      "        return 2",
    ),
  ],
  ["no trailing newline", "def test_eof():\n    return 1  # comment at EOF"],
  [
    "a body ending in a nested class and a lambda assignment",
    lines(
      "def test_nested_class():",
      "    f = lambda v: v + 1",
      "    class Local:",
      "        y = 2",
      "        # class tail",
    ),
  ],
  [
    "global, nonlocal, del and pass as last statements",
    lines(
      "def test_g():",
      "    global G",
      "    del G",
      "def test_n():",
      "    x = 1",
      "    def inner():",
      "        nonlocal x",
      "    pass",
    ),
  ],
  [
    "trailing whitespace after the last statement",
    "def test_ws():\n    a = 1   \n    b = 2\t \n   \nc = 3\n",
  ],
  [
    "a redefined test name",
    lines(
      "def test_twice():",
      "    assert f()",
      "",
      "def test_twice():",
      "    assert True",
    ),
  ],
  [
    "semicolons ending compound and simple bodies",
    lines(
      "def test_if():",
      "    if a: x = 1;",
      "def test_indented():",
      "    x = 1 ;  # spaced",
      "class T:",
      "    def test_m(self): pass; ",
    ),
  ],
  [
    "return of a parenthesised generator and a dict",
    lines(
      "def test_gen():",
      "    return (",
      "        x",
      "        for x in range(3)",
      "    ), {",
      "        'a': 1,",
      "    }",
    ),
  ],
];

Deno.test("analyzePython() source, line and endLine match CPython's ast.get_source_segment", async (t) => {
  const parser = await loadPythonParser();
  const expected = await cpythonView(CORPUS.map(([, source]) => source));
  for (const [index, [name, source]] of CORPUS.entries()) {
    await t.step(name, () => {
      const view = expected[index];
      assert.ok(
        view !== undefined && view.error === undefined,
        `CPython rejects: ${view?.error}`,
      );
      const functions = view.functions ?? {};
      assert.ok(
        Object.keys(functions).length > 0,
        "the snippet defines no function",
      );
      const module = analyzePython(parser, source);
      assert.equal(module.syntaxError, undefined);
      assert.deepEqual(
        [...module.functions.keys()].sort(),
        Object.keys(functions).sort(),
      );
      for (const [qualname, want] of Object.entries(functions)) {
        const got = module.functions.get(qualname);
        assert.ok(got !== undefined, qualname);
        assert.equal(got.source, want.source, `${qualname} source`);
        assert.equal(got.line, want.line, `${qualname} line`);
        assert.equal(got.endLine, want.endLine, `${qualname} endLine`);
      }
    });
  }
});

/** Deterministic pseudo-random integers below `n` (mulberry32). */
function randomSource(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6D2B79F5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Simple statements; `{i}` is the indentation of continuation lines. */
const SIMPLE = [
  "x = 1",
  "y = 'é😀'",
  "assert x == 1, 'm'",
  "return x",
  "pass",
  "...",
  "f(a,\n{i}    b)",
  "s = '''a\n# not\n'''",
  "z = (1 +\n{i}     2)  # c",
  "t = 1 + \\\n{i}    2",
  "del x",
  "await g()",
  "x = [\n{i}  1,\n{i}]",
  "raise E",
  '"""doc"""',
  "x = 1; y = 2",
  "x = 1;",
  "x = 1 ;",
  "lambda: 0",
];
const ONE_LINE = SIMPLE.filter((statement) => !statement.includes("\n"));
const HEADS = [
  "if a:",
  "for i in x:",
  "while a:",
  "with c() as d:",
  "def inner():",
  "class K:",
];

function generateModule(random: (n: number) => number): string {
  const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
  const unit = pick(["    ", "  ", "\t"]);
  const comment = (indent: string) =>
    pick(["", "  ", indent, `${indent}    `, `${indent}\t`]) +
    pick(["# c", "# é", "# 😀"]);
  const body = (indent: string, depth: number): string[] => {
    const out: string[] = [];
    for (let k = 0, n = 1 + random(3); k < n; k++) {
      if (depth > 2 || random(2) === 0) {
        out.push(
          indent + pick(SIMPLE).replaceAll("{i}", indent) +
            pick(["", "", "  # t"]),
        );
      } else if (random(4) === 0) {
        out.push(`${indent}${pick(HEADS)} ${pick(ONE_LINE)}`);
      } else {
        const head = pick([...HEADS, "try:"]);
        out.push(indent + head, ...body(indent + unit, depth + 1));
        if (head === "try:") {
          out.push(
            indent + pick(["except E:", "finally:"]),
            ...body(indent + unit, depth + 1),
          );
        } else if (head === "if a:" && random(2) === 0) {
          out.push(`${indent}else:`, ...body(indent + unit, depth + 1));
        }
      }
      if (random(3) === 0) out.push(comment(indent));
      if (random(4) === 0) out.push(pick(["", "   ", "\t"]));
    }
    return out;
  };
  const rows: string[] = [];
  for (let k = 0, n = 1 + random(4); k < n; k++) {
    const kind = random(6);
    if (kind === 0) {
      rows.push(`class C${k}:`);
      for (let m = 0, methods = 1 + random(2); m < methods; m++) {
        if (random(2) === 0) rows.push(`${unit}@staticmethod`);
        rows.push(
          `${unit}${pick(["def", "async def"])} m${m}(self):`,
          ...body(unit + unit, 1),
        );
        if (random(2) === 0) rows.push(comment(unit));
      }
    } else if (kind === 1) {
      rows.push(
        pick([
          "x = 1",
          "# top",
          "",
          `if __name__ == '__main__':\n${unit}main()`,
        ]),
      );
    } else {
      if (random(2) === 0) {
        rows.push(`@deco${pick(["", "(1,\n  2)"])}${pick(["", "  # d"])}`);
      }
      const def = pick(["def", "async def"]);
      if (random(4) === 0) {
        rows.push(
          `${def} f${k}(): ${
            pick(["return 1", "x = 1; y = 2;", "pass  # c", "'doc'"])
          }`,
        );
      } else {
        rows.push(`${def} f${k}(a,\n    b=':'):`, ...body(unit, 0));
      }
    }
    if (random(3) === 0) rows.push(comment(unit));
  }
  const eol = pick(["\n", "\r\n", "\r", "mixed"]);
  if (eol === "mixed") {
    return rows.map((row) => row + pick(["\n", "\r\n"])).join("");
  }
  return rows.join("\n").replaceAll("\n", eol) + pick(["", eol, eol]);
}

Deno.test("analyzePython() matches CPython on 400 generated modules", async () => {
  const parser = await loadPythonParser();
  const random = randomSource(20240611);
  const sources = Array.from({ length: 400 }, () => generateModule(random));
  const expected = await cpythonView(sources);
  let compared = 0;
  for (const [index, source] of sources.entries()) {
    const view = expected[index];
    assert.ok(
      view?.functions !== undefined,
      `CPython rejects ${JSON.stringify(source)}`,
    );
    const module = analyzePython(parser, source);
    assert.equal(module.syntaxError, undefined, JSON.stringify(source));
    for (const [qualname, want] of Object.entries(view.functions)) {
      const got = module.functions.get(qualname);
      const context = `${qualname} in ${JSON.stringify(source)}`;
      assert.deepEqual(
        got && { line: got.line, endLine: got.endLine, source: got.source },
        want,
        context,
      );
      compared++;
    }
  }
  assert.ok(compared >= 400, `only ${compared} functions compared`);
});
