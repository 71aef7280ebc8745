/**
 * pawl's compiled bytecode (`src/run/bytecode_compiler.ts`) end to end: a
 * judgement gives the same verdict bytes with no compiler, compiling, and
 * reading what an earlier judgement compiled; and a pull request's tests
 * can neither see nor write the cache the next judgement reads.
 */
import assert from "node:assert/strict";
import { buildRepo, type TestRepo } from "./_repo.ts";
import { judgedJson } from "./_judge.ts";
import { realGatePorts } from "../src/gate/real_gate_ports.ts";
import type { GatePorts } from "../src/gate/gate_ports.ts";
import type { CompiledCopy } from "../src/run/bytecode_compiler.ts";

/** This file's uids. */
const RANGE = { first: 64604, last: 64609 };

const HELPER = "def total(items):\n    return sum(items) + 1\n";

const CACHE_PROBE = (cache: string) =>
  `import os
import pytest

CACHE = ${JSON.stringify(cache)}


def test_the_cache_is_out_of_reach():
    # Seen from the tests, the cache cannot be listed, read or written:
    # no entry a later judgement reads can come from here.
    with pytest.raises(PermissionError):
        os.listdir(CACHE)
    with pytest.raises(PermissionError):
        os.makedirs(os.path.join(CACHE, "planted"), exist_ok=True)
`;

function heads(cache: string) {
  return {
    "bytecode/honest": {
      "payments/helper.py": HELPER,
      "tests/test_misc.py":
        "from payments.helper import total\n\n\ndef test_total():\n    assert total([1, 2]) == 4\n",
    },
    "bytecode/failing": {
      "payments/helper.py": HELPER,
      "tests/test_misc.py":
        "from payments.helper import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_raises():\n    total(None)\n",
    },
    "bytecode/probe": {
      "tests/test_probe.py": CACHE_PROBE(cache),
    },
  };
}

/** Judge `head` in-process with the real ports; what the compiler did for each copy. */
async function judge(
  repo: TestRepo,
  head: string,
  bytecodeCache: string,
): Promise<{ json: string; copies: (CompiledCopy | undefined)[] }> {
  const real = realGatePorts({
    sandbox: { lease: { range: RANGE }, bytecodeCache },
  });
  const copies: (CompiledCopy | undefined)[] = [];
  const ports: GatePorts = {
    ...real,
    sandbox: async (request) => {
      const sandbox = await real.sandbox(request);
      const start = sandbox.startBytecodeCompiler;
      if (start === undefined) return sandbox;
      return {
        ...sandbox,
        startBytecodeCompiler: async (python, scratch) => {
          const compiler = await start(python, scratch);
          if (compiler === undefined) return undefined;
          return {
            compile: async (dir) => {
              const done = await compiler.compile(dir);
              copies.push(done);
              return done;
            },
            close: () => compiler.close(),
          };
        },
      };
    },
  };
  return { json: await judgedJson(repo, head, ports), copies };
}

async function withCache(body: (cache: string) => Promise<void>) {
  // Where the sandbox sees it (its /tmp is its own), as it sees the
  // default one in /var/cache.
  const root = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-bytecode-e2e-",
  });
  try {
    await body(`${root}/cache`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a judgement gives the same verdict bytes without pawl's bytecode, compiling it, and reading it from the cache", async () => {
  await withCache(async (cache) => {
    await using repo = await buildRepo({ heads: heads(cache) });
    for (const head of ["bytecode/honest", "bytecode/failing"]) {
      const off = await judge(repo, head, "off");
      assert.deepEqual(off.copies, [], "no compiler with the cache off");
      const first = await judge(repo, head, cache);
      const again = await judge(repo, head, cache);
      assert.equal(first.json, off.json, head);
      assert.equal(again.json, off.json, head);
      // Every copy got its bytecode; the first judgement compiled what
      // the cache did not hold yet, the second compiled nothing.
      assert.ok(first.copies.length >= 2, `${head}: copies compiled`);
      for (const done of [...first.copies, ...again.copies]) {
        assert.ok(done !== undefined && done.written > 0 && done.left === 0);
      }
      assert.ok(first.copies.some((c) => (c?.compiled ?? 0) > 0));
      assert.deepEqual(
        again.copies.map((c) => c?.compiled),
        again.copies.map(() => 0),
      );
    }
    const verdict = JSON.parse(
      (await judge(repo, "bytecode/failing", cache)).json,
    );
    assert.equal(verdict.decision, "reject");
  });
});

Deno.test("a pull request's tests can neither list nor write the bytecode cache", async () => {
  await withCache(async (cache) => {
    await using repo = await buildRepo({ heads: heads(cache) });
    // Made by an earlier judgement.
    await judge(repo, "bytecode/honest", cache);
    const probed = JSON.parse(
      (await judge(repo, "bytecode/probe", cache)).json,
    );
    assert.equal(probed.decision, "accept", JSON.stringify(probed.findings));
    // Everything in it is root's.
    const walk = async (dir: string): Promise<void> => {
      for await (const e of Deno.readDir(dir)) {
        const info = await Deno.lstat(`${dir}/${e.name}`);
        assert.equal(info.uid, 0, `${dir}/${e.name}`);
        if (e.isDirectory) await walk(`${dir}/${e.name}`);
      }
    };
    await walk(cache);
  });
});
