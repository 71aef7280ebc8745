import assert from "node:assert/strict";
import {
  bytecodeCacheDir,
  startBytecodeCompiler,
} from "./bytecode_compiler.ts";
import { findExecutable, SYSTEM_DIRS } from "../sandbox/find_executable.ts";
import { SANDBOX_PATH } from "./run_pytest.ts";

const PYTEST = ["-m", "pytest", "-q", "-p", "no:cacheprovider"];

const TREE: Record<string, string> = {
  "conftest.py":
    "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n",
  "pkg/__init__.py": "",
  "pkg/mod.py": "def double(x):\n    return x * 2\n",
  "tests/__init__.py": "",
  "tests/test_mod.py":
    "from pkg.mod import double\n\n\ndef test_double(two):\n    assert double(two) == 4\n\n\ndef test_nested():\n    def inner():\n        return [i for i in range(3)]\n    assert inner() == [0, 1, 2]\n",
  "tests/helper_test.py": "def test_helper():\n    assert 'a' in 'abc'\n",
};

async function python(): Promise<string> {
  const found = await findExecutable("python3", SANDBOX_PATH.split(":"));
  assert.ok(found !== undefined, "no python3 on the sandbox PATH");
  return found;
}

async function writeTree(dir: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    const at = `${dir}/${path}`;
    await Deno.mkdir(at.slice(0, at.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(at, text);
  }
}

async function withDirs(
  body: (root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-bytecode-test-" });
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function cacheIn(root: string): Promise<string> {
  const cache = `${root}/cache`;
  await Deno.mkdir(cache, { mode: 0o700 });
  await Deno.chmod(cache, 0o700);
  return cache;
}

/** Every file under `dir` whose path ends in `.pyc`, relative, sorted. */
async function pycs(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(rel === "" ? dir : `${dir}/${rel}`)) {
      const path = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".pyc")) found.push(path);
    }
  };
  await walk("");
  return found.sort();
}

