import assert from "node:assert/strict";
import { findExecutable, liveProcessesOf } from "./_exec.ts";
import { leaseSandboxUid } from "./lease_uid.ts";
import { ProcessSandbox } from "./process_sandbox.ts";
import { MAX_WARM_REPORT_BYTES } from "./_warm_python.ts";
import type { SandboxCommand, SandboxResult } from "./sandbox.ts";

/** This file's own uid (the warm-start tests' range). */
const UID = (await leaseSandboxUid({ range: { first: 64470, last: 64474 } }))
  .uid;
const PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * What a module run with `-m` sees of its start: sys.path, argv,
 * orig_argv, the __main__ namespace, the stack depth, the modules loaded
 * and their order, flags, stdin, cwd, the environment, and the ids,
 * resource limits and network interfaces it runs with.
 */
const PROBE = `import sys, os, __main__, hashlib, resource, socket
LIMITS = ("RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_CORE")
def depth():
    f = sys._getframe()
    n = 0
    while f:
        n += 1
        f = f.f_back
    return n
s = sys.stdin
print(repr((sys.path, sys.argv, sys.orig_argv[1:], sorted(vars(__main__)),
    depth(), hashlib.sha256(" ".join(sys.modules).encode()).hexdigest(),
    sys.flags, os.readlink("/proc/self/fd/0"), s.seekable(), s.buffer.raw.name,
    s.mode, s.line_buffering, s.encoding, s.errors, s is sys.__stdin__,
    os.getcwd(), sorted(os.environ.items()), sys.warnoptions,
    sys.modules["__main__"].__spec__.name, os.getresuid(), os.getresgid(),
    os.getgroups(), [resource.getrlimit(getattr(resource, n)) for n in LIMITS],
    socket.if_nameindex())))
sys.exit(int(sys.argv[-1]))
`;

async function withTree(
  fn: (dirs: { work: string; lib: string; root: string }) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-warm-test-" });
  try {
    await Deno.chmod(root, 0o755);
    const work = `${root}/work`;
    // The library's path starts with the copy's, yet lies outside it:
    // only the copy is left off the held interpreter's sys.path.
    const lib = `${root}/work-lib`;
    await Deno.mkdir(work);
    await Deno.mkdir(`${lib}/probe_pkg`, { recursive: true });
    await Deno.writeTextFile(`${lib}/probe_pkg/__init__.py`, "");
    await Deno.writeTextFile(`${lib}/probe_pkg/__main__.py`, PROBE);
    await Deno.chmod(lib, 0o755);
    await Deno.chmod(`${lib}/probe_pkg`, 0o755);
    await fn({ work, lib, root });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A package `name` in `lib` whose import runs `init` and whose `-m` prints "ran". */
async function writePackage(
  lib: string,
  name: string,
  init: string,
): Promise<void> {
  await Deno.mkdir(`${lib}/${name}`);
  await Deno.writeTextFile(`${lib}/${name}/__init__.py`, init);
  await Deno.writeTextFile(`${lib}/${name}/__main__.py`, "print('ran')\n");
  await Deno.chmod(`${lib}/${name}`, 0o755);
}

function probeCommand(
  dirs: { work: string; lib: string },
  args: string[],
): SandboxCommand {
  return {
    argv: ["python3", "-m", "probe_pkg", ...args],
    cwd: dirs.work,
    env: {
      PATH,
      HOME: dirs.work,
      PYTHONPATH: dirs.lib,
      PYTHONHASHSEED: "0",
      LANG: "C.UTF-8",
    },
    writable: [],
    readOnly: [dirs.lib],
    limits: { timeoutMs: 60_000 },
  };
}

const ACCEPT = { accept: () => true };

function same(a: SandboxResult, b: SandboxResult): void {
  assert.equal(a.outputHead, b.outputHead);
  assert.equal(a.outputTail, b.outputTail);
  assert.equal(a.code, b.code);
  assert.equal(a.signal, b.signal);
}

Deno.test("a held interpreter runs the module exactly as a cold -m start does", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({ uid: UID });
    await sandbox.prepareDir(dirs.work);
    const command = probeCommand(dirs, ["-q", "x y", "3"]);
    const cold = await sandbox.run(command);
    assert.equal(cold.warm, undefined);
    assert.equal(cold.code, 3);
    assert.match(cold.outputHead, /'-q', 'x y', '3'/);
    const seen: string[][] = [];
    sandbox.prestart(probeCommand(dirs, ["other", "args"]), {
      accept: (modules) => {
        seen.push([...modules]);
        return true;
      },
    });
    const warm = await sandbox.run(command);
    assert.equal(warm.warm, true);
    same(warm, cold);
    // It reported what it looked up, top-level names only: runpy and the
    // module's package, and what importing them loaded.
    assert.ok(seen[0]?.includes("runpy"));
    assert.ok(seen[0]?.includes("probe_pkg"));
    assert.deepEqual(seen[0]?.filter((m) => m.includes(".")), []);
    assert.deepEqual(await liveProcessesOf(UID), []);
  });
});

