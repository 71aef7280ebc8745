import assert from "node:assert/strict";
import { SandboxUidsBusyError } from "../sandbox/sandbox_errors.ts";
import { processSandboxes } from "./real_gate_ports.ts";

/** Clear of pawl's default range, the end-to-end range and other tests' uids. */
const UID = 64310;

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
