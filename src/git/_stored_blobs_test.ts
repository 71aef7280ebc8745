import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { PackIndex } from "./_pack_index.ts";
import {
  IN_THREAD_MAX_BYTES,
  sha256BlobsInWorkers,
} from "./_sha256_blobs_in_worker.ts";
import { StoredBlobs } from "./_stored_blobs.ts";
import { catBlob, git, writeFiles } from "./_test_repo.ts";

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Deterministic bytes that compress poorly (like images). */
function noise(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** Bytes that do not compress at all: SHA-256 in counter mode. */
function random(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let at = 0, block = 0; at < size; at += 32, block++) {
    const digest = createHash("sha256").update(`${seed}:${block}`).digest();
    bytes.set(digest.subarray(0, Math.min(32, size - at)), at);
  }
  return bytes;
}

/** A text of numbered lines, ~`lines` × 40 bytes. */
function lines(count: number, changed = -1): string {
  return Array.from(
    { length: count },
    (_, i) => `line ${i}: ${i === changed ? "CHANGED" : "the same words"}\n`,
  ).join("");
}

/**
 * A repository with a text, a binary, an empty file, a 3 MiB file that
 * compresses well, 1.5 MiB that does not at all, 9 MiB of zeros, and two
 * near-identical large texts (so a repack stores one as a delta): small
 * objects are inflated whole, objects stored or inflated bigger stream.
 */
async function makeRepo(root: string): Promise<{
  work: string;
  gitDir: string;
  oids: Map<string, string>;
}> {
  const work = `${root}/work`;
  await Deno.mkdir(work);
  await git(work, "init", "-q");
  await writeFiles(work, {
    "a.txt": "alpha\n",
    "empty": "",
    "noise.bin": noise(200_000, 1),
    "big.bin": noise(3 * 1024 * 1024 + 7, 2),
    "random.bin": random(1536 * 1024 + 3, 3),
    "zeros.bin": new Uint8Array(9 * 1024 * 1024),
    "v1.txt": lines(20_000),
    "v2.txt": lines(20_000, 777),
  });
  await git(work, "add", "-A");
  await git(work, "commit", "-q", "-m", "files");
  const oids = new Map<string, string>();
  for (const line of (await git(work, "ls-tree", "HEAD")).trim().split("\n")) {
    const [meta, path] = line.split("\t") as [string, string];
    oids.set(path, meta.split(" ")[2] as string);
  }
  return { work, gitDir: `${work}/.git`, oids };
}

/** What git says each blob holds, hashed. */
async function truth(
  work: string,
  oids: Map<string, string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const oid of oids.values()) {
    out.set(oid, sha256(await catBlob(work, oid)));
  }
  return out;
}

/**
 * `readSmall` gives the bytes git gives for each blob small enough to be
 * read whole (and not a delta), and nothing for the rest or past `maxBytes`.
 */
async function readsSmallBlobs(
  store: StoredBlobs,
  work: string,
  oids: Map<string, string>,
  deltas: ReadonlySet<string>,
): Promise<void> {
  // Stored in at most 1 MiB and at most 8 MiB inflated: the rest stream.
  const whole = new Set(["a.txt", "empty", "noise.bin", "big.bin"]);
  for (const text of ["v1.txt", "v2.txt"]) {
    if (!deltas.has(oids.get(text) as string)) whole.add(text);
  }
  for (const [path, oid] of oids) {
    const bytes = await catBlob(work, oid);
    const read = store.readSmall(oid, Number.POSITIVE_INFINITY);
    if (whole.has(path)) {
      deepEqual(read, bytes, path);
      equal(store.readSmall(oid, bytes.length)?.length, bytes.length, path);
      if (bytes.length > 0) {
        equal(store.readSmall(oid, bytes.length - 1), undefined, path);
      }
    } else {
      equal(read, undefined, path);
    }
  }
  equal(store.readSmall("0".repeat(40), 1 << 20), undefined, "missing");
  equal(store.readSmall("HEAD", 1 << 20), undefined, "not an id");
}

