// deno-lint-ignore-file no-console
/**
 * `deno task bench cold-start`: a cold process of `pawl version` and
 * `pawl --help` in each form pawl is started in (`deno run main.ts`, which
 * `deno task pawl` runs; the `bin/pawl` launcher; a `deno compile`d binary
 * where one can be built here), against the floor measured in the same
 * run: a bare `true` process, `deno eval 0` and `deno run` of an empty
 * file. Rounds interleave every command, so a busy machine slows all alike;
 * medians are printed. The target: each form at or below 0.10 s.
 *
 * When pawl's image is built (`sh tools/build_image.sh`), the same commands
 * also run inside it as the docs run it (`docker run --read-only --tmpfs
 * /tmp`): its file system mounted read-only, a fresh empty /tmp each time,
 * entered with chroot in a private mount namespace. There the floor is a
 * bare `true` entered the same way, and the target applies to the time
 * over that floor (entering a container is the runtime's cost, not
 * pawl's).
 *
 * ```sh
 * deno task bench cold-start [--runs 11] [--image localhost/pawl:ci]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { loadAverage, median } from "./_stats.ts";

/** A cold `pawl version` / `pawl --help` must take at most this long. */
const TARGET_MS = 100;

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** One command line to time. */
interface Probe {
  label: string;
  argv: string[];
}

