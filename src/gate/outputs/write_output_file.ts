/**
 * Write one of pawl's output files atomically (temp file + rename), so a
 * reader never sees half a verdict.
 *
 * @module
 */

/** Write `text` to `path` via a sibling temp file and a rename. */
export async function writeOutputFile(
  path: string,
  text: string,
): Promise<void> {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "." : path.slice(0, slash) || "/";
  const temp = await Deno.makeTempFile({
    dir,
    prefix: ".pawl-",
    suffix: ".tmp",
  });
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
