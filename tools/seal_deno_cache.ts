/**
 * Run once at the end of the image build: fold the write-ahead logs of
 * Deno's cache databases in DENO_DIR (the first argument) into the
 * databases themselves and switch them to a rollback journal, so the layer
 * holds each database as one consistent file that the image's launcher can
 * copy (tools/image_launcher.sh). Run it with another DENO_DIR, so the Deno
 * running it does not hold those databases open.
 *
 * ```sh
 * DENO_DIR=/tmp/seal deno run --allow-read --allow-write tools/seal_deno_cache.ts /deno-dir
 * ```
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";

const dir = Deno.args[0];
if (dir === undefined) throw new Error("usage: seal_deno_cache.ts DENO_DIR");
let sealed = 0;
for (const entry of Deno.readDirSync(dir)) {
  if (!entry.isFile || !/_v\d+$/.test(entry.name)) continue;
  const db = new DatabaseSync(`${dir}/${entry.name}`);
  try {
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.exec("PRAGMA journal_mode=DELETE");
  } finally {
    db.close();
  }
  sealed++;
}
if (sealed === 0) throw new Error(`no cache databases in "${dir}"`);
for (const entry of Deno.readDirSync(dir)) {
  if (/-(wal|shm)$/.test(entry.name)) {
    throw new Error(`"${dir}/${entry.name}" is still there after sealing`);
  }
}
