/**
 * The top-level module names a setup step made importable: what its
 * `python/` directory and a virtualenv's `lib/python*\/site-packages` hold.
 *
 * @module
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Top-level importable names under the setup output `envDir`, sorted. */
export async function listEnvModules(envDir: string): Promise<string[]> {
  const dirs = [`${envDir}/python`];
  for (const lib of await names(`${envDir}/lib`)) {
    if (/^python3(\.\d+)?$/.test(lib)) {
      dirs.push(`${envDir}/lib/${lib}/site-packages`);
    }
  }
  const out = new Set<string>();
  for (const dir of dirs) {
    for (const name of await names(dir)) {
      const module =
        /^([A-Za-z_][A-Za-z0-9_]*)(\.py|\.pyw|(\.[A-Za-z0-9_-]+)?\.so)$/
          .exec(name)?.[1];
      if (module !== undefined) out.add(module);
      else if (
        IDENTIFIER.test(name) && name !== "__pycache__" &&
        await isDir(`${dir}/${name}`)
      ) {
        out.add(name);
      }
    }
  }
  return [...out].sort();
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out;
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}
