import assert from "node:assert/strict";
import { describeSandboxView } from "./describe_sandbox_view.ts";
import type { IsolationTier } from "./sandbox.ts";

Deno.test("describeSandboxView() says what each tier hides and where the repository is", async (t) => {
  const cases: [IsolationTier, string[], string[]][] = [
    ["bwrap", [
      "read-only",
      "a private, empty /tmp",
      "such as /opt/venv",
      "uid 64400 with no supplementary groups",
      "/root and pawl's key files hidden",
    ], ["/tmp included"]],
    ["unshare", [
      "/tmp included",
      "/root and pawl's key files hidden",
      "uid 64400 with no supplementary groups",
    ], ["private"]],
    ["uid", ["/tmp included", "uid 64400", "mode 0700"], [
      "private",
      "key files hidden",
    ]],
    ["none", ["without isolation"], ["uid 64400"]],
  ];
  for (const [tier, present, absent] of cases) {
    await t.step(tier, () => {
      const text = describeSandboxView(
        {
          tier,
          network: "isolated",
          ...(tier === "none" ? {} : { uid: 64400, gid: 64401 }),
          notes: [],
        },
        { workDir: "/tmp/pawl-x/work-0" },
      );
      assert.ok(
        text.includes('the head tree at "/tmp/pawl-x/work-0"'),
        text,
      );
      for (const part of present) assert.ok(text.includes(part), part);
      for (const part of absent) assert.ok(!text.includes(part), part);
    });
  }
});

Deno.test("describeSandboxView() names the sandbox uid in words when the report has none, and the repository without a path when none is given", () => {
  const text = describeSandboxView({
    tier: "uid",
    network: "isolated",
    notes: [],
  });
  assert.ok(
    text.includes("the tests run as the sandbox uid with no supplementary"),
    text,
  );
  assert.ok(!text.includes("undefined"), text);
  assert.ok(
    text.includes(
      "the repository is a fresh export of the head tree, the working directory",
    ),
    text,
  );
});
