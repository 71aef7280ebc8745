import assert from "node:assert/strict";
import { describeMissingTools } from "./_tool_packages.ts";
import { probeIsolation, SandboxUnavailableError } from "./probe_isolation.ts";

Deno.test("describeMissingTools() names the package that provides each tool", async (t) => {
  const cases: [string[], string][] = [
    [
      ["kill"],
      '"kill" not found in /usr/bin, /bin (on Debian/Ubuntu: apt-get install procps)',
    ],
    [
      ["bwrap", "prlimit", "setpriv"],
      '"bwrap", "prlimit", "setpriv" not found in /usr/bin, /bin (on Debian/Ubuntu: apt-get install bubblewrap util-linux)',
    ],
    [
      ["unshare", "mount", "env", "sh"],
      '"unshare", "mount", "env", "sh" not found in /usr/bin, /bin (on Debian/Ubuntu: apt-get install util-linux mount coreutils dash)',
    ],
    [
      ["busybox"],
      '"busybox" not found in /usr/bin, /bin (on Debian/Ubuntu: apt-get install busybox)',
    ],
  ];
  for (const [missing, text] of cases) {
    await t.step(missing.join(" "), () => {
      assert.equal(describeMissingTools(missing, ["/usr/bin", "/bin"]), text);
    });
  }
});

Deno.test("probeIsolation() without the sandbox tools says which packages to install", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-no-tools-" });
  try {
    await assert.rejects(
      probeIsolation({ requested: "uid", toolDirs: [dir], currentUid: 0 }),
      (error: unknown) =>
        error instanceof SandboxUnavailableError &&
        error.message.includes(
          `"prlimit", "setpriv", "env", "kill" not found in ${dir} (on Debian/Ubuntu: apt-get install util-linux coreutils procps)`,
        ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