/** Run the benchmark with `args`; prints its lines on stdout. */
export async function coldStartBench(args: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      runs: { type: "string", default: "11" },
      image: { type: "string", default: "localhost/pawl:ci" },
    },
    strict: true,
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new RangeError("--runs takes a positive whole number");
  }
  const dir = await Deno.makeTempDir({ prefix: "pawl-bench-start-" });
  let mounted = false;
  try {
    await Deno.writeTextFile(`${dir}/empty.js`, "");
    const deno = Deno.execPath();
    const floors: Probe[] = [
      { label: "true", argv: ["true"] },
      { label: "deno eval 0", argv: [deno, "eval", "0"] },
      {
        label: "deno run (empty file)",
        argv: [deno, "run", "--no-config", `${dir}/empty.js`],
      },
    ];
    const forms: { name: string; argv: string[] }[] = [
      {
        name: "deno run main.ts",
        argv: [deno, "run", "--allow-all", `${ROOT}/main.ts`],
      },
      { name: "bin/pawl", argv: ["sh", `${ROOT}/bin/pawl`] },
    ];
    const compiled = await compileBinary(dir);
    if (typeof compiled === "string") {
      forms.push({ name: "deno compile binary", argv: [compiled] });
    }
    const image = await enterImage(values.image);
    mounted = Array.isArray(image);
    const imageFloor: Probe | undefined = Array.isArray(image)
      ? { label: "true in the image", argv: [...image, "true"] }
      : undefined;
    const imageForms = Array.isArray(image)
      ? [{ name: "in the image: pawl", argv: [...image, "pawl"] }]
      : [];
    const commands = (f: { name: string; argv: string[] }): Probe[] => [
      { label: `${f.name} version`, argv: [...f.argv, "version"] },
      { label: `${f.name} --help`, argv: [...f.argv, "--help"] },
      { label: `${f.name} check --help`, argv: [...f.argv, "check", "--help"] },
    ];
    const probes: Probe[] = [
      ...floors,
      ...(imageFloor ? [imageFloor] : []),
      ...forms.flatMap(commands),
      ...imageForms.flatMap(commands),
    ];
    // One untimed round: the V8 code cache and the page cache are warm for
    // every probe alike, as after an install.
    for (const probe of probes) await timeOnce(probe);
    const times = new Map<string, number[]>(probes.map((p) => [p.label, []]));
    for (let i = 0; i < runs; i++) {
      for (const probe of probes) {
        times.get(probe.label)?.push(await timeOnce(probe));
      }
    }
    const med = (label: string) => median(times.get(label) ?? []);
    console.log(
      `cold start, median of ${runs} interleaved rounds; ${navigator.hardwareConcurrency} cores, load ${loadAverage()}`,
    );
    for (const floor of [...floors, ...(imageFloor ? [imageFloor] : [])]) {
      console.log(`  floor ${floor.label}: ${ms(med(floor.label))}`);
    }
    const evalMs = med("deno eval 0");
    for (const probe of forms.flatMap(commands)) {
      const t = med(probe.label);
      console.log(
        `  ${probe.label}: ${ms(t)} (${
          (t / evalMs).toFixed(2)
        }x deno eval 0, +${ms(t - evalMs)}) ${verdictOf(probe.label, t)}`,
      );
    }
    if (typeof compiled !== "string") {
      console.log(`  deno compile binary: not measured: ${compiled.reason}`);
    }
    if (imageFloor) {
      const floorMs = med(imageFloor.label);
      for (const probe of imageForms.flatMap(commands)) {
        const t = med(probe.label);
        console.log(
          `  ${probe.label}: ${ms(t)} (+${
            ms(t - floorMs)
          } over true in the image) ${verdictOf(probe.label, t - floorMs)}`,
        );
      }
    } else if (!Array.isArray(image)) {
      console.log(`  in the image: not measured: ${image.reason}`);
    }
  } finally {
    // Only a mounted image is unmounted: without podman, spawning it throws
    // before any promise exists to catch.
    if (mounted) {
      await new Deno.Command("podman", {
        args: ["image", "unmount", values.image],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output().catch(() => undefined);
    }
    await Deno.remove(dir, { recursive: true }).catch(() => undefined);
  }
}

/**
 * PASS/OVER for `pawl version` and `pawl --help`; `check --help` loads the
 * whole gate's code and is printed for what it costs, without a target.
 */
function verdictOf(label: string, ms: number): string {
  if (label.endsWith(" check --help")) return "(the gate's code; no target)";
  return `${ms <= TARGET_MS ? "PASS" : "OVER"} (target ≤ ${TARGET_MS} ms)`;
}

/**
 * Mount `image` read-only (podman image mount): the command line that runs
 * a command inside it, or why the image cannot be measured.
 */
async function enterImage(
  image: string,
): Promise<string[] | { reason: string }> {
  const quiet = { stdin: "null", stdout: "piped", stderr: "piped" } as const;
  let mount;
  try {
    const exists = await new Deno.Command("podman", {
      args: ["image", "exists", image],
      ...quiet,
    }).output();
    if (!exists.success) {
      return {
        reason: `no image ${image} (sh tools/build_image.sh builds it)`,
      };
    }
    mount = await new Deno.Command("podman", {
      args: ["image", "mount", image],
      ...quiet,
    }).output();
  } catch (error) {
    return { reason: `podman cannot run here: ${String(error)}` };
  }
  const root = new TextDecoder().decode(mount.stdout).trim();
  if (!mount.success || root === "") {
    return {
      reason: `podman image mount ${image} failed: ${
        new TextDecoder().decode(mount.stderr).trim()
      }`,
    };
  }
  // Like `docker run --read-only --tmpfs /tmp`: the image's files as they
  // are (podman mounts them read-only), a fresh /tmp at every start.
  return [
    "unshare",
    "--mount",
    "sh",
    `${ROOT}/tools/enter_image.sh`,
    root,
    "",
    "",
  ];
}

/** `deno compile` main.ts into `dir`; the binary, or why there is none. */
async function compileBinary(
  dir: string,
): Promise<string | { reason: string }> {
  const output = `${dir}/pawl`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "--allow-all",
      "--quiet",
      "--output",
      output,
      `${ROOT}/main.ts`,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.success) return output;
  const text = new TextDecoder().decode(out.stderr);
  // Deno's error chain, one line, without the backtrace.
  const why = text.split("Stack backtrace")[0]?.replace(/\s+/g, " ").trim()
    .slice(0, 300);
  return { reason: `deno compile failed: ${why}` };
}

async function timeOnce(probe: Probe): Promise<number> {
  const [program, ...args] = probe.argv;
  const start = performance.now();
  const out = await new Deno.Command(program as string, {
    args,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  const elapsed = performance.now() - start;
  if (!out.success) {
    throw new Error(`"${probe.argv.join(" ")}" exited ${out.code}`);
  }
  return elapsed;
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
