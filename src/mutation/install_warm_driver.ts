/**
 * pawl's warm mutant driver on disk: `warm_driver/pawl_warm_driver.py`
 * copied into a root-owned, read-only directory outside every tree the
 * tests can write, as pawl's observer plugin is, so nothing the tests run
 * can edit it.
 *
 * @module
 */
import { createHash } from "node:crypto";

const DRIVER_SOURCE = new URL(
  "./warm_driver/pawl_warm_driver.py",
  import.meta.url,
);

/** Where the driver was put. */
export interface WarmDriver {
  /** Root-owned directory holding only the driver (mode 0555); the sandbox sees it read-only. */
  dir: string;
  /** The driver script, readable by every uid and writable by none. */
  path: string;
  /** SHA-256 of its source: what ran the mutants, for caches. */
  sha256: string;
}

/** Copy the driver under `root` (pawl's private job directory). */
export async function installWarmDriver(root: string): Promise<WarmDriver> {
  const suffix = [...crypto.getRandomValues(new Uint8Array(8))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const dir = `${root}/driver-${suffix}`;
  await Deno.mkdir(dir, { mode: 0o755 });
  const path = `${dir}/pawl_warm_driver.py`;
  const source = await Deno.readFile(DRIVER_SOURCE);
  await Deno.writeFile(path, source, { mode: 0o444, createNew: true });
  await Deno.chmod(path, 0o444);
  await Deno.chmod(dir, 0o555);
  const sha256 = createHash("sha256").update(source).digest("hex");
  return { dir, path, sha256 };
}
