/**
 * For `deno task bench gate`: plain pytest of a tree with what pawl asks of
 * every run it judges, and nothing else (no sandbox, no other run): the
 * JUnit report and pawl's observer streaming to a socket, both read and
 * parsed as pawl reads them. Against plain pytest of the same tree, this
 * is the part of pawl check's cost that grows with the number of tests.
 *
 * @module
 */
import { installObserver, ObserverChannel } from "../src/run/observer.ts";
import { parseJunit } from "../src/run/parse_junit.ts";

/**
 * Seconds for one witnessed pytest run of `cwd` (environment as the sandbox
 * gives it; the observer in a directory of its own, short enough a path
 * for its socket). Throws when the run did not pass, or the stream or the
 * report does not show every test.
 */
export async function timedWitnessedPytest(
  cwd: string,
  options: { command: readonly string[]; path: string },
): Promise<number> {
  const root = await Deno.makeTempDir({ prefix: "pawl-w-" });
  try {
    const plugin = await installObserver(root);
    const report = `${root}/junit.xml`;
    const [program, ...args] = options.command as [string, ...string[]];
    const start = performance.now();
    const channel = await ObserverChannel.open(plugin);
    const out = await new Deno.Command(program, {
      args: [
        ...args,
        "-p",
        plugin.module,
        `--junitxml=${report}`,
        "-o",
        "junit_family=xunit2",
      ],
      cwd,
      clearEnv: true,
      env: {
        PATH: options.path,
        PYTHONDONTWRITEBYTECODE: "1",
        HOME: cwd,
        PYTHONPATH: plugin.dir,
        PAWL_OBSERVER_SOCKET: channel.path,
        PAWL_OBSERVER_TOKEN: channel.token,
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const observation = await channel.finish();
    const cases = parseJunit(await Deno.readTextFile(report));
    const seconds = (performance.now() - start) / 1000;
    if (
      out.code !== 0 || !observation.finished ||
      observation.outcomes.size !== cases.length
    ) {
      throw new Error(
        `witnessed pytest in ${cwd} exited ${out.code}, streamed ${observation.outcomes.size} outcomes for ${cases.length} cases: ${
          new TextDecoder().decode(out.stdout).slice(-2000)
        }`,
      );
    }
    return seconds;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
