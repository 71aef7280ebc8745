/**
 * Compare the verdicts of two checkouts of pawl, byte for byte: the demo's
 * sample patches, the src-layout project's heads, and every case of the
 * end-to-end tests that judge each layout's acceptance cases, each run by
 * the other checkout first and then by this one (see `TWIN_MAIN_ENV` in
 * tests/_cli.ts). A restructuring that should change no verdict is checked
 * with it against the commit it started from:
 *
 *     git clone -q . /tmp/pawl-old && git -C /tmp/pawl-old checkout -q START
 *     (cd /tmp/pawl-old && deno install --frozen)
 *     deno run --allow-all tools/compare_verdicts.ts /tmp/pawl-old [TEST_FILE...]
 *
 * With no test files it runs the layout tests (tests/layouts_test.ts,
 * tests/layout_002_test.ts, tests/layout_003_test.ts and
 * tests/decision_table_test.ts); `--no-tests` runs only the sample repos.
 * Exit 0 when every verdict is the same.
 *
 * @module
 */
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { check, ROOT, TWIN_MAIN_ENV } from "../tests/_cli.ts";
import { buildRepo } from "../tests/_repo.ts";
import { BASE, HEADS } from "../tests/_src_layout_project.ts";

/** The end-to-end tests run when none are named. */
const LAYOUT_TESTS = [
  "tests/layouts_test.ts",
  "tests/layout_002_test.ts",
  "tests/layout_003_test.ts",
  "tests/decision_table_test.ts",
];

async function say(line: string): Promise<void> {
  await Deno.stdout.write(new TextEncoder().encode(`${line}\n`));
}

/** Judge every head of `repo` with both checkouts; throws at the first difference. */
async function compareHeads(
  label: string,
  repo: string,
  heads: readonly string[],
): Promise<void> {
  for (const head of heads) {
    const result = await check(repo, head, { extra: ["--json"] });
    await say(`same verdict: ${label} ${head} (exit ${result.code})`);
  }
}

async function main(args: readonly string[]): Promise<number> {
  const [old, ...rest] = args;
  if (old === undefined || old.startsWith("-")) {
    await say(
      "Usage: deno run --allow-all tools/compare_verdicts.ts OLD_CHECKOUT [--no-tests | TEST_FILE...]",
    );
    return 2;
  }
  const twin = `${await Deno.realPath(old)}/main.ts`;
  await Deno.stat(twin);
  Deno.env.set(TWIN_MAIN_ENV, twin);
  const temp = await Deno.makeTempDir({ prefix: "pawl-compare-" });
  await Deno.chmod(temp, 0o755);
  try {
    const sample = await buildSampleRepo(`${temp}/sample`);
    await compareHeads(
      "demo",
      sample.dir,
      sample.patches.map((p) => p.branch),
    );
    await using src = await buildRepo({ base: BASE, heads: HEADS });
    await compareHeads("src layout", src.dir, Object.keys(HEADS));
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
  if (rest.includes("--no-tests")) return 0;
  const files = rest.length === 0 ? LAYOUT_TESTS : rest;
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", ...files],
    cwd: ROOT,
    env: { [TWIN_MAIN_ENV]: twin },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