async function withRepo(
  fn: (repo: Awaited<ReturnType<typeof makeRepo>>) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "pawl-stored-blobs-" });
  try {
    await fn(await makeRepo(root));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("StoredBlobs reads loose blobs as git does", async () => {
  await withRepo(async ({ work, gitDir, oids }) => {
    const expected = await truth(work, oids);
    const store = await StoredBlobs.open(gitDir);
    try {
      equal(store.packCount, 0);
      for (const [path, oid] of oids) {
        equal(await store.sha256(oid), expected.get(oid), path);
      }
      await readsSmallBlobs(store, work, oids, new Set());
      const tree = (await git(work, "rev-parse", "HEAD^{tree}")).trim();
      equal(await store.sha256(tree), undefined, "a tree is left to git");
      equal(await store.sha256("0".repeat(40)), undefined, "missing");
      equal(await store.sha256("HEAD"), undefined, "not an id");
    } finally {
      store.close();
    }
  });
});

Deno.test("StoredBlobs reads whole packed blobs and leaves deltas to git", async () => {
  await withRepo(async ({ work, gitDir, oids }) => {
    await git(work, "repack", "-a", "-d", "-f", "-q", "--window=10");
    await git(work, "prune-packed");
    const expected = await truth(work, oids);
    const verify = await git(
      work,
      "verify-pack",
      "-v",
      ...(await Array.fromAsync(Deno.readDir(`${gitDir}/objects/pack`)))
        .filter((e) => e.name.endsWith(".idx"))
        .map((e) => `${gitDir}/objects/pack/${e.name}`),
    );
    // Rows of deltified objects carry a depth and a base id.
    const deltas = new Set(
      verify.split("\n").map((row) => row.split(/\s+/))
        .filter((fields) => fields[1] === "blob" && fields.length >= 7)
        .map((fields) => fields[0] as string),
    );
    equal(deltas.size, 1, "one of the near-identical texts is a delta");

    const store = await StoredBlobs.open(gitDir);
    try {
      equal(store.packCount, 1);
      for (const [path, oid] of oids) {
        equal(
          await store.sha256(oid),
          deltas.has(oid) ? undefined : expected.get(oid),
          path,
        );
      }
      for (const other of ["HEAD", "HEAD^{tree}"]) {
        const oid = (await git(work, "rev-parse", other)).trim();
        equal(await store.sha256(oid), undefined, `${other} is not a blob`);
        equal(store.readSmall(oid, 1 << 20), undefined, `${other}: read`);
      }
      await readsSmallBlobs(store, work, oids, deltas);
    } finally {
      store.close();
    }

    for (const threads of [1, 2]) {
      const hashed = await sha256BlobsInWorkers([...oids.values()], {
        gitDir,
        cwd: gitDir,
        home: gitDir,
        path: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        workers: threads,
      });
      deepEqual(hashed.digests, expected, `${threads} threads`);
      equal(hashed.direct, oids.size - 1, "all but the delta read directly");
    }
    // This thread joins the workers once it is free (at once here), or
    // never: the same digests either way, and no wait on a helper that
    // never comes.
    const helpers: [string, () => Promise<void>][] = [
      ["free at once", () => Promise.resolve()],
      ["never free", () => new Promise<void>(() => {})],
      ["free after a failure elsewhere", () => Promise.reject(new Error("x"))],
    ];
    for (const [name, helper] of helpers) {
      const helpAfter = helper();
      helpAfter.catch(() => {});
      const hashed = await sha256BlobsInWorkers([...oids.values()], {
        gitDir,
        cwd: gitDir,
        home: gitDir,
        path: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        workers: 1,
        helpAfter,
      });
      deepEqual(hashed.digests, expected, name);
      equal(hashed.direct, oids.size - 1, `${name}: read directly`);
    }
    // A job the caller says is small is hashed here, with no worker: the
    // same digests; one over the bound still goes to a worker.
    const made: unknown[] = [];
    const RealWorker = globalThis.Worker;
    globalThis.Worker = class extends RealWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        made.push(this);
      }
    };
    try {
      const job = (bytes: number) =>
        sha256BlobsInWorkers([...oids.values()], {
          gitDir,
          cwd: gitDir,
          home: gitDir,
          path: Deno.env.get("PATH") ?? "/usr/bin:/bin",
          workers: 2,
          bytes,
        });
      const small = await job(IN_THREAD_MAX_BYTES);
      deepEqual(small.digests, expected, "a small job");
      equal(small.direct, oids.size - 1, "a small job: read directly");
      equal(made.length, 0, "a small job starts no worker");
      const large = await job(IN_THREAD_MAX_BYTES + 1);
      deepEqual(large.digests, expected, "a large job");
      ok(made.length > 0, "a large job goes to workers");
    } finally {
      globalThis.Worker = RealWorker;
    }
  });
});

