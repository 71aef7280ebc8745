/**
 * Ask the interpreter the tests run with which module names belong to the
 * standard library and to installed distributions, so the harness rules
 * know what a new top-level module would shadow. It runs isolated (`-I`:
 * no environment variables, no user site, no current directory on the
 * path) from `/`, on nothing from the repository.
 *
 * @module
 */
import type { ModuleNames } from "../harness/check_harness.ts";
import { programCandidates } from "../core/program_candidates.ts";

const SCRIPT = `
import json, sys
names = {"stdlib": sorted(getattr(sys, "stdlib_module_names", ())), "installed": []}
try:
    import importlib.metadata as metadata
    names["installed"] = sorted(metadata.packages_distributions())
except Exception:
    pass
print(json.dumps(names))
`;

const cache = new Map<string, Promise<ModuleNames>>();

/** Options for {@linkcode readModuleNames}. */
export interface ReadModuleNamesOptions {
  /** `PATH` to find the interpreter in (the sandbox's). */
  path?: string;
}

/**
 * The module names of the interpreter `command[0]` names (`python3` when
 * the command is not a Python), cached per interpreter path. When none can
 * be run, `FALLBACK_MODULE_NAMES` of the harness rules (the verdict says so).
 */
export function readModuleNames(
  command: readonly string[],
  options: ReadModuleNamesOptions = {},
): Promise<ModuleNames> {
  const first = command[0] ?? "python3";
  const name = /(^|\/)python[0-9.]*$/.test(first) ? first : "python3";
  const resolved = resolve(
    name,
    options.path ?? "/usr/local/bin:/usr/bin:/bin",
  );
  if (resolved === undefined) return fallback();
  let names = cache.get(resolved);
  if (names === undefined) {
    names = ask(resolved);
    cache.set(resolved, names);
  }
  return names;
}

/**
 * Start asking the interpreter of a test environment now, so the answer
 * (cached per interpreter path, see {@linkcode readModuleNames}) is there
 * when the static rules need it: it takes Python a fifth of a second.
 */
export function prefetchModuleNames(
  environment: { command: readonly string[]; path?: string | undefined },
): void {
  void readModuleNames(
    environment.command,
    environment.path === undefined ? {} : { path: environment.path },
  );
}

function resolve(name: string, path: string): string | undefined {
  for (const candidate of programCandidates(name, path)) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) return candidate;
    } catch {
      // Not there: try the next directory.
    }
  }
  return undefined;
}

/**
 * `FALLBACK_MODULE_NAMES`, loaded only when needed: the harness rules'
 * module is not worth loading before the clone starts just for it.
 */
async function fallback(): Promise<ModuleNames> {
  return (await import("../harness/check_harness.ts")).FALLBACK_MODULE_NAMES;
}

async function ask(interpreter: string): Promise<ModuleNames> {
  try {
    const out = await new Deno.Command(interpreter, {
      args: ["-I", "-c", SCRIPT],
      cwd: "/",
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(15_000),
    }).output();
    if (!out.success) return await fallback();
    const parsed = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      stdlib: unknown;
      installed: unknown;
    };
    const strings = (value: unknown) =>
      Array.isArray(value)
        ? value.filter((v): v is string => typeof v === "string")
        : [];
    const stdlib = strings(parsed.stdlib);
    if (stdlib.length === 0) return await fallback();
    return {
      stdlib: new Set(stdlib),
      installed: new Set(strings(parsed.installed)),
      interpreter,
    };
  } catch {
    return await fallback();
  }
}