async function run(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command(program, {
    args,
    cwd,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) +
    new TextDecoder().decode(out.stderr);
  return { code: out.code, out: text };
}

/**
 * Whether each bytecode file of `ours` holds the same header and code
 * (every nested code object's file name included) as pytest's or the
 * import system's own for the same path, read from `theirs`.
 */
const SAME_CODE = `
import marshal, os, sys, types
def names(co, acc):
    acc.append(co.co_filename)
    for c in co.co_consts:
        if isinstance(c, types.CodeType):
            names(c, acc)
    return acc
ours, theirs = sys.argv[1], sys.argv[2]
for rel in sys.argv[3:]:
    a = open(os.path.join(ours, rel), "rb").read()
    b = open(os.path.join(theirs, rel), "rb").read()
    ca, cb = marshal.loads(a[16:]), marshal.loads(b[16:])
    if a[:16] != b[:16] or ca != cb or names(ca, []) != names(cb, []):
        print("differs:", rel)
        sys.exit(1)
print("same", len(sys.argv) - 3)
`;

Deno.test("pawl's bytecode for a copy is what pytest and the import system compile there, from the cache too, and the run reads it", async () => {
  await withDirs(async (root) => {
    const py = await python();
    const cache = await cacheIn(root);
    const compiler = await startBytecodeCompiler({
      python: py,
      cacheDir: cache,
    });
    try {
      // The first copy compiles; the second (elsewhere) reads the cache.
      const first = `${root}/first`;
      const copy = `${root}/copy`;
      await writeTree(first, TREE);
      await writeTree(copy, TREE);
      const a = await compiler.compile(first);
      const b = await compiler.compile(copy);
      // The two empty __init__.py share one entry.
      assert.deepEqual(a, { written: 6, compiled: 5, left: 0 });
      assert.deepEqual(b, { written: 6, compiled: 0, left: 0 });
      const ours = await pycs(copy);
      assert.deepEqual(ours.map((p) => p.replace(/\.cpython.*$/, "")), [
        "__pycache__/conftest",
        "pkg/__pycache__/__init__",
        "pkg/__pycache__/mod",
        "tests/__pycache__/__init__",
        "tests/__pycache__/helper_test",
        "tests/__pycache__/test_mod",
      ]);
      // The run reads every one of them and passes. pytest's debug log
      // says so for the test modules; the root conftest loads before the
      // log starts, so its source is changed under its bytecode (same
      // size and time, which is all pytest checks): the fixture still
      // gives 2, as only the bytecode can.
      const conftest = `${copy}/conftest.py`;
      const { mtime } = await Deno.stat(conftest);
      await Deno.writeTextFile(
        conftest,
        TREE["conftest.py"]!.replace("return 2", "return 3"),
      );
      await Deno.utime(conftest, mtime!, mtime!);
      const debug = `${root}/debug.log`;
      const ran = await run(py, [...PYTEST, `--debug=${debug}`], copy);
      assert.equal(ran.code, 0, ran.out);
      const log = await Deno.readTextFile(debug);
      for (const name of ["test_mod.py", "helper_test.py"]) {
        assert.match(
          log,
          new RegExp(`found cached rewritten pyc for .*${name}`),
        );
      }
      assert.doesNotMatch(log, /rewriting .*(conftest|test_mod|helper_test)/);
      const imported = await run(py, ["-v", "-c", "import pkg.mod"], copy);
      assert.match(
        imported.out,
        /code object from '.*pkg\/__pycache__\/mod\.cpython-\d+\.pyc'/,
      );
      // Byte for byte the code pytest and the import system write there
      // themselves, for the same sources at the same path and times.
      const kept = `${root}/kept`;
      await Deno.rename(copy, kept);
      await writeTree(copy, TREE);
      await Deno.writeTextFile(
        `${kept}/conftest.py`,
        TREE["conftest.py"]!,
      );
      await Deno.utime(`${kept}/conftest.py`, mtime!, mtime!);
      for (const rel of Object.keys(TREE)) {
        const t = (await Deno.stat(`${kept}/${rel}`)).mtime!;
        await Deno.utime(`${copy}/${rel}`, t, t);
      }
      const own = await new Deno.Command(py, {
        args: PYTEST,
        cwd: copy,
        clearEnv: true,
        env: { PATH: "/usr/bin:/bin" },
        stdout: "null",
      }).output();
      assert.equal(own.code, 0);
      assert.deepEqual(await pycs(copy), ours);
      const cmp = await run(py, ["-c", SAME_CODE, kept, copy, ...ours], root);
      assert.equal(cmp.code, 0, cmp.out);
      assert.match(cmp.out, /same 6/);
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("what the run should warn about, links, the assertion pass hook and oversized files are left to the run", async () => {
  await withDirs(async (root) => {
    const py = await python();
    const cache = await cacheIn(root);
    const copy = `${root}/copy`;
    await writeTree(copy, {
      // pytest warns while rewriting it ("assertion is always true").
      "tests/test_tuple.py":
        "def test_tuple():\n    assert (1, 'never fails')\n",
      // Compiling it warns (an invalid escape sequence).
      "pkg/escape.py": "PATTERN = '\\d+'\n",
      "pkg/plain.py": "X = 1\n",
    });
    await Deno.symlink(`${copy}/pkg/plain.py`, `${copy}/pkg/linked.py`);
    const compiler = await startBytecodeCompiler({
      python: py,
      cacheDir: cache,
    });
    try {
      assert.deepEqual(await compiler.compile(copy), {
        written: 1,
        compiled: 3,
        left: 2 + 1,
      });
      assert.deepEqual(await pycs(copy), [
        "pkg/__pycache__/plain.cpython-311.pyc",
      ]);
      // The warning still reaches the run, as with plain pytest.
      const ran = await run(py, [...PYTEST, "-W", "default"], copy);
      assert.match(ran.out, /assertion is always true/);
      // A configuration naming the assertion pass hook: no rewritten file.
      const hooked = `${root}/hooked`;
      await writeTree(hooked, {
        "tox.ini": "[pytest]\nenable_assertion_pass_hook = true\n",
        "tests/test_ok.py": "def test_ok():\n    assert 1\n",
        "pkg/plain.py": "X = 1\n",
      });
      assert.deepEqual(await compiler.compile(hooked), {
        written: 1,
        compiled: 0,
        left: 1,
      });
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a compiler that cannot start, or a copy path it cannot take, leaves the copies to their runs", async () => {
  await withDirs(async (root) => {
    const cache = await cacheIn(root);
    const missing = await startBytecodeCompiler({
      python: `${root}/no-python`,
      cacheDir: cache,
    });
    assert.equal(await missing.compile(root), undefined);
    await missing.close();
    // No process at all: a path no program can be started with.
    const unspawnable = await startBytecodeCompiler({
      python: `${root}/python\0`,
      cacheDir: cache,
    });
    assert.equal(await unspawnable.compile(root), undefined);
    await unspawnable.close();
    const compiler = await startBytecodeCompiler({
      python: await python(),
      cacheDir: cache,
    });
    assert.equal(await compiler.compile("relative/path"), undefined);
    assert.equal(await compiler.compile(`${root}/a\nb`), undefined);
    await compiler.close();
  });
});

Deno.test("the cache is used only when pawl's alone: else the judgement's scratch, said once", async () => {
  await withDirs(async (root) => {
    const scratch = () => `${root}/scratch-${crypto.randomUUID()}`;
    const made = await bytecodeCacheDir(`${root}/fresh/cache`, scratch());
    assert.deepEqual(made, { dir: `${root}/fresh/cache` });
    assert.equal((await Deno.stat(made.dir)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${root}/fresh`)).mode! & 0o777, 0o755);

    const open = `${root}/open`;
    await Deno.mkdir(open, { mode: 0o755 });
    await Deno.chmod(open, 0o755);
    const a = await bytecodeCacheDir(open, scratch());
    assert.notEqual(a.dir, open);
    assert.match(
      a.note ?? "",
      /"[^"]*\/open" is not used: others may enter it \(mode 755/,
    );

    const theirs = `${root}/theirs`;
    await Deno.mkdir(theirs, { mode: 0o700 });
    await Deno.chown(theirs, 64611, 64611);
    const b = await bytecodeCacheDir(theirs, scratch());
    assert.match(b.note ?? "", /owned by uid 64611/);

    const file = `${root}/file`;
    await Deno.writeTextFile(file, "");
    assert.match(
      (await bytecodeCacheDir(file, scratch())).note ?? "",
      /not used/,
    );
    assert.match(
      (await bytecodeCacheDir("relative", scratch())).note ?? "",
      /not an absolute path/,
    );
    // The scratch is the judgement's own, root's alone.
    assert.equal((await Deno.stat(b.dir)).mode! & 0o777, 0o700);
  });
});

/** An interpreter stand-in at `root/python` that answers each copy with what `answer` prints. */
async function fakePython(root: string, answer: string): Promise<string> {
  const path = `${root}/python`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nwhile read -r dir; do\n${answer}\ndone\n`,
    { mode: 0o755 },
  );
  return path;
}

Deno.test("the compiler runs under pawl's resource limits", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(root, 'echo "done $(ulimit -t) $(ulimit -c) 0"'),
      cacheDir: await cacheIn(root),
    });
    try {
      assert.deepEqual(await compiler.compile(root), {
        written: 600,
        compiled: 0,
        left: 0,
      });
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a reply not exactly in the compiler's form leaves that copy to its run, and the next copy is still compiled", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        'case "$dir" in */odd) echo "done 1 2 3 4";; *) echo "done 1 2 3";; esac',
      ),
      cacheDir: await cacheIn(root),
    });
    try {
      assert.equal(await compiler.compile(`${root}/odd`), undefined);
      assert.deepEqual(await compiler.compile(`${root}/even`), {
        written: 1,
        compiled: 2,
        left: 3,
      });
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a reply that only contains the compiler's form leaves that copy to its run", async (t) => {
  for (const reply of ["undone 1 2 3", "done 1 2", "done 1 2 3 "]) {
    await t.step(JSON.stringify(reply), async () => {
      await withDirs(async (root) => {
        const compiler = await startBytecodeCompiler({
          python: await fakePython(root, `echo "${reply}"`),
          cacheDir: await cacheIn(root),
        });
        try {
          assert.equal(await compiler.compile(root), undefined);
        } finally {
          await compiler.close();
        }
      });
    });
  }
});

Deno.test("a copy the compiler does not answer within its timeout leaves it and every later copy to their runs", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        'case "$dir" in */slow) sleep 20;; esac; echo "done 1 2 3"',
      ),
      cacheDir: await cacheIn(root),
      timeoutMs: 300,
    });
    try {
      assert.equal(await compiler.compile(`${root}/slow`), undefined);
      assert.equal(await compiler.compile(`${root}/fast`), undefined);
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("the compiler starts isolated, in the root directory, with only its own environment", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        'echo "done $([ "$1" = -I ] && echo 1 || echo 0) $([ "$PWD" = / ] && echo 1 || echo 0) 0${HOME+1}"',
      ),
      cacheDir: await cacheIn(root),
    });
    try {
      assert.deepEqual(await compiler.compile(root), {
        written: 1,
        compiled: 1,
        left: 0,
      });
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a named cache that cannot be used says the judgement keeps nothing compiled", async () => {
  await withDirs(async (root) => {
    const { note } = await bytecodeCacheDir("relative", `${root}/scratch`);
    assert.match(
      note ?? "",
      /^the bytecode cache "relative" is not used: it is not an absolute path; nothing compiled is kept past this judgement$/,
    );
  });
});

Deno.test("an empty reply leaves that copy to its run, and the next copy is still compiled", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        'case "$dir" in */blank) echo "";; *) echo "done 1 2 3";; esac',
      ),
      cacheDir: await cacheIn(root),
      timeoutMs: 10_000,
    });
    try {
      assert.equal(await compiler.compile(`${root}/blank`), undefined);
      assert.deepEqual(await compiler.compile(`${root}/next`), {
        written: 1,
        compiled: 2,
        left: 3,
      });
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a late answer to a copy the compiler timed out on is never taken for a later copy's", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        `case "$dir" in */slow) while [ ! -e "${root}/go" ]; do sleep 0.05; done;; esac; echo "done 1 2 3"`,
      ),
      cacheDir: await cacheIn(root),
      timeoutMs: 1000,
    });
    try {
      assert.equal(await compiler.compile(`${root}/slow`), undefined);
      await Deno.writeTextFile(`${root}/go`, "");
      assert.equal(await compiler.compile(`${root}/fast`), undefined);
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("closing the compiler lets the copy it was given finish first", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(root, 'echo "done 1 2 3"'),
      cacheDir: await cacheIn(root),
    });
    const compiled = compiler.compile(root);
    await compiler.close();
    assert.deepEqual(await compiled, { written: 1, compiled: 2, left: 3 });
  });
});

