/**
 * The runner's cache of setup results: one directory per key under a
 * root-owned root, `<root>/<key>/env` (what the step wrote, sealed
 * read-only and root-owned) and `<root>/<key>/pawl-setup.json` (written
 * last, by rename: an entry without it is incomplete and is never used).
 * A step is built in place, because what it writes (a virtualenv's
 * scripts) names its own path; an exclusive flock on `<root>/<key>.lock`
 * makes concurrent judgements of one key build it once, the others wait
 * and then use it.
 *
 * @module
 */
import { lchown } from "node:fs/promises";
import { SetupFailedError } from "./setup_failed_error.ts";

/** What a complete entry records about the step that made it. */
export interface SetupManifest {
  /** The cache key. */
  key: string;
  /** argv of the setup command. */
  command: string[];
  /** Whether the step had the network. */
  network: boolean;
  /** The inputs: path and sha256 at the base. */
  inputs: { path: string; sha256: string }[];
  /** The base commit whose step made the entry. */
  base: string;
}

/** The paths of one entry. */
export interface SetupEntry {
  /** `<root>/<key>`. */
  dir: string;
  /** `<root>/<key>/env`: `$PAWL_ENV_DIR`. */
  envDir: string;
}

/** A held lock on one key. */
export interface SetupLock {
  /** Drop the lock. */
  release(): void;
}

/** Options for {@linkcode SetupCache.lock}. */
export interface SetupLockOptions {
  /** Told once when another judgement holds the key and this one waits. */
  onWait?: () => void;
}

const MANIFEST = "pawl-setup.json";

/** The setup cache at one root directory. */
export class SetupCache {
  /** The cache root (absolute). */
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /**
   * Open (creating, mode 0755) the cache root. Refused when it is not
   * owned by pawl's own user or others may write it: a test run could
   * then plant an entry every later judgement would trust.
   */
  static async open(root: string): Promise<SetupCache> {
    if (!root.startsWith("/")) {
      throw new SetupFailedError(
        `Cannot use the setup cache "${root}": expected an absolute path`,
      );
    }
    try {
      await Deno.mkdir(root, { recursive: true, mode: 0o755 });
    } catch (error) {
      throw new SetupFailedError(
        `Cannot create the setup cache "${root}": ${(error as Error).message}`,
        { cause: error },
      );
    }
    const real = await Deno.realPath(root);
    const info = await Deno.stat(real);
    const me = Deno.uid();
    if (me !== null && info.uid !== me) {
      throw new SetupFailedError(
        `Cannot use the setup cache "${root}": it is owned by uid ${info.uid}, not by pawl's uid ${me}`,
      );
    }
    if (((info.mode ?? 0) & 0o022) !== 0) {
      throw new SetupFailedError(
        `Cannot use the setup cache "${root}": others may write it (mode ${
          ((info.mode ?? 0) & 0o7777).toString(8)
        }); "chmod go-w" it`,
      );
    }
    return new SetupCache(real);
  }

  /** The paths of `key`'s entry. */
  entry(key: string): SetupEntry {
    checkKey(key);
    const dir = `${this.root}/${key}`;
    return { dir, envDir: `${dir}/env` };
  }

  /** The manifest of `key`'s entry when the entry is complete. */
  async lookup(key: string): Promise<SetupManifest | undefined> {
    const { dir, envDir } = this.entry(key);
    try {
      const info = await Deno.lstat(`${dir}/${MANIFEST}`);
      const env = await Deno.lstat(envDir);
      const me = Deno.uid();
      if (!info.isFile || !env.isDirectory) return undefined;
      if (me !== null && (info.uid !== me || env.uid !== me)) return undefined;
      const manifest = JSON.parse(
        await Deno.readTextFile(`${dir}/${MANIFEST}`),
      ) as SetupManifest;
      return manifest.key === key ? manifest : undefined;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      if (error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  /** Take the key's exclusive lock, waiting for another holder to finish. */
  async lock(key: string, options: SetupLockOptions = {}): Promise<SetupLock> {
    checkKey(key);
    const file = await Deno.open(`${this.root}/${key}.lock`, {
      read: true,
      write: true,
      create: true,
      mode: 0o600,
    });
    try {
      if (!await file.tryLock(true)) {
        options.onWait?.();
        await file.lock(true);
      }
    } catch (error) {
      file.close();
      throw error;
    }
    // Closing the descriptor drops the flock.
    return { release: () => file.close() };
  }

  /**
   * Start `key`'s entry afresh (an incomplete one is removed); hold the
   * lock. With `gid` (the step's own group) the entry stays closed to
   * every other uid until it is published, so no other judgement's tests
   * can reach a file of the step's while it is being made.
   */
  async begin(
    key: string,
    options: { gid?: number } = {},
  ): Promise<SetupEntry> {
    const entry = this.entry(key);
    await this.discard(key);
    await Deno.mkdir(entry.dir, { mode: 0o700 });
    if (options.gid !== undefined && Deno.uid() === 0) {
      await Deno.chown(entry.dir, 0, options.gid);
      await Deno.chmod(entry.dir, 0o750);
    } else {
      await Deno.chmod(entry.dir, 0o755);
    }
    await Deno.mkdir(entry.envDir, { mode: 0o755 });
    await Deno.chmod(entry.envDir, 0o755);
    return entry;
  }

  /** Mark `key`'s entry complete and open it to all: its manifest, written by rename. */
  async publish(manifest: SetupManifest): Promise<void> {
    const { dir } = this.entry(manifest.key);
    if (Deno.uid() === 0) await lchown(dir, 0, 0);
    await Deno.chmod(dir, 0o755);
    const temp = `${dir}/${MANIFEST}.tmp`;
    await Deno.writeTextFile(temp, JSON.stringify(manifest, null, 2) + "\n", {
      mode: 0o644,
    });
    await Deno.chmod(temp, 0o644);
    await Deno.rename(temp, `${dir}/${MANIFEST}`);
  }

  /** Remove `key`'s entry, whatever modes the step left in it; hold the lock. */
  async discard(key: string): Promise<void> {
    const { dir } = this.entry(key);
    try {
      await Deno.lstat(dir);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    await Deno.remove(dir, { recursive: true }).catch(async () => {
      await makeRemovable(dir);
      await Deno.remove(dir, { recursive: true });
    });
  }
}

function checkKey(key: string): void {
  if (!/^[0-9a-f]{64}$/.test(key)) {
    throw new RangeError(`Invalid setup key "${key}"`);
  }
}

/** Give every directory under `dir` its owner's rwx, so it can be emptied. */
async function makeRemovable(dir: string): Promise<void> {
  const info = await Deno.lstat(dir);
  if (!info.isDirectory) return;
  if (Deno.uid() === 0) await lchown(dir, 0, 0);
  await Deno.chmod(dir, 0o700);
  for await (const child of Deno.readDir(dir)) {
    await makeRemovable(`${dir}/${child.name}`);
  }
}
