/**
 * Test helpers for the sandbox's tests: a process left running as a uid,
 * as a crashed holder of that uid would leave it.
 *
 * @module
 */

/**
 * Run `body` while `sleep 1000` runs as `uid` (started with `setpriv`, so
 * it is the uid's own process), and make sure it is gone afterwards.
 */
export async function withLeftover(
  uid: number,
  body: (leftover: Deno.ChildProcess) => Promise<void>,
): Promise<void> {
  const leftover = new Deno.Command("setpriv", {
    args: [
      `--reuid=${uid}`,
      `--regid=${uid}`,
      "--clear-groups",
      "--",
      "sleep",
      "1000",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await body(leftover);
  } finally {
    try {
      leftover.kill("SIGKILL");
    } catch {
      // already gone
    }
    await leftover.status;
  }
}

/**
 * Send `signal` to `pids` as `uid` (through `setpriv` and kill(1)), so the
 * kernel delivers it only to that uid's own processes. The tests find the
 * pids with the code they test; were it wrong, a kill as root could reach
 * every process on the machine.
 */
export async function signalAs(
  uid: number,
  pids: readonly number[],
  signal: Deno.Signal,
): Promise<void> {
  if (pids.length === 0) return;
  await new Deno.Command("setpriv", {
    args: [
      `--reuid=${uid}`,
      `--regid=${uid}`,
      "--clear-groups",
      "--",
      "kill",
      `-${signal.replace(/^SIG/, "")}`,
      ...pids.map(String),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
}