Deno.test("StoredBlobs refuses entries whose stored bytes fail the index's CRC32", async () => {
  await withRepo(async ({ work, gitDir, oids }) => {
    await git(work, "repack", "-a", "-d", "-q");
    await git(work, "prune-packed");
    const packDir = `${gitDir}/objects/pack`;
    const idxName = (await Array.fromAsync(Deno.readDir(packDir)))
      .find((e) => e.name.endsWith(".idx"))?.name as string;
    const idx = await Deno.readFile(`${packDir}/${idxName}`);
    const count = new DataView(idx.buffer).getUint32(8 + 255 * 4);
    const positionOf = (oid: string) => {
      for (let i = 0; i < count; i++) {
        const at = 8 + 1024 + i * 20;
        const hex = [...idx.subarray(at, at + 20)]
          .map((b) => b.toString(16).padStart(2, "0")).join("");
        if (hex === oid) return i;
      }
      throw new Error(`${oid} not in the index`);
    };
    // Point each of two blobs at the other's entry, as a corrupt or
    // crafted index would; the CRC32s stay with the ids.
    const a = positionOf(oids.get("a.txt") as string);
    const b = positionOf(oids.get("noise.bin") as string);
    const offsets = 8 + 1024 + count * 24;
    const view = new DataView(idx.buffer);
    const offsetA = view.getUint32(offsets + a * 4);
    view.setUint32(offsets + a * 4, view.getUint32(offsets + b * 4));
    view.setUint32(offsets + b * 4, offsetA);
    await Deno.chmod(`${packDir}/${idxName}`, 0o644);
    await Deno.writeFile(`${packDir}/${idxName}`, idx);

    const store = await StoredBlobs.open(gitDir);
    try {
      equal(await store.sha256(oids.get("a.txt") as string), undefined);
      equal(await store.sha256(oids.get("noise.bin") as string), undefined);
      const empty = oids.get("empty") as string;
      equal(await store.sha256(empty), sha256(new Uint8Array()));
    } finally {
      store.close();
    }
  });
});

