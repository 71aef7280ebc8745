/**
 * What a pytest run leaves behind, for tests that drive the gate with a
 * `FakeSandbox`: the JUnit report where `--junitxml` points, and the
 * stream pawl's observer plugin would have sent over its socket.
 *
 * @module
 */
import type { SandboxCommand } from "../sandbox/sandbox.ts";

/** One test case of a fake run. */
export interface FakeTestCase {
  /** Dotted class name as pytest writes it (`tests.test_x`). */
  classname: string;
  /** Test name. */
  name: string;
  /** Failure message; absent for a pass. */
  failure?: string;
}

/**
 * Write the JUnit report and stream the observer's events for `cases`, as
 * pytest with pawl's plugin would for `command`; the exit code pytest
 * would give.
 *
 * @example
 * ```ts ignore
 * const sandbox = new FakeSandbox(async (command) => ({
 *   code: await writeFakePytestRun(command, [{ classname: "tests.test_a", name: "test_a" }]),
 * }));
 * ```
 */
export async function writeFakePytestRun(
  command: SandboxCommand,
  cases: readonly FakeTestCase[],
): Promise<number> {
  const flag = command.argv.find((a) => a.startsWith("--junitxml="));
  if (flag === undefined) throw new Error("no --junitxml in the command");
  await streamFakeObservation(command, cases);
  await Deno.writeTextFile(flag.slice("--junitxml=".length), junit(cases));
  return cases.some((c) => c.failure !== undefined) ? 1 : 0;
}

/** A pytest-shaped xunit2 report. */
function junit(cases: readonly FakeTestCase[]): string {
  const body = cases.map((c) =>
    `<testcase classname="${c.classname}" name="${c.name}" time="0.001">${
      c.failure === undefined
        ? ""
        : `<failure message="${c.failure}">trace</failure>`
    }</testcase>`
  ).join("");
  return `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" tests="${cases.length}">${body}</testsuite></testsuites>`;
}

/**
 * Stream what pawl's observer plugin would have seen of `cases` (nothing
 * when the command is not observed), without a report: a run that loaded
 * the plugin and then stopped.
 */
export async function streamFakeObservation(
  command: SandboxCommand,
  cases: readonly FakeTestCase[],
): Promise<void> {
  const path = command.env["PAWL_OBSERVER_SOCKET"];
  if (path === undefined) return;
  const lines = [
    { event: "hello", token: command.env["PAWL_OBSERVER_TOKEN"] },
    { event: "configure" },
    ...cases.map((c) => ({
      event: "report",
      nodeid: `${c.classname.replaceAll(".", "/")}.py::${c.name}`,
      when: "call",
      outcome: c.failure === undefined ? "passed" : "failed",
      xfail: false,
    })),
  ];
  const conn = await Deno.connect({ transport: "unix", path });
  try {
    await conn.write(
      new TextEncoder().encode(
        lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
      ),
    );
  } finally {
    conn.close();
  }
}
