/**
 * The real clone port: the git CLI, then the clone made private.
 *
 * @module
 */
import { cloneRepository } from "../git/clone_repository.ts";
import type { CloneRepository } from "./gate_ports.ts";

/**
 * Clone with the git CLI; the clone is then made private, because the
 * tests run as another uid and must not read it.
 */
export const cloneWithGit: CloneRepository = async (source, options) => {
  const git = await cloneRepository(source, options);
  try {
    await Deno.chmod(options.dest, 0o700);
  } catch (error) {
    await git.close();
    throw error;
  }
  return git;
};
