// Differential test: seed 003's checker, run by CPython, must compute the
// very source_sha256 values `pawl propose --layout 003` writes.
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { sourceSha256 } from "../layouts/invariants/source_sha256.ts";
import { buildProposal } from "./build_proposal.ts";
import { COMMIT } from "./_testing.ts";
import type { TreeEntry } from "../git/git.ts";

/** `property_source_hash` from seed 003, verbatim, driven by argv. */
const SEED_003_CHECKER = `
import ast, hashlib, json, sys
from pathlib import Path

def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()

def property_source_hash(root: Path, module: str, function: str) -> str:
    rel = Path(*module.split(".")).with_suffix(".py")
    tree = ast.parse(rel.read_text(encoding="utf-8"), filename=str(rel))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            src = ast.get_source_segment(rel.read_text(encoding="utf-8"), node)
            if src is None:
                raise SystemExit(f"cannot slice {module}:{function}")
            return sha256_bytes(src.encode("utf-8"))
    raise SystemExit(f"missing property {module}:{function}")

names = json.loads(sys.argv[1])
print(json.dumps({name: property_source_hash(Path("."), "tests.test_mixed", name) for name in names}))
`;

/** A test module with CRLF and lone CR line ends, tabs, and non-ASCII text. */
const SOURCE = [
  "# -*- coding: utf-8 -*-\r\n",
  "from hypothesis import given, settings, strategies as st\r\n",
  "\r\n",
  "\r\n",
  "@settings(max_examples=30)  # Größe\r\n",
  "@given(st.text())\r\n",
  "def test_unicode(s):\r\n",
  '    label = "日本語 — café 🎉"\r\n',
  "    assert (label + s).startswith(label)  # ✓\r\n",
  "\r\n",
  "\r\n",
  "@given(st.integers(),\r\n",
  "       st.integers())\r\n",
  "def test_multiline(a,\r\n",
  "                   b):\r\n",
  '    """Docstring with ünïcode\r\n',
  '    over two lines."""\r\n',
  "    total = (a +\r\n",
  "\t\t b)\r\n",
  "    assert total == b + a\r\n",
  "\r\n",
  "@given(st.integers())\r",
  "def test_lone_cr(n):\r",
  "    assert n * 0 == 0\r",
  "\r\n",
  "@given(st.integers())\n",
  "def test_last(n): assert n == n + 0",
].join("");

const NAMES = ["test_unicode", "test_multiline", "test_lone_cr", "test_last"];

async function seedChecker(dir: string): Promise<Record<string, string>> {
  const output = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", SEED_003_CHECKER, JSON.stringify(NAMES)],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test(
  "buildProposal() writes the source_sha256 seed 003's checker computes under /usr/bin/python3",
  async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "pawl-propose-hash-" });
    try {
      const bytes = new TextEncoder().encode(SOURCE);
      await Deno.mkdir(`${dir}/tests`);
      await Deno.writeFile(`${dir}/tests/test_mixed.py`, bytes);
      const expected = await seedChecker(dir);
      assert.deepEqual(Object.keys(expected), NAMES);
      const module = analyzePython(
        await loadPythonParser(),
        new TextDecoder().decode(bytes),
      );

      await t.step("for each function's source segment", () => {
        // The hash pawl's own 003 checker compares against, too.
        for (const name of NAMES) {
          const fn = module.functions.get(name);
          assert.ok(fn, `no function ${name}`);
          assert.equal(sourceSha256(fn.source), expected[name], name);
        }
      });

      await t.step("in the invariants.toml that buildProposal writes", () => {
        const path = "tests/test_mixed.py";
        const entry = (
          p: string,
          kind: TreeEntry["kind"],
        ): [string, TreeEntry] => [
          p,
          { path: p, kind, oid: "a".repeat(40), size: bytes.length },
        ];
        const proposal = buildProposal({
          commit: COMMIT,
          tree: new Map([entry("tests", "tree"), entry(path, "file")]),
          modules: new Map([[path, module]]),
          fixtureDigests: new Map(),
        }, { layout: "003" });
        const toml = parseToml(proposal.files[0]!.text) as {
          property: { function: string; source_sha256: string }[];
        };
        assert.deepEqual(
          Object.fromEntries(
            toml.property.map((p) => [p.function, p.source_sha256]),
          ),
          expected,
        );
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