Deno.test("a held interpreter goes cold when the run differs, is refused, cannot be judged, or spoils", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({
      uid: UID,
      heldReportWaitMs: 1500,
    });
    await sandbox.prepareDir(dirs.work);
    const command = probeCommand(dirs, ["0"]);
    const cold = await sandbox.run(command);
    // Another environment: the held one is killed, the run starts cold.
    sandbox.prestart(
      { ...command, env: { ...command.env, PYTHONHASHSEED: "1" } },
      ACCEPT,
    );
    const otherEnv = await sandbox.run(command);
    assert.equal(otherEnv.warm, undefined);
    same(otherEnv, cold);
    // Refused by the caller (a shadowing name in the tree).
    sandbox.prestart(command, { accept: () => false });
    const refused = await sandbox.run(command);
    assert.equal(refused.warm, undefined);
    same(refused, cold);
    // A caller that fails to decide refuses as well.
    sandbox.prestart(command, {
      accept: () => {
        throw new Error("cannot list the tree");
      },
    });
    const undecided = await sandbox.run(command);
    assert.equal(undecided.warm, undefined);
    same(undecided, cold);
    // Another name for the interpreter is another program.
    const python = await findExecutable("python3", PATH.split(":"));
    assert.ok(python !== undefined);
    sandbox.prestart(command, ACCEPT);
    const renamed = await sandbox.run({
      ...command,
      argv: [python, ...command.argv.slice(1)],
    });
    assert.equal(renamed.warm, undefined);
    same(renamed, cold);
    // An interpreter option before -m never goes warm.
    sandbox.prestart({
      ...command,
      argv: ["python3", "-X", "dev", "-m", "probe_pkg"],
    }, ACCEPT);
    const flagged = await sandbox.run(command);
    assert.equal(flagged.warm, undefined);
    // A module whose import writes to stderr, fails, or hangs.
    for (
      const [name, body] of [
        ["noisy", "import sys\nsys.stderr.write('hello\\n')\n"],
        ["broken", "raise ImportError('broken at import')\n"],
        ["stuck", "import time\ntime.sleep(600)\n"],
      ]
    ) {
      await writePackage(dirs.lib, name!, body!);
      const run = { ...command, argv: ["python3", "-m", name!] };
      const expected = await sandbox.run({
        ...run,
        limits: { timeoutMs: 3000 },
      });
      sandbox.prestart(run, ACCEPT);
      const got = await sandbox.run({ ...run, limits: { timeoutMs: 3000 } });
      assert.equal(got.warm, undefined, name);
      same(got, expected);
    }
    // A held interpreter nobody takes is killed and its uid swept.
    sandbox.prestart(command, ACCEPT);
    await sandbox.discardHeld();
    assert.deepEqual(await liveProcessesOf(UID), []);
  });
});

Deno.test("a held interpreter's report is read whole across many reads, and one past the cap goes cold", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({ uid: UID });
    await sandbox.prepareDir(dirs.work);
    // Each name a failed import looked up is reported: 32 bytes a name.
    const name = (i: number) => `pawl_missing_module_name_${i}`.padEnd(31, "_");
    const { cap, fits } = { cap: MAX_WARM_REPORT_BYTES, fits: 7000 };
    for (
      const [pkg, count] of [["fits", fits], ["over", cap / 32 + 100]] as const
    ) {
      await writePackage(
        dirs.lib,
        pkg,
        `for i in range(${count}):
    try:
        __import__(("pawl_missing_module_name_" + str(i)).ljust(31, "_"))
    except ImportError:
        pass
`,
      );
    }
    // More than three reads' worth: one read of a pipe returns 64 KiB at most.
    assert.ok(fits * 32 > 3 * 64 * 1024 && fits * 32 < cap);
    const run = (pkg: string) => ({
      ...probeCommand(dirs, []),
      argv: ["python3", "-m", pkg],
    });
    const seen: string[][] = [];
    sandbox.prestart(run("fits"), {
      accept: (modules) => {
        seen.push([...modules]);
        return true;
      },
    });
    const whole = await sandbox.run(run("fits"));
    assert.equal(whole.warm, true);
    assert.equal(whole.outputHead, "ran\n");
    assert.equal(seen.length, 1);
    for (const i of [0, fits / 2, fits - 1]) {
      assert.ok(seen[0]!.includes(name(i)), name(i));
    }
    sandbox.prestart(run("over"), ACCEPT);
    const cold = await sandbox.run(run("over"));
    assert.equal(cold.warm, undefined);
    assert.equal(cold.outputHead, "ran\n");
  });
});

