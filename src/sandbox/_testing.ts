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
