/**
 * Make what a setup step wrote safe to share with every later test run:
 * owned by pawl's user, readable by all, writable by none but pawl, no
 * setuid bits, no hard links to files elsewhere, nothing but files,
 * directories and symlinks. Runs after every process of the step's uid is
 * gone, so nothing changes under it.
 *
 * @module
 */
import { lchown } from "node:fs/promises";
import { SetupFailedError } from "./setup_failed_error.ts";

/** Options for {@linkcode sealEnvDir}. */
export interface SealEnvDirOptions {
  /**
   * The uid the step ran as: everything in the tree must be its own (a
   * file of anyone else's got there by a hard link or a rename and is
   * refused). Undefined when the step ran as pawl's own user.
   */
  uid?: number | undefined;
}

/** Seal the tree under `dir`, `dir` included. */
export async function sealEnvDir(
  dir: string,
  options: SealEnvDirOptions = {},
): Promise<void> {
  const owner = Deno.uid();
  // Beside the tree, in a directory only pawl writes, so it cannot be a
  // name the step chose.
  const scratch = `${dir.replace(/\/[^/]*$/, "")}/.pawl-unlink`;
  const seal = async (path: string): Promise<void> => {
    const info = await Deno.lstat(path);
    if (
      options.uid !== undefined && info.uid !== options.uid &&
      !(path === dir && info.uid === owner)
    ) {
      throw new SetupFailedError(
        `Cannot use what the setup step wrote: "${path}" is owned by uid ${info.uid}, not by the step's uid ${options.uid}`,
      );
    }
    if (info.isSymlink) {
      if (owner === 0) await lchown(path, 0, 0);
      return;
    }
    if (info.isDirectory) {
      if (owner === 0) await lchown(path, 0, 0);
      await Deno.chmod(path, 0o755);
      for await (const child of Deno.readDir(path)) {
        await seal(`${path}/${child.name}`);
      }
      return;
    }
    if (!info.isFile) {
      // A FIFO or socket left behind is of no use to the tests.
      await Deno.remove(path);
      return;
    }
    if (info.nlink !== null && info.nlink > 1) await unlinkCopy(path, scratch);
    if (owner === 0) await lchown(path, 0, 0);
    await Deno.chmod(path, ((info.mode ?? 0) & 0o111) !== 0 ? 0o755 : 0o644);
  };
  await seal(dir);
}

/** Replace a hard-linked file by a copy of its own, so sealing it seals nothing else. */
async function unlinkCopy(path: string, scratch: string): Promise<void> {
  await Deno.copyFile(path, scratch);
  await Deno.rename(scratch, path);
}
