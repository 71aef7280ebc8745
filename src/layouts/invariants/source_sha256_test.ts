// Differential tests: pawl's seed 003 source hash must be byte-compatible
// with the seed's own checker, run by the real CPython.
import assert from "node:assert/strict";
import { analyzePython } from "../../python/analyze_python.ts";
import { loadPythonParser } from "../../python/load_python_parser.ts";
import type { PythonModule } from "../../python/python_module.ts";
import type { Tree, TreeEntry } from "../../git/git.ts";
import { registeredFunction } from "./registered_function.ts";
import { normalizeNewlines, sourceSha256 } from "./source_sha256.ts";

/**
 * The seed's `property_source_hash`, verbatim except that a missing
 * function is reported instead of exiting, plus the same slicing for
 * methods (what freezes use).
 */
const SEED_HASH_SCRIPT = `
import ast, hashlib, json, sys
from pathlib import Path

def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()

def property_source_hash(root: Path, module: str, function: str) -> str:
    rel = root / Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(rel.read_text(encoding="utf-8"), filename=str(rel))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            src = ast.get_source_segment(rel.read_text(encoding="utf-8"), node)
            if src is None:
                return "cannot slice"
            return sha256_bytes(src.encode("utf-8"))
    return "missing"

def method_source_hash(root: Path, file: str, cls: str, name: str) -> str:
    text = (root / file).read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == name:
                    return sha256_bytes(ast.get_source_segment(text, child).encode("utf-8"))
    return "missing"

request = json.loads(sys.stdin.read())
root = Path(request["root"])
print(json.dumps({
    "properties": [property_source_hash(root, m, f) for m, f in request["properties"]],
    "methods": [method_source_hash(root, f, c, n) for f, c, n in request["methods"]],
}))
`;

interface SeedHashes {
  properties: string[];
  methods: string[];
}

/** Run the seed's hashing on files written under a temporary root. */
async function seedHashes(
  files: Record<string, string>,
  request: {
    properties: [string, string][];
    methods?: [string, string, string][];
  },
): Promise<SeedHashes> {
  const root = await Deno.makeTempDir({ prefix: "pawl_seed003_" });
  try {
    for (const [path, text] of Object.entries(files)) {
      const full = `${root}/${path}`;
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), {
        recursive: true,
      });
      await Deno.writeTextFile(full, text);
    }
    const child = new Deno.Command("/usr/bin/python3", {
      args: ["-c", SEED_HASH_SCRIPT],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify({
      root,
      properties: request.properties,
      methods: request.methods ?? [],
    })));
    await writer.close();
    const output = await child.output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    return JSON.parse(new TextDecoder().decode(output.stdout));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A tree listing `paths` as regular files. */
function treeOf(paths: Iterable<string>): Tree {
  const tree = new Map<string, TreeEntry>();
  for (const path of paths) {
    tree.set(path, { path, kind: "file", oid: path, size: 1 });
  }
  return tree;
}

/** Analyse `files` as the shell would: decode UTF-8, parse every `.py`. */
async function analyse(
  files: Record<string, string>,
): Promise<Map<string, PythonModule>> {
  const parser = await loadPythonParser();
  const modules = new Map<string, PythonModule>();
  for (const [path, text] of Object.entries(files)) {
    // Round-trip through bytes, as the shell reads blobs.
    const decoded = new TextDecoder("utf-8", { fatal: true }).decode(
      new TextEncoder().encode(text),
    );
    if (path.endsWith(".py")) modules.set(path, analyzePython(parser, decoded));
  }
  return modules;
}

const CRLF = [
  "import hypothesis.strategies as st",
  "from hypothesis import given, settings",
  "",
  "@settings(",
  "    max_examples=200,",
  ")",
  "@given(st.text())  # decorators are not hashed",
  "def test_roundtrip(s):",
  "    # a comment inside the body",
  "    assert decode(encode(s)) == s  # trailing note",
  "    # a trailing comment, not part of the segment",
  "",
  "def test_second(x=1):",
  "\tassert x == 1",
  "",
].join("\r\n");

const LONE_CR = [
  "def test_cr():",
  "    total = 0",
  "    for i in range(3):",
  "        total += i",
  "    assert total == 3",
  "",
].join("\r");

const UNICODE = [
  "# -*- coding: utf-8 -*- — コメント",
  'GREETING = "héllo 🎉"',
  "",
  "def test_ünïcode(s='ß🎉'):",
  '    """Docstring with emoji 🎉 and CJK 漢字."""',
  '    assert len("🎉") == 1 and s != "x"  # 注释',
  "",
  "def test_after_emoji(): assert f('🎉🎉') == 2",
  "",
].join("\n");

const MIXED = [
  "import pytest",
  "",
  "async def test_async():",
  "    assert await thing()",
  "",
  "class TestThing:",
  "    @pytest.mark.slow",
  "    def test_method(self):",
  "        assert self.x == 1",
  "",
  "    async def test_async_method(self):",
  "        assert await self.y()",
  "",
  "def test_nested(",
  "    a,",
  "    b,",
  "):",
  "    def helper(x):",
  "        return x",
  "    value = helper(a) + \\",
  "        helper(b)",
  '    text = """line one',
  "line two",
  '"""',
  "    assert value == a + b and text",
  "            # deeper trailing comment",
  "",
  "\f",
  "def test_after_form_feed():",
  "    assert g() is not None",
  "",
  "def test_no_trailing_newline():",
  "    assert h() == 3",
].join("\n");

