/**
 * Finding an executable file by absolute path: the system tools pawl runs
 * as root, and the interpreter the tests' PATH finds.
 *
 * @module
 */

/** Where system tools are looked up; /usr/local is left out on purpose. */
export const SYSTEM_DIRS: readonly string[] = [
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
];

/** The absolute path of executable `name` in `dirs`, or undefined. */
export async function findExecutable(
  name: string,
  dirs: readonly string[],
): Promise<string | undefined> {
  for (const dir of dirs) {
    const path = `${dir}/${name}`;
    if (await isExecutableFile(path)) return path;
  }
  return undefined;
}

/** Whether `path` is a file someone may execute (following links). */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    // The mode is null only where there are no mode bits (Windows).
    return info.isFile && ((info.mode ?? 0) & 0o111) !== 0;
  } catch {
    return false;
  }
}
