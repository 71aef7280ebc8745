import assert from "node:assert/strict";
import { openAnalysisCache } from "./analysis_cache.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";

const SOURCE = `import pytest
from hypothesis import given, strategies as st


@given(st.integers())
def test_roundtrip(x):
    assert int(str(x)) == x


class TestThing:
    def test_method(self):
        assert [1, 2] == [1, 2]
`;

async function withRoot(body: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-analysis-test-" });
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("an analysis kept is the analysis made, Maps and all, and only for the same bytes", async () => {
  await withRoot(async (root) => {
    const bytes = new TextEncoder().encode(SOURCE);
    const made = analyzePython(await loadPythonParser(), SOURCE);
    const cache = await openAnalysisCache(`${root}/cache`);
    assert.ok(cache !== undefined);
    assert.equal(await cache.get(bytes), undefined);
    cache.put(bytes, made);
    await cache.flush();
    // Another process's cache at the same place reads it.
    const again = await openAnalysisCache(`${root}/cache`);
    const kept = await again?.get(bytes);
    assert.deepStrictEqual(kept, made);
    assert.ok(kept?.functions instanceof Map);
    assert.equal(
      await again?.get(new TextEncoder().encode(`${SOURCE}\n`)),
      undefined,
    );
    // Root's alone, entries too.
    assert.equal((await Deno.stat(`${root}/cache`)).mode! & 0o777, 0o700);
  });
});

Deno.test("no analysis cache where others could write it, when asked for none, or for a relative path", async () => {
  await withRoot(async (root) => {
    const notes: string[] = [];
    const open = `${root}/open`;
    await Deno.mkdir(open, { mode: 0o755 });
    await Deno.chmod(open, 0o755);
    assert.equal(
      await openAnalysisCache(open, (n) => notes.push(n)),
      undefined,
    );
    assert.match(
      notes[0] ?? "",
      /analysis cache ".*\/open" is not used: others may enter it/,
    );
    const theirs = `${root}/theirs`;
    await Deno.mkdir(theirs, { mode: 0o700 });
    await Deno.chown(theirs, 64618, 64618);
    assert.equal(
      await openAnalysisCache(theirs, (n) => notes.push(n)),
      undefined,
    );
    assert.match(notes[1] ?? "", /owned by uid 64618/);
    assert.equal(await openAnalysisCache("off"), undefined);
    assert.equal(
      await openAnalysisCache("relative", (n) => notes.push(n)),
      undefined,
    );
    assert.match(notes[2] ?? "", /not an absolute path/);
  });
});

Deno.test("an entry that is not an analysis is a miss, not an error", async () => {
  await withRoot(async (root) => {
    const bytes = new TextEncoder().encode(SOURCE);
    const cache = await openAnalysisCache(`${root}/cache`);
    cache!.put(bytes, analyzePython(await loadPythonParser(), SOURCE));
    await cache!.flush();
    // Truncate every entry written.
    const walk = async (dir: string): Promise<void> => {
      for await (const e of Deno.readDir(dir)) {
        if (e.isDirectory) await walk(`${dir}/${e.name}`);
        else {await Deno.writeFile(
            `${dir}/${e.name}`,
            new Uint8Array([0xff, 1]),
          );}
      }
    };
    await walk(`${root}/cache`);
    assert.equal(await cache!.get(bytes), undefined);
  });
});
