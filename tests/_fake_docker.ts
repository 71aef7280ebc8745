/**
 * A stand-in for `docker run IMAGE ARGS...` in the CI recipes' tests, where
 * no container engine exists: it checks the options are ones the recipes
 * may use, maps each container path of a `-v` mount back to its host path
 * (in arguments and `-e` values), and runs this checkout's `main.ts` with
 * only the `-e` environment — so a recipe that forgets a mount or a
 * variable fails here as it would in the container.
 *
 *     deno run -A tests/_fake_docker.ts run [options] pawl:TAG ARGS...
 *
 * @module
 */
import { activeMutantEnv } from "./_mutant_env.ts";

const WITH_VALUE = new Set([
  "-v",
  "--volume",
  "-e",
  "--env",
  "--tmpfs",
  "--pids-limit",
  "--memory",
  "--cap-drop",
  "--cap-add",
  "--security-opt",
  "--network",
  "-w",
  "--workdir",
]);
const BOOLEAN = new Set(["--rm", "--init", "--read-only"]);

async function main(argv: string[]): Promise<number> {
  if (argv[0] !== "run") return fail(`only "docker run" is supported`);
  const mounts: [string, string][] = [];
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: "/root",
    NO_COLOR: "1",
  };
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("-")) break;
    if (BOOLEAN.has(arg)) continue;
    if (!WITH_VALUE.has(arg)) return fail(`unexpected docker option "${arg}"`);
    const value = argv[++i];
    if (value === undefined) return fail(`"${arg}" needs a value`);
    if (arg === "-v" || arg === "--volume") {
      const [src, dst] = value.split(":");
      if (!src?.startsWith("/") || !dst?.startsWith("/")) {
        return fail(`mount "${value}" must be absolute host:container`);
      }
      mounts.push([dst, src]);
    } else if (arg === "-e" || arg === "--env") {
      const eq = value.indexOf("=");
      if (eq < 0) {
        const passed = Deno.env.get(value);
        if (passed !== undefined) env[value] = passed;
      } else {
        env[value.slice(0, eq)] = value.slice(eq + 1);
      }
    }
  }
  const image = argv[i];
  if (image === undefined || !/^pawl:[\w.-]+$/.test(image)) {
    return fail(`expected the pawl image, got "${image}"`);
  }
  mounts.sort((a, b) => b[0].length - a[0].length);
  const toHost = (text: string): string => {
    for (const [dst, src] of mounts) {
      if (text === dst || text.startsWith(`${dst}/`)) {
        return src + text.slice(dst.length);
      }
    }
    return text;
  };
  for (const [name, value] of Object.entries(env)) env[name] = toHost(value);
  const args = argv.slice(i + 1).map((arg) => {
    const eq = arg.indexOf("=");
    return arg.startsWith("--") && eq > 0
      ? `${arg.slice(0, eq + 1)}${toHost(arg.slice(eq + 1))}`
      : toHost(arg);
  });
  const main = new URL("../main.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", main, ...args],
    clearEnv: true,
    env: { ...activeMutantEnv(), ...env },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return out.code;
}

function fail(message: string): number {
  Deno.stderr.writeSync(new TextEncoder().encode(`fake docker: ${message}\n`));
  return 125;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
