import assert from "node:assert/strict";
import { SandboxCleanupError } from "./sandbox_errors.ts";
import {
  delay,
  findExecutable,
  liveProcessesOf,
  runCaptured,
  scanUid,
  sweepUid,
  SYSTEM_DIRS,
} from "./_exec.ts";

/**
 * A uid of these tests' own, clear of every other test's and of pawl's
 * default range: sweepUid() kills every process of it.
 */
const UID = 64795;

async function tool(name: string): Promise<string> {
  const path = await findExecutable(name, SYSTEM_DIRS);
  assert.ok(path !== undefined, `${name} is installed`);
  return path;
}

/** Start `argv` as `UID` (group `gid`), as its own process group. */
async function startAsUid(
  argv: string[],
  gid = UID,
): Promise<Deno.ChildProcess> {
  return new Deno.Command(await tool("setpriv"), {
    args: [
      `--reuid=${UID}`,
      `--regid=${gid}`,
      "--clear-groups",
      "--",
      ...argv,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/** Resolve once `check` holds, polling for up to 30 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 3000 && !(await check()); i++) await delay(10);
  assert.ok(await check());
}

Deno.test("runCaptured() runs a helper in / with an empty environment, its error output trimmed", async () => {
  const out = await runCaptured(await tool("sh"), [
    "-c",
    'pwd; echo "[$HOME]"; echo "  oops  " >&2; exit 3',
  ]);
  assert.deepEqual(out, {
    code: 3,
    signal: null,
    stdout: "/\n[]\n",
    stderr: "oops",
    timedOut: false,
  });
});

Deno.test("runCaptured() runs a helper in the directory and environment given, and says when it started", async () => {
  let spawned = 0;
  const out = await runCaptured(
    await tool("sh"),
    ["-c", 'pwd; echo "[$GREETING]"'],
    { cwd: "/usr", env: { GREETING: "hello" }, onSpawn: () => spawned++ },
  );
  assert.equal(out.stdout, "/usr\n[hello]\n");
  assert.equal(spawned, 1);
});

Deno.test("runCaptured() gives a helper ten seconds by default", async () => {
  const out = await runCaptured(await tool("sh"), [
    "-c",
    "sleep 0.3; echo done",
  ]);
  assert.equal(out.timedOut, false);
  assert.equal(out.stdout, "done\n");
});

Deno.test("runCaptured() kills a helper at its deadline and says so", async () => {
  const out = await runCaptured(await tool("sh"), ["-c", "exec sleep 60"], {
    timeoutMs: 50,
  });
  assert.equal(out.timedOut, true);
  assert.equal(out.signal, "SIGKILL");
});

Deno.test("delay() resolves at once for a signal that already aborted, and when it aborts", async () => {
  const first = await Promise.race([
    delay(60_000, AbortSignal.abort()).then(() => "resolved"),
    new Promise((resolve) => setTimeout(() => resolve("pending"), 0)),
  ]);
  assert.equal(first, "resolved");
  const controller = new AbortController();
  const waiting = delay(60_000, controller.signal).then(() => "resolved");
  controller.abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(() => resolve("pending"), 30_000);
  });
  try {
    assert.equal(await Promise.race([waiting, deadline]), "resolved");
  } finally {
    clearTimeout(timer);
  }
});

Deno.test("scanUid() sees exactly the uid's live processes, with their groups and every thread", async () => {
  const python = await tool("python3");
  const child = await startAsUid([
    python,
    "-c",
    "import threading, time\n" +
    "for _ in range(3): threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n" +
    "time.sleep(60)",
  ], 64796);
  try {
    await until(async () => (await scanUid(UID)).tasks === 4);
    const scan = await scanUid(UID);
    assert.deepEqual(scan.live, [{ pid: child.pid, gid: 64796 }]);
    assert.deepEqual(await liveProcessesOf(UID), [child.pid]);
    assert.deepEqual(await scanUid(UID + 2), { live: [], tasks: 0 });
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
  assert.deepEqual(await scanUid(UID), { live: [], tasks: 0 });
});

Deno.test("sweepUid() refuses root and any number that is no sandbox uid, before it runs anything", async (t) => {
  // Tools that do not exist: were the refusal missing, nothing could be
  // signalled, and the run would end otherwise than with a RangeError.
  const tools = { setpriv: "/nonexistent/setpriv", kill: "/nonexistent/kill" };
  const cases: [string, number, number][] = [
    ["uid -1", -1, UID],
    ["uid -1 with gid -1", -1, -1],
    ["root", 0, UID],
    ["a fraction", 1.5, UID],
    ["the id meaning none", 4294967295, UID],
    ["not a number", Number.NaN, UID],
  ];
  for (const [name, uid, gid] of cases) {
    await t.step(name, async () => {
      await assert.rejects(
        () => sweepUid(uid, gid, tools),
        (error: unknown) =>
          error instanceof RangeError &&
          /Refusing to sweep/.test(error.message),
      );
    });
  }
});

Deno.test("sweepUid() takes uid 1 and uid 4294967294, the ends of the range a sandbox uid may lie in", async (t) => {
  // Stand-ins that signal nothing: only the range check is judged here.
  const yes = await tool("true");
  for (const uid of [1, 4294967294]) {
    await t.step(`uid ${uid}`, async () => {
      const outcome = await sweepUid(uid, uid, { setpriv: yes, kill: yes })
        .then(() => "swept", (error: unknown) => error);
      assert.ok(!(outcome instanceof RangeError), String(outcome));
    });
  }
});

Deno.test("sweepUid() kills every process of the uid, and only those", async () => {
  const sleeper = await tool("sleep");
  const children = [
    await startAsUid([sleeper, "60"]),
    await startAsUid([sleeper, "60"]),
  ];
  const bystander = new Deno.Command(sleeper, { args: ["60"] }).spawn();
  try {
    await until(async () => (await liveProcessesOf(UID)).length === 2);
    await sweepUid(UID, UID + 1, {
      setpriv: await tool("setpriv"),
      kill: await tool("kill"),
    });
    assert.deepEqual(await liveProcessesOf(UID), []);
    for (const child of children) {
      assert.equal((await child.status).signal, "SIGKILL");
    }
    assert.ok(
      await liveProcessesOf(0).then((pids) => pids.includes(bystander.pid)),
    );
  } finally {
    for (const child of [...children, bystander]) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
    }
  }
});

Deno.test("scanUid() counts a zombie of the uid among its tasks, never among its live processes", async () => {
  // The zombie's parent is a root `sleep` that never reaps it.
  const holder = new Deno.Command("unshare", {
    args: [
      "--pid",
      "--fork",
      "--kill-child",
      "--",
      "sh",
      "-c",
      `setpriv --reuid=${UID} --regid=${UID} --clear-groups -- true & exec sleep 60`,
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await until(async () => (await scanUid(UID)).tasks === 1);
    assert.deepEqual(await scanUid(UID), { live: [], tasks: 1 });
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
  }
  await until(async () => (await scanUid(UID)).tasks === 0);
});

/**
 * A kill(1) for the uid sweep that ignores its first `ignored` calls, in a
 * directory the sandbox uid may write its call count to.
 */
async function flakyKill(dir: string, ignored: number): Promise<string> {
  await Deno.chmod(dir, 0o777);
  await Deno.writeTextFile(
    `${dir}/kill`,
    `#!/bin/sh\necho x >> '${dir}/calls'\n` +
      `[ "$(wc -l < '${dir}/calls')" -gt ${ignored} ] && exec '${await tool(
        "kill",
      )}' "$@"\nexit 0\n`,
    { mode: 0o755 },
  );
  return `${dir}/kill`;
}

Deno.test("sweepUid() tries again while a process of the uid is left", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-exec-test-" });
  const child = await startAsUid([await tool("sleep"), "60"]);
  try {
    await until(async () => (await liveProcessesOf(UID)).length === 1);
    await sweepUid(UID, UID, {
      setpriv: await tool("setpriv"),
      kill: await flakyKill(dir, 1),
    });
    assert.deepEqual(await liveProcessesOf(UID), []);
    assert.equal((await child.status).signal, "SIGKILL");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sweepUid() gives up after twenty attempts and says how many processes survived", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-exec-test-" });
  const sleeper = await tool("sleep");
  const children = [
    await startAsUid([sleeper, "60"]),
    await startAsUid([sleeper, "60"]),
  ];
  try {
    await until(async () => (await liveProcessesOf(UID)).length === 2);
    await assert.rejects(
      sweepUid(UID, UID, {
        setpriv: await tool("setpriv"),
        kill: await flakyKill(dir, 1000),
      }),
      (error: unknown) =>
        error instanceof SandboxCleanupError && error.uid === UID &&
        error.survivors === 2 &&
        error.message ===
          `Cannot stop the processes of uid ${UID}: 2 still running after repeated SIGKILL`,
    );
    const calls = await Deno.readTextFile(`${dir}/calls`);
    assert.equal(calls.split("\n").filter((l) => l).length, 20);
  } finally {
    for (const child of children) {
      child.kill("SIGKILL");
      await child.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
});

/** Run `code` (which may import `EXEC`) as a script with `flags`. */
async function runScript(
  flags: string[],
  code: string,
  args: string[] = [],
  wrapper: string[] = [],
): Promise<{ code: number; stdout: string }> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-exec-test-" });
  try {
    await Deno.writeTextFile(
      `${dir}/script.ts`,
      code.replace("EXEC", new URL("./_exec.ts", import.meta.url).href),
    );
    const [program, ...rest] = [
      ...wrapper,
      Deno.execPath(),
      "run",
      "--no-config",
      ...flags,
      `${dir}/script.ts`,
      ...args,
    ];
    const out = await new Deno.Command(program!, {
      args: rest,
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
      // A process group of its own: no call may reach the test runner's.
      detached: true,
    }).spawn().output();
    return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("killProcessGroup() never signals every process, nor its own group, for a pgid that names no group", async () => {
  // In a pid namespace of its own, where the script is PID 1: had any call
  // reached kill(-1) or kill(0), the sleeper would die of SIGKILL.
  const out = await runScript(
    ["-A"],
    `import { killProcessGroup } from "EXEC";
const sleeper = new Deno.Command("sleep", { args: ["60"] }).spawn();
for (const pgid of [1, 0, -1, 1.5, Number.NaN]) await killProcessGroup(pgid);
sleeper.kill("SIGTERM");
console.log((await sleeper.status).signal);`,
    [],
    [await tool("unshare"), "--pid", "--fork", "--kill-child", "--"],
  );
  assert.deepEqual(out, { code: 0, stdout: "SIGTERM\n" });
});

Deno.test("killProcessGroup() kills the whole group through kill(1) when it may run only listed programs", async () => {
  const group = new Deno.Command(await tool("sh"), {
    args: ["-c", "sleep 60 & echo $!; exec sleep 60"],
    stdin: "null",
    stdout: "piped",
    detached: true,
  }).spawn();
  const reader = group.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    printed += value;
  }
  await reader.cancel();
  const background = Number(printed.trim());
  try {
    const out = await runScript(
      ["--allow-read", `--allow-run=${await tool("kill")}`],
      `import { killProcessGroup } from "EXEC";
await killProcessGroup(Number(Deno.args[0]));`,
      [String(group.pid)],
    );
    assert.equal(out.code, 0);
    assert.equal((await group.status).signal, "SIGKILL");
    // The background sleeper, of the same group, is gone or a zombie.
    await until(async () => {
      const status = await Deno.readTextFile(`/proc/${background}/status`)
        .catch(() => "State: X");
      return /^State:\s*[ZX]/m.test(status);
    });
  } finally {
    try {
      Deno.kill(-group.pid, "SIGKILL");
    } catch {
      // already gone
    }
    await group.status;
  }
});
