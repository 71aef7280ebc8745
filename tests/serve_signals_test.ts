/**
 * `deno task serve` ends the whole process tree on any signal: the task
 * runner passes most signals on, and when it is killed outright (SIGKILL,
 * which it cannot pass on) the server, told by the kernel, stops too.
 */
import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";
import { spawnServe, until } from "./_serve.ts";

/** The children of `pid`, from /proc. */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(
      () => "",
    );
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[1] === String(pid)) found.push(Number(entry.name));
  }
  return found;
}

/** Whether `pid` still runs (a zombie has ended). */
async function running(pid: number): Promise<boolean> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
}

async function commandOf(pid: number): Promise<string> {
  return (await Deno.readTextFile(`/proc/${pid}/cmdline`)).replaceAll(
    "\0",
    " ",
  );
}

Deno.test("deno task serve ends the server on any signal to the task, SIGKILL included", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-serve-signals-" });
  const cases: [string, Deno.Signal, "task" | "group"][] = [
    ["SIGKILL of the task runner", "SIGKILL", "task"],
    ["SIGTERM of the task runner", "SIGTERM", "task"],
    ["SIGHUP of the task runner", "SIGHUP", "task"],
    ["SIGUSR1 of the task runner", "SIGUSR1", "task"],
    // The runner leaves SIGINT to the process group, as a shell does: a
    // terminal's Ctrl-C reaches every process of it.
    ["SIGINT of the process group (Ctrl-C)", "SIGINT", "group"],
  ];
  try {
    for (const [name, signal, target] of cases) {
      await t.step(name, async () => {
        await using task = await spawnServe(
          {
            PAWL_SERVE_WEBHOOK_SECRET: "signals-webhook-secret",
            PAWL_SERVE_DATA_DIR: `${dir}/${signal}`,
          },
          [],
          {
            launch: ["setsid", Deno.execPath(), "task", "--cwd", ROOT, "serve"],
          },
        );
        const [server, ...others] = await childrenOf(task.pid);
        assert.deepEqual(others, []);
        assert.match(await commandOf(server!), /main\.ts serve --port 0/);
        try {
          if (target === "task") task.kill(signal);
          else Deno.kill(-task.pid, signal);
          await until(
            "the server gone",
            async () => !await running(server!),
            30_000,
          );
          await task.status;
        } finally {
          // Left running only when this test fails: do not leak it.
          if (await running(server!)) Deno.kill(server!, "SIGKILL");
        }
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
