import assert from "node:assert/strict";
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
  const waiting = delay(60_000, controller.signal);
  controller.abort();
  await waiting;
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

Deno.test("sweepUid() kills every process of the uid, and only those", async () => {
  const sleeper = await tool("sleep");
  const children = [
    await startAsUid([sleeper, "60"]),
    await startAsUid([sleeper, "60"]),
  ];
  const bystander = new Deno.Command(sleeper, { args: ["60"] }).spawn();
  try {
    await until(async () => (await liveProcessesOf(UID)).length === 2);
    await sweepUid(UID, UID, {
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
