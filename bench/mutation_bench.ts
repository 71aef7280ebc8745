// deno-lint-ignore-file no-console
/**
 * `deno task bench mutation`: the oracle-strength rule's cost on a
 * project's suite: by default the demo project (the invoice parser and
 * its Hypothesis properties) and one honest pull request (a property's
 * example count raised); with `--repo DIR --base REV --head REV`, a copy
 * of your own repository and pull request (the repository is cloned, never
 * written). `pawl check` on a base with `[mutation]` on, with an empty
 * runner cache and again with the cache it left, against the same check
 * on a base with `[mutation]` off. Prints mutants run per second of added
 * time, the rule's overhead, and PASS/OVER against `budget_seconds`.
 *
 * ```sh
 * deno task bench mutation [--runs 1] [--max-mutants 60] [--budget 600] \
 *     [--repo DIR --base REV --head REV]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { buildSampleRepo } from "../src/demo/build_sample_repo.ts";
import { commitAll, FIXED_GIT_ENV } from "../src/demo/fixed_git.ts";

const NOW = "2026-11-30T12:00:00Z";
const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const CODEC = "tests/properties/test_codec.py";

/** Run the benchmark with `args`. */
export async function mutationBench(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      runs: { type: "string", default: "1" },
      "max-mutants": { type: "string", default: "60" },
      budget: { type: "string", default: "600" },
      repo: { type: "string" },
      base: { type: "string", default: "main" },
      head: { type: "string" },
    },
    strict: true,
  });
  const runs = Number(values.runs);
  const maxMutants = Number(values["max-mutants"]);
  const budget = Number(values.budget);
  if (![runs, maxMutants, budget].every((n) => Number.isInteger(n) && n > 0)) {
    throw new RangeError(
      "--runs, --max-mutants and --budget take positive whole numbers",
    );
  }
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-mutation-" });
  try {
    const repo = { dir: `${dir}/repo` };
    const own = values.repo;
    let base = "main";
    let head = "";
    if (own === undefined) await buildSampleRepo(repo.dir);
    else {
      if (values.head === undefined) {
        throw new RangeError("--repo needs --head REV (and --base REV)");
      }
      const commit = async (rev: string) =>
        new TextDecoder().decode(
          await git(own, ["rev-parse", "--verify", `${rev}^{commit}`]),
        ).trim();
      base = await commit(values.base);
      head = await commit(values.head);
      await git(dir, ["clone", "-q", "--no-local", own, repo.dir]);
    }
    for (const on of [true, false]) {
      const table =
        `[mutation]\nenabled = ${on}\nmax_mutants = ${maxMutants}\nbudget_seconds = ${budget}\n`;
      await git(repo.dir, [
        "checkout",
        "-q",
        "-b",
        on ? "bench/on" : "bench/off",
        base,
      ]);
      const settings = await Deno.readTextFile(`${repo.dir}/pawl.toml`).catch(
        () => "",
      );
      await Deno.writeTextFile(
        `${repo.dir}/pawl.toml`,
        `${withoutMutationTable(settings)}\n${table}`,
      );
      await commitAll(repo.dir, "Bench: [mutation]");
      await git(repo.dir, [
        "checkout",
        "-q",
        "-b",
        on ? "bench/on-pr" : "bench/off-pr",
      ]);
      if (own === undefined) {
        const codec = await Deno.readTextFile(`${repo.dir}/${CODEC}`);
        await Deno.writeTextFile(
          `${repo.dir}/${CODEC}`,
          codec.replace("max_examples=80", "max_examples=100"),
        );
      } else {
        // The pull request's changes (but to pawl.toml) on top of that base.
        const diff = await git(repo.dir, [
          "diff",
          "--binary",
          base,
          head,
          "--",
          ".",
          ":(exclude)pawl.toml",
        ]);
        await git(repo.dir, ["apply", "--index", "-"], diff);
      }
      await commitAll(repo.dir, "Bench: the pull request");
      await git(repo.dir, ["checkout", "-q", base]);
    }
    console.log(
      `mutation: ${
        own ?? "demo project"
      }, [mutation] max_mutants = ${maxMutants}, budget_seconds = ${budget}`,
    );
    const fresh: Run[] = [];
    const cached: Run[] = [];
    const off: Run[] = [];
    for (let i = 0; i < runs; i++) {
      // A TMPDIR of its own (short: the observer's socket path lives under
      // it) holds a fresh runner cache for this round.
      const tmp = await Deno.makeTempDir({ prefix: "pm-" });
      try {
        await Deno.chmod(tmp, 0o755);
        fresh.push(await timed(repo.dir, "bench/on", "bench/on-pr", tmp));
        cached.push(await timed(repo.dir, "bench/on", "bench/on-pr", tmp));
        off.push(await timed(repo.dir, "bench/off", "bench/off-pr", tmp));
      } finally {
        await Deno.remove(tmp, { recursive: true }).catch(() => {});
      }
    }
    const [f, c, o] = [median(fresh), median(cached), median(off)];
    const m = fresh[0]?.mutation;
    const ran = m?.ran ?? 0;
    const added = Math.max(0.001, f.seconds - o.seconds);
    console.log(
      `pawl check without mutation ${o.seconds.toFixed(1)} s; with mutation ${
        f.seconds.toFixed(1)
      } s (empty cache), ${c.seconds.toFixed(1)} s (cached)`,
    );
    console.log(
      `mutants: ${ran} ran of ${m?.generated ?? 0} generated, ${
        m?.killed ?? 0
      } killed, ${m?.survived ?? 0} survived, ${m?.timedOut ?? 0} timed out; ${
        (ran / added).toFixed(2)
      } mutants/s; overhead ${added.toFixed(1)} s (${
        (f.seconds / o.seconds).toFixed(2)
      }x the check without it); cached re-run ${c.mutation?.cached ?? 0}/${
        c.mutation?.ran ?? 0
      } from the cache`,
    );
    console.log(
      `${added <= budget ? "PASS" : "OVER"}: the rule added ${
        added.toFixed(1)
      } s against a budget of ${budget} s`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

interface Run {
  seconds: number;
  mutation: Record<string, number> | undefined;
}

/** `pawl.toml` without its `[mutation]` table, which the bench sets. */
function withoutMutationTable(text: string): string {
  return text.replace(/^\[mutation\][^]*?(?=^\[|(?![^]))/m, "");
}

async function git(
  cwd: string,
  args: readonly string[],
  stdin?: Uint8Array,
): Promise<Uint8Array> {
  const child = new Deno.Command("git", {
    args: [...args],
    cwd,
    env: FIXED_GIT_ENV,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(stdin);
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(
      `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
  return out.stdout;
}

async function timed(
  repo: string,
  base: string,
  head: string,
  tmp: string,
): Promise<Run> {
  const out = `${tmp}/verdict.json`;
  const started = performance.now();
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      MAIN_TS,
      "check",
      "--repo",
      repo,
      "--base",
      base,
      "--head",
      head,
      "--now",
      NOW,
      "--quiet",
      "--out",
      out,
    ],
    env: { TMPDIR: tmp, NO_COLOR: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  // An accept or a reject is a measurement; only "could not decide" is not.
  if (result.code !== 0 && result.code !== 1) {
    throw new Error(
      `pawl check ${head} exited ${result.code}: ${
        new TextDecoder().decode(result.stderr).slice(-2000)
      }`,
    );
  }
  const verdict = JSON.parse(await Deno.readTextFile(out));
  return { seconds, mutation: verdict.tests?.mutation };
}

function median(runs: readonly Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(sorted.length / 2)] as Run;
}
