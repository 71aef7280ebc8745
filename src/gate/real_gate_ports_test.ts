import assert from "node:assert/strict";
import { SandboxUidsBusyError } from "../sandbox/sandbox_errors.ts";
import { processSandboxes } from "./real_gate_ports.ts";

/** Clear of pawl's default range, the end-to-end range and other tests' uids. */
const UID = 64406;

Deno.test("processSandboxes() leases a uid per sandbox, holds it until close, and leases none without isolation", async () => {
  const root = await Deno.makeTempDir({ prefix: "pawl-gate-lease-test-" });
  try {
    await Deno.chmod(root, 0o755);
    const sandboxes = processSandboxes({
      lease: {
        range: { first: UID, last: UID },
        lockDir: `${root}/uids`,
        waitMs: 0,
      },
    });
    const request = { isolation: "uid" as const, hiddenPaths: [] };
    const first = await sandboxes(request);
    assert.equal(first.isolation.uid, UID);
    // The only uid is held: a second judgement cannot have it.
    await assert.rejects(sandboxes(request), SandboxUidsBusyError);
    // No isolation needs no uid.
    const unisolated = await sandboxes({ isolation: "none", hiddenPaths: [] });
    assert.equal(unisolated.isolation.tier, "none");
    await unisolated.close?.();
    await first.close?.();
    const second = await sandboxes(request);
    assert.equal(second.isolation.uid, UID);
    await second.close?.();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("processSandboxes() leases the first sandbox's uid before a spare asked for at the same time", async () => {
  // A uid of this test's own: one uid, so the order decides who gets it.
  const only = 64402;
  const root = await Deno.makeTempDir({ prefix: "pawl-gate-lease-test-" });
  try {
    await Deno.chmod(root, 0o755);
    const lease = {
      range: { first: only, last: only },
      lockDir: `${root}/uids`,
      // The first may wait out a process of the uid a round before left
      // exiting on a busy machine; a spare never waits, whatever is given.
      waitMs: 30_000,
    };
    const request = { isolation: "uid" as const, hiddenPaths: [] };
    // Every round: asked for together, the first one always wins the uid,
    // and the spare (which never waits) goes without.
    for (let round = 0; round < 5; round++) {
      const sandboxes = processSandboxes({ lease });
      const first = sandboxes(request);
      const spare = sandboxes({ ...request, spare: true });
      const [made, refused] = await Promise.allSettled([first, spare]);
      assert.equal(made.status, "fulfilled");
      assert.equal(made.value.isolation.uid, only);
      assert.equal(refused.status, "rejected");
      assert.ok(refused.reason instanceof SandboxUidsBusyError);
      await made.value.close?.();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