Deno.test("the compiler's whole environment is a plain PATH and a UTF-8 locale", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(
        root,
        `printf '%s\\n' "$PATH" "$LC_ALL" > "${root}/env"; echo "done 0 0 0"`,
      ),
      cacheDir: await cacheIn(root),
    });
    try {
      assert.deepEqual(await compiler.compile(root), {
        written: 0,
        compiled: 0,
        left: 0,
      });
      assert.equal(
        await Deno.readTextFile(`${root}/env`),
        "/usr/bin:/bin\nC.UTF-8\n",
      );
    } finally {
      await compiler.close();
    }
  });
});

Deno.test("a reply's counts are read whole, however many digits each has", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakePython(root, 'echo "done 10 200 3000"'),
      cacheDir: await cacheIn(root),
    });
    try {
      assert.deepEqual(await compiler.compile(root), {
        written: 10,
        compiled: 200,
        left: 3000,
      });
    } finally {
      await compiler.close();
    }
  });
});

/** Resolve once `check` holds; fail when it still does not after `ms`. */
async function until(
  what: string,
  check: () => Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!await check()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Whether process `pid` has ended (exited, or killed and not yet reaped). */
async function ended(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** An interpreter stand-in at `root/python` that runs `body` as its script. */
async function fakeScript(root: string, body: string): Promise<string> {
  const path = `${root}/python`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

Deno.test("a compiler that stops answering is ended at once", async (t) => {
  const cases: [string, (root: string) => string][] = [
    [
      "no answer within the timeout",
      (root) => `echo $$ > "${root}/pid"; read -r dir; exec sleep 600`,
    ],
    [
      "its output closed",
      (root) =>
        `echo $$ > "${root}/pid"; read -r dir; exec >&-; exec sleep 600`,
    ],
    [
      "its input closed",
      (root) => `exec <&-; echo $$ > "${root}/pid"; exec sleep 600`,
    ],
  ];
  for (const [name, body] of cases) {
    await t.step(name, async () => {
      await withDirs(async (root) => {
        const compiler = await startBytecodeCompiler({
          python: await fakeScript(root, body(root)),
          cacheDir: await cacheIn(root),
          timeoutMs: 300,
        });
        let pid: number | undefined;
        try {
          await until("the compiler's pid", () => exists(`${root}/pid`));
          pid = Number(await Deno.readTextFile(`${root}/pid`));
          assert.equal(await compiler.compile(root), undefined);
          await until(`process ${pid} ended`, () => ended(pid!));
        } finally {
          // Left running, it would hold close() for ten minutes.
          if (pid !== undefined && !await ended(pid)) {
            const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`);
            if (cmdline.startsWith("sleep\0")) Deno.kill(pid, "SIGKILL");
          }
          await compiler.close();
        }
      });
    });
  }
});

Deno.test("a compiler given up on is sent no further copy", async () => {
  await withDirs(async (root) => {
    // Killed while it waits, it leaves a reader of its input behind that
    // keeps whatever it is sent after that.
    const compiler = await startBytecodeCompiler({
      python: await fakeScript(
        root,
        `read -r dir; (cat > "${root}/after"; : > "${root}/eof")`,
      ),
      cacheDir: await cacheIn(root),
      timeoutMs: 300,
    });
    try {
      assert.equal(await compiler.compile(`${root}/slow`), undefined);
      assert.equal(await compiler.compile(`${root}/next`), undefined);
    } finally {
      await compiler.close();
    }
    await until("the reader's end", () => exists(`${root}/eof`));
    assert.equal(await Deno.readTextFile(`${root}/after`), "");
  });
});

Deno.test("closing the compiler waits for its process to finish", async () => {
  await withDirs(async (root) => {
    const compiler = await startBytecodeCompiler({
      python: await fakeScript(
        root,
        `while read -r dir; do echo "done 1 2 3"; done; sleep 0.5; : > "${root}/finished"`,
      ),
      cacheDir: await cacheIn(root),
    });
    assert.deepEqual(await compiler.compile(root), {
      written: 1,
      compiled: 2,
      left: 3,
    });
    await compiler.close();
    assert.ok(await exists(`${root}/finished`));
  });
});

/**
 * What `expression` gives (`compiler` holds this module's exports) in a
 * pawl that bwrap starts on the machine's own file system with `view`
 * (more of bwrap's arguments) on top.
 */
async function inView(
  root: string,
  view: string[],
  expression: string,
): Promise<unknown> {
  const script = `${root}/in_view.ts`;
  const module = new URL("./bytecode_compiler.ts", import.meta.url).href;
  await Deno.writeTextFile(
    script,
    `import * as compiler from ${JSON.stringify(module)};\n` +
      `console.log(JSON.stringify(await (${expression})));\n`,
  );
  const out = await new Deno.Command("bwrap", {
    args: [
      "--dev-bind",
      "/",
      "/",
      ...view,
      "--die-with-parent",
      "--",
      Deno.execPath(),
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      script,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/**
 * What {@linkcode bytecodeCacheDir} picks with no cache named, run by a
 * pawl whose `/var/cache` is `root/var-cache` (as uid `uid` when given).
 */
async function defaultCacheDir(
  root: string,
  scratch: string,
  uid?: number,
): Promise<unknown> {
  const user = uid === undefined
    ? []
    : ["--unshare-user", "--uid", `${uid}`, "--gid", `${uid}`];
  return await inView(
    root,
    [...user, "--bind", `${root}/var-cache`, "/var/cache"],
    `compiler.bytecodeCacheDir(undefined, ${JSON.stringify(scratch)})`,
  );
}

Deno.test("with no cache named, root's judgements share the system cache, made when missing, and others keep to their scratch without a note", async (t) => {
  await t.step("root, the system cache missing", async () => {
    await withDirs(async (root) => {
      await Deno.mkdir(`${root}/var-cache`);
      const scratch = `${root}/scratch`;
      assert.deepEqual(await defaultCacheDir(root, scratch), {
        dir: "/var/cache/pawl/bytecode",
      });
      const made = await Deno.stat(`${root}/var-cache/pawl/bytecode`);
      assert.equal(made.mode! & 0o777, 0o700);
    });
  });
  await t.step("root, others may enter the system cache", async () => {
    await withDirs(async (root) => {
      const system = `${root}/var-cache/pawl/bytecode`;
      await Deno.mkdir(system, { recursive: true });
      await Deno.chmod(system, 0o755);
      const scratch = `${root}/scratch`;
      assert.deepEqual(await defaultCacheDir(root, scratch), { dir: scratch });
    });
  });
  await t.step("not root", async () => {
    await withDirs(async (root) => {
      await Deno.mkdir(`${root}/var-cache`);
      const scratch = `${root}/scratch`;
      assert.deepEqual(await defaultCacheDir(root, scratch, 1000), {
        dir: scratch,
      });
      assert.ok(!await exists(`${root}/var-cache/pawl`));
    });
  });
});

Deno.test("without prlimit the compiler still starts, only without limits", async () => {
  await withDirs(async (root) => {
    // Every prlimit pawl could find is hidden behind an empty device.
    const hidden = new Set<string>();
    for (const dir of SYSTEM_DIRS) {
      const found = await findExecutable("prlimit", [dir]);
      if (found !== undefined) hidden.add(await Deno.realPath(found));
    }
    assert.ok(hidden.size > 0, "no prlimit to hide");
    // The CPU limit pawl itself runs under, not pawl's for the compiler.
    const own = await new Deno.Command("sh", { args: ["-c", "ulimit -t"] })
      .output();
    const cpu = new TextDecoder().decode(own.stdout).trim();
    const python = await fakePython(
      root,
      `echo "done 1 $([ "$(ulimit -t)" = ${cpu} ] && echo 1 || echo 0) 0"`,
    );
    const cacheDir = await cacheIn(root);
    const got = await inView(
      root,
      [...hidden].flatMap((path) => ["--ro-bind", "/dev/null", path]),
      `(async () => {
        const c = await compiler.startBytecodeCompiler(${
        JSON.stringify({ python, cacheDir })
      });
        try {
          return await c.compile(${JSON.stringify(root)});
        } finally {
          await c.close();
        }
      })()`,
    );
    assert.deepEqual(got, { written: 1, compiled: 1, left: 0 });
  });
});
