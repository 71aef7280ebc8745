import assert from "node:assert/strict";
import { timedWitnessedPytest } from "./_witnessed_pytest.ts";

const options = {
  command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
  path: "/usr/local/bin:/usr/bin:/bin",
};

Deno.test("timedWitnessedPytest() times a passing suite and refuses a failing one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-witness-test-" });
  try {
    await Deno.writeTextFile(
      `${dir}/test_a.py`,
      "def test_a():\n    pass\n\n\ndef test_b():\n    pass\n",
    );
    const seconds = await timedWitnessedPytest(dir, options);
    assert.ok(seconds > 0);
    await Deno.writeTextFile(
      `${dir}/test_c.py`,
      "def test_c():\n    assert False\n",
    );
    await assert.rejects(
      () => timedWitnessedPytest(dir, options),
      /exited 1, streamed 3 outcomes for 3 cases/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
