/**
 * Write one of pawl's output files atomically (temp file + rename), so a
 * reader never sees half a verdict.
 *
 * @module
 */

/** Options for {@linkcode writeOutputFile}. */
export interface WriteOutputFileOptions {
  /**
   * The file's mode, whatever the umask (default 0644: reports are read by
   * later CI steps that may run as another user, such as a SARIF upload).
   */
  mode?: number;
}

/**
 * Write `text` to `path` via a temp file in the same directory (the one the
 * user named) and a rename; the file ends up with `options.mode`.
 */
export async function writeOutputFile(
  path: string,
  text: string,
  options: WriteOutputFileOptions = {},
): Promise<void> {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "." : path.slice(0, slash) || "/";
  // makeTempFile creates the file 0600; the rename keeps the mode set here.
  const temp = await Deno.makeTempFile({
    dir,
    prefix: ".pawl-",
    suffix: ".tmp",
  });
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.chmod(temp, options.mode ?? 0o644);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Append `text` to `path` (the seed ledger). A file pawl creates gets
 * `options.mode` (default 0644) whatever the umask, like the reports; an
 * existing file keeps the mode its owner gave it.
 */
export async function appendOutputFile(
  path: string,
  text: string,
  options: WriteOutputFileOptions = {},
): Promise<void> {
  const existed = await Deno.lstat(path).then(() => true, (error) => {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  });
  await Deno.writeTextFile(path, text, { append: true, createNew: !existed });
  if (!existed) await Deno.chmod(path, options.mode ?? 0o644);
}