const SHADOWED = [
  "def test_twice():",
  "    assert strong_invariant()",
  "",
  "def test_twice():",
  "    assert True",
  "",
].join("\n");

const FILES: Record<string, string> = {
  "tests/properties/test_crlf.py": CRLF,
  "tests/properties/test_cr.py": LONE_CR,
  "tests/properties/test_unicode.py": UNICODE,
  "tests/properties/test_mixed.py": MIXED,
  "tests/properties/test_shadowed.py": SHADOWED,
};

/** [module, function] pairs the seed's checker finds. */
const FOUND: [string, string][] = [
  ["tests.properties.test_crlf", "test_roundtrip"],
  ["tests.properties.test_crlf", "test_second"],
  ["tests.properties.test_cr", "test_cr"],
  ["tests.properties.test_unicode", "test_ünïcode"],
  ["tests.properties.test_unicode", "test_after_emoji"],
  ["tests.properties.test_mixed", "test_nested"],
  ["tests.properties.test_mixed", "test_after_form_feed"],
  ["tests.properties.test_mixed", "test_no_trailing_newline"],
];

Deno.test("sourceSha256() matches the seed's checker on real Python files", async (t) => {
  const modules = await analyse(FILES);
  const tree = treeOf(Object.keys(FILES));
  const seed = await seedHashes(FILES, { properties: FOUND });
  for (const [index, [module, name]] of FOUND.entries()) {
    await t.step(`${module}:${name}`, () => {
      const found = registeredFunction({ module, function: name }, {
        tree,
        modules,
      });
      assert.equal(found.status, "ok");
      if (found.status !== "ok") return;
      assert.equal(found.fn.shadowedLines, undefined);
      const expected = seed.properties[index];
      assert.match(expected ?? "", /^[0-9a-f]{64}$/);
      assert.equal(sourceSha256(found.fn.source), expected);
    });
  }
});

Deno.test("registeredFunction() finds nothing where the seed's checker finds nothing", async (t) => {
  const modules = await analyse(FILES);
  const tree = treeOf(Object.keys(FILES));
  const cases: [string, string, string][] = [
    ["an async def", "test_async", "async"],
    ["a method of a class", "test_method", "test_missing"],
    ["a function nested in another", "helper", "test_missing"],
    ["a name that is not defined", "test_nothing", "test_missing"],
  ];
  const seed = await seedHashes(FILES, {
    properties: cases.map(([, name]) => ["tests.properties.test_mixed", name]),
  });
  for (const [index, [label, name, status]] of cases.entries()) {
    await t.step(label, () => {
      assert.equal(seed.properties[index], "missing");
      const found = registeredFunction(
        { module: "tests.properties.test_mixed", function: name },
        { tree, modules },
      );
      assert.equal(found.status, status);
    });
  }
});

Deno.test("sourceSha256() of a method matches CPython's slice, as freezes use it", async () => {
  const modules = await analyse(FILES);
  const file = "tests/properties/test_mixed.py";
  const seed = await seedHashes(FILES, {
    properties: [],
    methods: [
      [file, "TestThing", "test_method"],
      [file, "TestThing", "test_async_method"],
    ],
  });
  const functions = modules.get(file)?.functions;
  assert.equal(
    sourceSha256(functions?.get("TestThing.test_method")?.source ?? ""),
    seed.methods[0],
  );
  assert.equal(
    sourceSha256(functions?.get("TestThing.test_async_method")?.source ?? ""),
    seed.methods[1],
  );
});

Deno.test("a redefined property hashes its last definition while the seed's checker hashes the first", async () => {
  const modules = await analyse(FILES);
  const tree = treeOf(Object.keys(FILES));
  const module = "tests.properties.test_shadowed";
  const seed = await seedHashes(FILES, {
    properties: [[module, "test_twice"]],
  });
  const found = registeredFunction({ module, function: "test_twice" }, {
    tree,
    modules,
  });
  assert.equal(found.status, "ok");
  if (found.status !== "ok") return;
  assert.deepEqual(found.fn.shadowedLines, [1]);
  assert.equal(found.fn.line, 4);
  // The seed's hash covers the body that never runs; pawl's covers the one
  // pytest runs, and `property.shadowed` rejects the pull request anyway.
  assert.notEqual(sourceSha256(found.fn.source), seed.properties[0]);
  assert.equal(
    sourceSha256(found.fn.source),
    sourceSha256("def test_twice():\n    assert True"),
  );
});

Deno.test("normalizeNewlines() applies Python's universal newlines", () => {
  assert.equal(normalizeNewlines("a\r\nb\rc\nd\r\r\n"), "a\nb\nc\nd\n\n");
  assert.equal(normalizeNewlines("\u2028\f\v"), "\u2028\f\v");
});
