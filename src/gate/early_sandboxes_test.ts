import assert from "node:assert/strict";
import { leaseSandboxUid } from "../sandbox/lease_uid.ts";
import { openEarlySandboxes, SPARES } from "./early_sandboxes.ts";
import { CLONE_DIR } from "./clone_stage.ts";
import { processSandboxes } from "./real_gate_ports.ts";

/**
 * This file's own uids: as many as the entry makes sandboxes (the first and
 * the spares) and one more, so a lease of the factory's own never waits for
 * one of them, whichever is leased first.
 */
const FIRST = 64600;
const LAST = FIRST + SPARES + 1;
const UIDS = Array.from({ length: LAST - FIRST + 1 }, (_, i) => FIRST + i);

const ARGS = (uids: string) => ({ isolation: "auto", "sandbox-uids": uids });

async function withRoot(
  body: (root: string, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({
    dir: "/var/tmp",
    prefix: "pawl-early-test-",
  });
  try {
    await Deno.chmod(root, 0o755);
    await body(root, { PAWL_SANDBOX_LOCK_DIR: `${root}/uids` });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Every uid of the range leased at once (without waiting), then given back. */
async function assertAllFree(lockDir: string): Promise<void> {
  const range = { first: FIRST, last: LAST };
  const leases = [];
  for (let i = FIRST; i <= LAST; i++) {
    leases.push(await leaseSandboxUid({ range, lockDir, waitMs: 0 }));
  }
  assert.deepEqual(leases.map((l) => l.uid).sort(), UIDS);
  for (const lease of leases) await lease.release();
}

Deno.test("the sandboxes made at the command's entry are taken over by the factory for the same request, first then spares", async () => {
  await withRoot(async (root, env) => {
    const range = `${FIRST}-${LAST}`;
    const early = openEarlySandboxes(
      ARGS(range),
      env,
      Promise.resolve({ root }),
    );
    assert.ok(early !== undefined);
    await early.probing;
    const reports: number[] = [];
    const factory = processSandboxes({
      lease: {
        range: { first: FIRST, last: LAST },
        lockDir: `${root}/uids`,
      },
      onSandbox: (report) => reports.push(report.uid ?? -1),
    });
    const hiddenPaths = [`${root}/${CLONE_DIR}`];
    const first = await factory({ isolation: "auto", hiddenPaths });
    const spare = await factory({
      isolation: "auto",
      hiddenPaths,
      spare: true,
    });
    const spare2 = await factory({
      isolation: "auto",
      hiddenPaths,
      spare: true,
    });
    // Leased in order, the first one lowest; each told once.
    assert.deepEqual(reports, UIDS.slice(0, 1 + SPARES));
    assert.equal(first.isolation.uid, FIRST);
    // The clone is hidden from the runs of a sandbox made before its path
    // was known.
    await Deno.mkdir(`${root}/${CLONE_DIR}`);
    await Deno.writeTextFile(`${root}/${CLONE_DIR}/secret`, "x");
    const work = `${root}/work`;
    await Deno.mkdir(work);
    await first.prepareDir(work);
    const seen = await first.run({
      argv: ["sh", "-c", `cat ${root}/${CLONE_DIR}/secret || echo hidden`],
      cwd: work,
      env: { PATH: "/usr/bin:/bin" },
      writable: [],
    });
    assert.match(seen.outputHead, /hidden/);
    assert.doesNotMatch(seen.outputHead, /^x/m);
    await early.close(); // taken ones are the factory's to close
    await Promise.all([first, spare, spare2].map((s) => s.close?.()));
    await assertAllFree(`${root}/uids`);
  });
});

Deno.test("sandboxes made at the entry that are not taken, or made for another request, are given back at close", async () => {
  await withRoot(async (root, env) => {
    const early = openEarlySandboxes(
      ARGS(`${FIRST}-${LAST}`),
      env,
      Promise.resolve({ root }),
    );
    assert.ok(early !== undefined);
    await early.probing;
    const factory = processSandboxes({
      lease: { range: { first: FIRST, last: LAST }, lockDir: `${root}/uids` },
    });
    // Another hidden path: the factory leases its own, from the uid the
    // entry leaves.
    const other = await factory({
      isolation: "auto",
      hiddenPaths: [`${root}/elsewhere`],
    });
    assert.ok(other.isolation.uid !== undefined);
    await other.close?.();
    await early.close();
    await assertAllFree(`${root}/uids`);
  });
});

Deno.test("no sandbox is made at the entry without isolation, with a signing key or for flags that do not read", () => {
  const ws = Promise.resolve({ root: "/tmp" });
  const args = ARGS(`${FIRST}-${LAST}`);
  assert.equal(
    openEarlySandboxes({ ...args, isolation: "none" }, {}, ws),
    undefined,
  );
  assert.equal(
    openEarlySandboxes({ ...args, isolation: "odd" }, {}, ws),
    undefined,
  );
  assert.equal(
    openEarlySandboxes(args, { PAWL_SIGNING_KEY: "/k" }, ws),
    undefined,
  );
  assert.equal(
    openEarlySandboxes({ "sandbox-uids": "x-y" }, {}, ws),
    undefined,
  );
  assert.equal(
    openEarlySandboxes({ ...args, key: "/k.pem" }, {}, ws),
    undefined,
  );
});
