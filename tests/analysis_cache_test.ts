/**
 * The runner's cache of Python analyses end to end: `pawl diff` gives the
 * same verdict bytes with no cache, filling it, and reading what an earlier
 * judgement kept, on an accept and on a reject its analyses decide.
 */
import assert from "node:assert/strict";
import { check } from "./_cli.ts";
import { buildRepo, edit } from "./_repo.ts";

const HEADS = {
  "analysis/honest": {
    "tests/test_misc.py": "def test_misc():\n    assert 2 + 2 == 4\n",
  },
  // The property's assertion made vacuous: the static rules reject it.
  "analysis/vacuous": {
    "tests/properties/test_codec.py": edit(
      "assert parse_invoice(obj.to_bytes()) == obj",
      "assert obj == obj",
    ),
  },
};

Deno.test("pawl diff gives the same verdict bytes without the analysis cache, filling it, and reading it", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl-analysis-e2e-" });
  try {
    await using repo = await buildRepo({ heads: HEADS });
    const cache = `${root}/cache`;
    for (
      const [head, decision] of [
        ["analysis/honest", "accept"],
        ["analysis/vacuous", "reject"],
      ]
    ) {
      const diff = (setting: string) =>
        check(repo.dir, head!, {
          command: "diff",
          env: { PAWL_ANALYSIS_CACHE: setting },
        });
      const off = await diff("off");
      const first = await diff(cache);
      const again = await diff(cache);
      assert.equal(off.verdict?.decision, decision, off.stderr);
      for (const run of [first, again]) {
        assert.equal(run.code, off.code, run.stderr);
        assert.equal(run.outText, off.outText, head);
        assert.equal(run.stdout, off.stdout, head);
      }
    }
    // What was kept is pawl's alone.
    let entries = 0;
    const walk = async (dir: string): Promise<void> => {
      for await (const e of Deno.readDir(dir)) {
        const info = await Deno.lstat(`${dir}/${e.name}`);
        assert.equal(info.uid, 0);
        assert.equal(info.mode! & 0o077, 0, `${dir}/${e.name}`);
        if (e.isDirectory) await walk(`${dir}/${e.name}`);
        else entries++;
      }
    };
    await walk(cache);
    assert.ok(entries > 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
