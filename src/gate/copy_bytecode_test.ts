import assert from "node:assert/strict";
import type { Tree, TreeEntry } from "../git/git.ts";
import type { BytecodeCompiler } from "../run/bytecode_compiler.ts";
import { SANDBOX_PATH } from "../run/run_pytest.ts";
import { readSettings } from "../settings/read_settings.ts";
import { copyBytecode } from "./copy_bytecode.ts";
import type { GateSandbox } from "./gate_ports.ts";

function tree(paths: readonly string[]): Tree {
  return new Map(
    paths.map((path) => [path, { path, kind: "blob" } as unknown as TreeEntry]),
  );
}

/** A sandbox recording each compiler it starts, and which were closed. */
function recordingSandbox() {
  const started: { python: string; closed: boolean }[] = [];
  const sandbox = {
    isolation: { tier: "uid", network: "inherited", uid: 64499, notes: [] },
    prepareDir: () => Promise.resolve(),
    run: () => Promise.reject(new Error("no runs here")),
    startBytecodeCompiler: (python: string) => {
      const record = { python, closed: false };
      started.push(record);
      const compiler: BytecodeCompiler = {
        compile: () => Promise.resolve(undefined),
        close: () => {
          record.closed = true;
          return Promise.resolve();
        },
      };
      return Promise.resolve(compiler);
    },
  } satisfies GateSandbox;
  return { sandbox, started };
}

const TREE = tree(["app/__init__.py", "tests/test_app.py"]);
const WORKSPACE = { root: "/tmp/pawl-copy-bytecode-test" };
/** Lets every pending start settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Waits for `count` compilers to have been started, however busy the machine
 * (finding python3 on the PATH reads the file system), up to 30 s.
 */
async function startedAhead(
  started: readonly unknown[],
  count: number,
): Promise<void> {
  for (
    let waited = 0;
    started.length < count && waited < 30_000;
    waited += 10
  ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("copyBytecode() starts the compiler before the settings are read, and keeps it when they ask for the same", async () => {
  const { sandbox, started } = recordingSandbox();
  const bytecode = copyBytecode(TREE, Promise.resolve(sandbox), WORKSPACE, {
    path: SANDBOX_PATH,
  });
  await startedAhead(started, 1);
  assert.equal(started.length, 1, "started ahead of the decision");
  bytecode.decide(readSettings(""), undefined);
  assert.ok((await bytecode.compiler) !== undefined);
  assert.equal(started.length, 1, "the one started ahead is the one used");
  assert.equal(started[0]?.closed, false);
  await bytecode.close();
  assert.equal(started[0]?.closed, true);
});

Deno.test("copyBytecode() ends the compiler started ahead when the settings rule compiling out or name another PATH", async (t) => {
  await t.step("the base names its own test command", async () => {
    const { sandbox, started } = recordingSandbox();
    const bytecode = copyBytecode(TREE, Promise.resolve(sandbox), WORKSPACE, {
      path: SANDBOX_PATH,
    });
    bytecode.decide(
      readSettings('[tests]\ncommand = ["python3", "-m", "pytest", "-x"]\n'),
      undefined,
    );
    assert.equal(await bytecode.compiler, undefined);
    assert.deepEqual(started.map((s) => s.closed), [true]);
    await bytecode.close();
  });

  await t.step("the runs get another PATH: a compiler of theirs", async () => {
    const { sandbox, started } = recordingSandbox();
    const bytecode = copyBytecode(TREE, Promise.resolve(sandbox), WORKSPACE, {
      path: "/nonexistent/bin:/bin",
    });
    await startedAhead(started, 1);
    bytecode.decide(readSettings(""), "/usr/bin");
    assert.ok((await bytecode.compiler) !== undefined);
    assert.deepEqual(started, [
      { python: "/bin/python3", closed: true },
      { python: "/usr/bin/python3", closed: false },
    ]);
    await bytecode.close();
    assert.equal(started[1]?.closed, true);
  });

  await t.step("closed before any decision", async () => {
    const { sandbox, started } = recordingSandbox();
    const bytecode = copyBytecode(TREE, Promise.resolve(sandbox), WORKSPACE, {
      path: SANDBOX_PATH,
    });
    await startedAhead(started, 1);
    await bytecode.close();
    assert.equal(await bytecode.compiler, undefined);
    assert.deepEqual(started.map((s) => s.closed), [true]);
  });
});

Deno.test("copyBytecode() starts nothing ahead for a tree with its own pytest, nor without a PATH to start from", async () => {
  for (
    const [name, headTree, path] of [
      [
        "its own pytest",
        tree(["pytest.py", "tests/test_app.py"]),
        SANDBOX_PATH,
      ],
      ["no PATH given", TREE, undefined],
    ] as const
  ) {
    const { sandbox, started } = recordingSandbox();
    const bytecode = copyBytecode(
      headTree,
      Promise.resolve(sandbox),
      WORKSPACE,
      { path },
    );
    await settle();
    assert.equal(started.length, 0, name);
    bytecode.decide(readSettings(""), undefined);
    const compiler = await bytecode.compiler;
    // The tree's own pytest rules compiling out; otherwise it starts now.
    assert.equal(compiler === undefined, headTree !== TREE, name);
    await bytecode.close();
  }
});
