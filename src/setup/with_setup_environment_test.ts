import assert from "node:assert/strict";
import { FakeSandbox } from "../sandbox/fake_sandbox.ts";
import { withSetupEnvironment } from "./with_setup_environment.ts";

Deno.test("withSetupEnvironment() hands a shared copy to the sandbox as shared, so its files stay root's", async () => {
  const fake = new FakeSandbox(() => ({}));
  const sandbox = withSetupEnvironment(fake, "/cache/k/env");
  await sandbox.prepareDir("/w/work-2", { sharedFiles: true });
  await sandbox.prepareDir("/w/reports");
  assert.deepEqual(fake.preparedDirs, ["/w/work-2", "/w/reports"]);
  assert.deepEqual(fake.sharedDirs, ["/w/work-2"]);
});