Deno.test("a held interpreter imports nothing from the copy: a name the copy will hold is the caller's to refuse", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({ uid: UID });
    await sandbox.prepareDir(dirs.work);
    const command = probeCommand(dirs, ["0"]);
    // The copy is still filling: its own probe_pkg.py lands after the
    // interpreter started. A cold start runs the copy's module (the cwd
    // comes first on sys.path); the held interpreter imported the other
    // one, so the listing check refuses it and the run goes cold.
    const listing = ["probe_pkg.py"];
    let names: readonly string[] = [];
    sandbox.prestart(command, {
      accept: (modules) => {
        names = modules;
        return !modules.some((m) =>
          listing.some((f) => f === m || f.startsWith(`${m}.`))
        );
      },
    });
    await Deno.writeTextFile(
      `${dirs.work}/probe_pkg.py`,
      "print('from the copy')\n",
    );
    const run = await sandbox.run(command);
    assert.ok(names.includes("probe_pkg"));
    assert.equal(run.warm, undefined);
    assert.equal(run.code, 0);
    assert.match(run.outputHead, /from the copy/);
  });
});

Deno.test("a held interpreter runs nothing of a copy already in place, though its cwd is the copy", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({ uid: UID });
    await sandbox.prepareDir(dirs.work);
    const command = probeCommand(dirs, ["0"]);
    // The copy's module notes each import of it in the copy.
    await Deno.writeTextFile(
      `${dirs.work}/probe_pkg.py`,
      "open('imports.log', 'a').write('imported\\n')\nprint('from the copy')\n",
    );
    sandbox.prestart(command, {
      accept: (modules) => !modules.includes("probe_pkg"),
    });
    const run = await sandbox.run(command);
    assert.equal(run.warm, undefined);
    assert.match(run.outputHead, /from the copy/);
    // Only the cold run imported it.
    assert.equal(
      await Deno.readTextFile(`${dirs.work}/imports.log`),
      "imported\n",
    );
  });
});

Deno.test("prestart settles once the interpreter is spawned, before its import ends", async () => {
  await withTree(async (dirs) => {
    const sandbox = await ProcessSandbox.create({ uid: UID });
    await sandbox.prepareDir(dirs.work);
    // The module's import cannot end before `go` exists, which is made
    // only once prestart settled: one that waited for the interpreter's
    // report would never settle.
    const go = `${dirs.lib}/go`;
    await writePackage(
      dirs.lib,
      "slow_pkg",
      `import os, time\nwhile not os.path.exists(${
        JSON.stringify(go)
      }):\n    time.sleep(0.01)\n`,
    );
    const command = {
      ...probeCommand(dirs, []),
      argv: ["python3", "-m", "slow_pkg"],
    };
    let reported = false;
    await sandbox.prestart(command, {
      accept: () => {
        reported = true;
        return true;
      },
    });
    assert.equal(reported, false);
    await Deno.writeTextFile(go, "");
    const run = await sandbox.run(command);
    assert.equal(reported, true);
    assert.equal(run.warm, true);
    assert.equal(run.code, 0);
    assert.match(run.outputHead, /ran/);
    await sandbox.discardHeld();
    assert.deepEqual(await liveProcessesOf(UID), []);
  });
});

Deno.test("a run that does not take the held interpreter starts only once the uid is swept of what that interpreter left", async () => {
  await withTree(async (dirs) => {
    // At the uid tier a process of the held interpreter's that left its
    // session outlives the kill of its process group.
    const sandbox = await ProcessSandbox.create({
      requested: "uid",
      uid: UID,
    });
    await sandbox.prepareDir(dirs.work);
    await Deno.mkdir(`${dirs.lib}/daemon_pkg`);
    await Deno.writeTextFile(
      `${dirs.lib}/daemon_pkg/__init__.py`,
      `import os
if os.fork() == 0:
    os.setsid()
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execvp("sleep", ["sleep", "1000"])
`,
    );
    await Deno.chmod(`${dirs.lib}/daemon_pkg`, 0o755);
    await sandbox.prestart({
      ...probeCommand(dirs, []),
      argv: ["python3", "-m", "daemon_pkg"],
    }, ACCEPT);
    const sleeping = async () => {
      for (const pid of await liveProcessesOf(UID)) {
        const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`).catch(
          () => "",
        );
        if (cmdline === "sleep\u00001000\u0000") return true;
      }
      return false;
    };
    for (let i = 0; i < 3000 && !(await sleeping()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(await sleeping(), true);
    const run = await sandbox.run({
      ...probeCommand(dirs, []),
      argv: ["sh", "-c", 'ps -o args= -u "$(id -u)"'],
    });
    assert.equal(run.warm, undefined);
    assert.match(run.outputHead, /ps -o args=/);
    assert.doesNotMatch(run.outputHead, /^sleep 1000$/m);
    assert.equal(await sleeping(), false);
  });
});
