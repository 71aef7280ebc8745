/**
 * A cache directory only pawl's own user may enter: what pawl keeps there
 * (compiled bytecode, analyses) feeds later judgements, so nothing a test
 * run does may reach it.
 *
 * @module
 */

/**
 * Make `dir` (mode 0700; missing parents mode 0755, as the setup cache's)
 * and check it: a directory of pawl's uid that no one else may enter,
 * whose parent no one else may write (unless sticky). `{ dir }` when it
 * may be used, else `{ note }` saying why not, naming it as `what`.
 */
export async function privateCacheDir(
  dir: string,
  what: string,
): Promise<{ dir: string } | { note: string }> {
  if (!dir.startsWith("/")) {
    return {
      note: `the ${what} "${dir}" is not used: it is not an absolute path`,
    };
  }
  try {
    const parentDir = dir.replace(/\/[^/]+\/*$/, "") || "/";
    await Deno.mkdir(parentDir, { recursive: true, mode: 0o755 });
    await Deno.mkdir(dir, { mode: 0o700 }).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    const info = await Deno.lstat(dir);
    const parent = await Deno.stat(parentDir);
    const mode = info.mode ?? 0;
    const parentMode = parent.mode ?? 0;
    const why = !info.isDirectory
      ? "it is not a directory"
      : info.uid !== Deno.uid()
      ? `it is owned by uid ${info.uid}, not by pawl's uid ${Deno.uid()}`
      : (mode & 0o077) !== 0
      ? `others may enter it (mode ${
        (mode & 0o7777).toString(8)
      }; it must be 0700)`
      : (parentMode & 0o002) !== 0 && (parentMode & 0o1000) === 0
      ? "its parent directory is writable by anyone"
      : undefined;
    return why === undefined
      ? { dir }
      : { note: `the ${what} "${dir}" is not used: ${why}` };
  } catch (error) {
    return {
      note: `the ${what} "${dir}" is not used: ${
        error instanceof Error ? error.message : String(error)
      }`,
    };
  }
}

/**
 * The cache directory a setting names: `setting` when it names one, else
 * `system` when pawl runs as root (the system-wide default), else none.
 */
export function cacheDirFrom(
  setting: string | undefined,
  system: string,
): string | undefined {
  if (setting !== undefined && setting !== "") return setting;
  return Deno.uid() === 0 ? system : undefined;
}
