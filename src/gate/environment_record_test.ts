import assert from "node:assert/strict";
import { readSettings } from "../settings/read_settings.ts";
import { DEFAULT_SETTINGS } from "../settings/settings.ts";
import { DEFAULT_PYTEST_COMMAND } from "../run/run_pytest.ts";
import { environmentRecord } from "./environment_record.ts";

Deno.test("environmentRecord() records the default command when the base has no [environment]", () => {
  assert.deepEqual(environmentRecord(DEFAULT_SETTINGS), {
    command: [...DEFAULT_PYTEST_COMMAND],
    pythonpath: [],
    env: [],
  });
});

Deno.test("environmentRecord() records the interpreter, the import path and the variables' names in a fixed order", () => {
  const settings = readSettings(
    '[environment]\npython = "/opt/venv/bin/python"\npythonpath = ["src", "lib"]\nenv = { ZED = "1", APP_MODE = "staging-value" }\n',
  );
  const record = environmentRecord(settings);
  assert.deepEqual(record, {
    command: ["/opt/venv/bin/python", ...DEFAULT_PYTEST_COMMAND.slice(1)],
    python: "/opt/venv/bin/python",
    pythonpath: ["src", "lib"],
    env: ["APP_MODE", "ZED"],
  });
  // The same table written in another order records the same bytes.
  const reordered = readSettings(
    '[environment]\nenv = { APP_MODE = "staging-value", ZED = "1" }\npython = "/opt/venv/bin/python"\npythonpath = ["src", "lib"]\n',
  );
  assert.equal(
    JSON.stringify(environmentRecord(reordered)),
    JSON.stringify(record),
  );
  assert.equal(JSON.stringify(record).includes("staging-value"), false);
});
