// deno-lint-ignore-file no-console
/**
 * `deno task bench huge-tree`: `pawl check` on a head tree with many files
 * against `pawl diff` on the same pull request plus the test run's own
 * time: plain pytest (the sandbox's `python3 -m pytest -q`) in an export of
 * the same head tree, measured in the same run (collection walks every
 * file). The target: check(huge) <= 2 x diff(huge) + pytest(huge). It also
 * prints `pawl check` on the same tests without the extra files.
 *
 * The demo repository, plus a branch `huge` that adds `--files` small data
 * files (written with `git fast-import`, so building takes seconds).
 *
 * ```sh
 * deno task bench huge-tree [--files 100000] [--runs 1]
 * ```
 *
 * @module
 */
import { judgedArgs } from "./_judged_args.ts";
import { parseArgs } from "node:util";
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { loadAverage, median } from "./_stats.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;

/** Run the benchmark with `args`. */
export async function hugeTreeBench(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      files: { type: "string", default: "100000" },
      runs: { type: "string", default: "1" },
    },
    strict: true,
  });
  const files = Number(values.files);
  const runs = Number(values.runs);
  if (!Number.isInteger(files) || files < 1 || !Number.isInteger(runs)) {
    throw new RangeError("--files and --runs take positive whole numbers");
  }
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-huge-" });
  const trees: string[] = [];
  try {
    const repo = await buildSampleRepo(`${dir}/repo`);
    await addFiles(repo.dir, files);
    console.log(`huge-tree: demo repository plus ${files} files on "huge"`);
    const diff: number[] = [];
    const check: number[] = [];
    const small: number[] = [];
    const pytest: number[] = [];
    const tree = await exportHead(repo.dir, dir);
    trees.push(tree);
    for (let i = 0; i < runs; i++) {
      diff.push(await timed("diff", repo.dir, "huge"));
      check.push(await timed("check", repo.dir, "huge"));
      pytest.push(await plainPytest(tree));
      small.push(await timed("check", repo.dir, "agent/honest-fix"));
    }
    const [d, c, s, p] = [
      median(diff),
      median(check),
      median(small),
      median(pytest),
    ];
    const budget = 2 * d + p;
    console.log(
      `pawl diff (huge) ${d.toFixed(1)} s; pawl check (huge) ${
        c.toFixed(1)
      } s; plain pytest in the huge tree ${p.toFixed(1)} s; ` +
        `pawl check (same tests, small tree) ${s.toFixed(1)} s; ` +
        `median of ${runs}, ${navigator.hardwareConcurrency} cores, load ${loadAverage()}`,
    );
    console.log(
      `${c <= budget ? "PASS" : "OVER"}: check ${
        c.toFixed(1)
      } s vs 2 x diff + the test run's own time ${budget.toFixed(1)} s`,
    );
    console.log(
      `  (against pawl check of the small tree instead: 2 x diff + ${
        s.toFixed(1)
      } s = ${(2 * d + s).toFixed(1)} s)`,
    );
  } finally {
    await Promise.all(
      [dir, ...trees].map((d) =>
        Deno.remove(d, { recursive: true }).catch(() => undefined)
      ),
    );
  }
}

/** Add `count` files under data/ on a new branch `huge` off main. */
async function addFiles(dir: string, count: number): Promise<void> {
  const child = new Deno.Command("git", {
    args: ["-C", dir, "fast-import", "--quiet"],
    stdin: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  await writer.write(encoder.encode(
    "commit refs/heads/huge\ncommitter bench <bench@example.invalid> 1700000000 +0000\ndata 14\nadd many files\nfrom refs/heads/agent/honest-fix\n",
  ));
  let chunk = "";
  for (let i = 0; i < count; i++) {
    const content = `v = ${i}\n`;
    chunk += `M 100644 inline data/d${Math.floor(i / 1000)}/f${i}.txt\ndata ${
      encoder.encode(content).length
    }\n${content}`;
    if (chunk.length > 1 << 20) {
      await writer.write(encoder.encode(chunk));
      chunk = "";
    }
  }
  await writer.write(encoder.encode(`${chunk}\n`));
  await writer.close();
  const status = await child.status;
  if (!status.success) throw new Error("git fast-import failed");
}

/**
 * The head of "huge" exported where pawl puts a huge tree's shared copies
 * (`/dev/shm` when it is there), so plain pytest walks the same file system.
 */
async function exportHead(repo: string, dir: string): Promise<string> {
  let parent = dir;
  try {
    if ((await Deno.stat("/dev/shm")).isDirectory) parent = "/dev/shm";
  } catch {
    // No /dev/shm: the temp dir.
  }
  const tree = await Deno.makeTempDir({
    dir: parent,
    prefix: "pawl-bench-tree-",
  });
  const out = await new Deno.Command("sh", {
    args: ["-c", 'git -C "$1" archive huge | tar -x -C "$2"', "sh", repo, tree],
  }).output();
  if (!out.success) throw new Error("exporting the huge tree failed");
  return tree;
}

/** Plain pytest in `tree`, as the sandbox runs it (minimal environment). */
async function plainPytest(tree: string): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command("python3", {
    args: ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    cwd: tree,
    clearEnv: true,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      PYTHONDONTWRITEBYTECODE: "1",
      HOME: tree,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - start) / 1000;
  if (!out.success) {
    throw new Error(
      `plain pytest in the huge tree exited ${out.code}: ${
        new TextDecoder().decode(out.stdout).slice(-2000)
      }`,
    );
  }
  return seconds;
}

async function timed(
  command: "diff" | "check",
  repo: string,
  head: string,
): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      MAIN_TS,
      command,
      ...judgedArgs(repo, head),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - start) / 1000;
  if (out.code !== 0) {
    throw new Error(
      `pawl ${command} --head ${head} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return seconds;
}