Deno.test("StoredBlobs skips packs and objects it cannot trust the shape of", async (t) => {
  await withRepo(async ({ work, gitDir, oids }) => {
    const text = oids.get("a.txt") as string;
    const loose = `${gitDir}/objects/${text.slice(0, 2)}/${text.slice(2)}`;

    await t.step("a loose object that is a symlink", async () => {
      const real = `${work}/../elsewhere`;
      await Deno.rename(loose, real);
      await Deno.symlink(real, loose);
      const store = await StoredBlobs.open(gitDir);
      try {
        equal(await store.sha256(text), undefined);
      } finally {
        store.close();
        await Deno.remove(loose);
        await Deno.rename(real, loose);
      }
    });

    // Each of these is read whole (small), or streamed (stored or
    // inflated big), and each way must refuse the same shapes.
    const paths = ["a.txt", "noise.bin", "random.bin", "zeros.bin"];
    const content = new Map<string, Uint8Array>();
    for (const path of paths) {
      content.set(path, await catBlob(work, oids.get(path) as string));
    }
    const edits: [
      string,
      (bytes: Uint8Array, body: Uint8Array) => Uint8Array,
    ][] = [
      [
        "bytes after its content",
        (bytes) => new Uint8Array([...bytes, 0x78, 0x9c]),
      ],
      ["its stream cut short", (bytes) => bytes.subarray(0, bytes.length - 5)],
      [
        "a header one byte short of its content",
        (_, body) => deflateSync(looseObject(`blob ${body.length - 1}`, body)),
      ],
      [
        "a header one byte past its content",
        (_, body) => deflateSync(looseObject(`blob ${body.length + 1}`, body)),
      ],
      [
        "a header that is not a blob's",
        (_, body) => deflateSync(looseObject(`tree ${body.length}`, body)),
      ],
    ];
    for (const [what, edit] of edits) {
      await t.step(`a loose object with ${what}`, async () => {
        for (const path of paths) {
          const oid = oids.get(path) as string;
          const file = `${gitDir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
          const bytes = await Deno.readFile(file);
          await Deno.chmod(file, 0o644);
          await Deno.writeFile(
            file,
            edit(bytes, content.get(path) as Uint8Array),
          );
          const store = await StoredBlobs.open(gitDir);
          try {
            equal(await store.sha256(oid), undefined, path);
          } finally {
            store.close();
            await Deno.writeFile(file, bytes);
          }
        }
      });
    }

    await t.step("a pack that is a symlink", async () => {
      await git(work, "repack", "-a", "-d", "-q");
      await git(work, "prune-packed");
      const packDir = `${gitDir}/objects/pack`;
      const pack = (await Array.fromAsync(Deno.readDir(packDir)))
        .find((e) => e.name.endsWith(".pack"))?.name as string;
      const real = `${work}/../moved.pack`;
      await Deno.rename(`${packDir}/${pack}`, real);
      await Deno.symlink(real, `${packDir}/${pack}`);
      const store = await StoredBlobs.open(gitDir);
      try {
        equal(store.packCount, 0);
        equal(await store.sha256(text), undefined);
      } finally {
        store.close();
        await Deno.remove(`${packDir}/${pack}`);
        await Deno.rename(real, `${packDir}/${pack}`);
      }
    });

    await t.step(
      "a pack index that is not a version-2 SHA-1 index",
      async () => {
        const packDir = `${gitDir}/objects/pack`;
        const idxName = (await Array.fromAsync(Deno.readDir(packDir)))
          .find((e) => e.name.endsWith(".idx"))?.name as string;
        await Deno.chmod(`${packDir}/${idxName}`, 0o644);
        const idx = await Deno.readFile(`${packDir}/${idxName}`);
        await Deno.writeFile(`${packDir}/${idxName}`, idx.subarray(0, 1000));
        const store = await StoredBlobs.open(gitDir);
        try {
          equal(store.packCount, 0);
          equal(await store.sha256(text), undefined);
        } finally {
          store.close();
        }
      },
    );
  });
});

/** A loose object's bytes before compression: `header`, NUL, `body`. */
function looseObject(header: string, body: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(`${header}\0`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** A version-2 index for `entries` (ids sorted here), CRCs all zero. */
function syntheticIndex(
  entries: { oid: string; offset: number }[],
): Uint8Array {
  const sorted = [...entries].sort((x, y) => x.oid < y.oid ? -1 : 1);
  const large = sorted.filter((e) => e.offset >= 0x80000000);
  const n = sorted.length;
  const bytes = new Uint8Array(
    8 + 1024 + n * 28 + large.length * 8 + 40,
  );
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0xff744f63);
  view.setUint32(4, 2);
  for (let byte = 0; byte < 256; byte++) {
    const upTo = sorted.filter((e) => parseInt(e.oid.slice(0, 2), 16) <= byte)
      .length;
    view.setUint32(8 + byte * 4, upTo);
  }
  let nextLarge = 0;
  for (const [i, entry] of sorted.entries()) {
    for (let j = 0; j < 20; j++) {
      bytes[8 + 1024 + i * 20 + j] = parseInt(
        entry.oid.slice(j * 2, j * 2 + 2),
        16,
      );
    }
    const at = 8 + 1024 + n * 24 + i * 4;
    if (entry.offset < 0x80000000) {
      view.setUint32(at, entry.offset);
    } else {
      view.setUint32(at, 0x80000000 | nextLarge);
      const largeAt = 8 + 1024 + n * 28 + nextLarge * 8;
      view.setUint32(largeAt, Math.floor(entry.offset / 2 ** 32));
      view.setUint32(largeAt + 4, entry.offset % 2 ** 32);
      nextLarge++;
    }
  }
  return bytes;
}

Deno.test("PackIndex finds entries, large offsets included, and where each ends", () => {
  const entries = [
    { oid: "00".repeat(20), offset: 12 },
    { oid: "7f" + "11".repeat(19), offset: 5000 },
    { oid: "7f" + "22".repeat(19), offset: 3 * 2 ** 32 + 100 },
    { oid: "ff".repeat(20), offset: 900 },
  ];
  const packSize = 3 * 2 ** 32 + 10_000;
  const index = PackIndex.parse(syntheticIndex(entries), packSize);
  ok(index !== undefined);
  equal(index.count, 4);
  for (const entry of entries) {
    deepEqual(index.find(entry.oid), { offset: entry.offset, crc32: 0 });
  }
  equal(index.find("7f" + "33".repeat(19)), undefined);
  equal(index.find("not an id"), undefined);
  equal(index.endOf(12), 900);
  equal(index.endOf(900), 5000);
  equal(index.endOf(5000), 3 * 2 ** 32 + 100);
  equal(index.endOf(3 * 2 ** 32 + 100), packSize - 20, "the trailer follows");
});

Deno.test("PackIndex refuses indexes whose shape is wrong", async (t) => {
  const good = syntheticIndex([
    { oid: "10".repeat(20), offset: 12 },
    { oid: "20".repeat(20), offset: 3 * 2 ** 32 },
  ]);
  ok(PackIndex.parse(good, 4 * 2 ** 32) !== undefined);
  const variant = (edit: (bytes: Uint8Array, view: DataView) => void) => {
    const bytes = good.slice();
    edit(bytes, new DataView(bytes.buffer));
    return bytes;
  };
  const cases: [string, Uint8Array][] = [
    ["too short", good.subarray(0, 100)],
    ["a bad magic number", variant((_, v) => v.setUint32(0, 0x12345678))],
    ["version 1", variant((_, v) => v.setUint32(4, 1))],
    ["a fan-out that goes down", variant((_, v) => v.setUint32(8 + 4, 5))],
    ["a length the tables do not add up to", good.subarray(0, good.length - 3)],
    [
      "a large offset outside its table",
      variant((_, v) => v.setUint32(8 + 1024 + 2 * 24 + 4, 0x80000005)),
    ],
  ];
  for (const [name, bytes] of cases) {
    await t.step(name, () => {
      equal(PackIndex.parse(bytes, 4 * 2 ** 32), undefined);
    });
  }
  notEqual(PackIndex.parse(good, 4 * 2 ** 32), undefined);
});
