import assert from "node:assert/strict";
import {
  FLAG_OPTIONS,
  OPTIONAL_VALUE_OPTIONS,
  VALUE_OPTIONS,
} from "./_pytest_options.ts";
import { selectionCommand } from "./selection_command.ts";

const exists = (path: string) => Promise.resolve(path === "tests");
const PY = ["python3", "-m", "pytest"];

Deno.test("every option pytest defines with a value takes the next argument, even one like an option", async (t) => {
  for (const option of VALUE_OPTIONS) {
    await t.step(option, async () => {
      // The value is "-k"; "tests" is then a positional argument, left out.
      assert.deepEqual(
        await selectionCommand([...PY, option, "-k", "tests"], { exists }),
        [...PY, option, "-k"],
      );
    });
  }
});

Deno.test("every flag pytest defines leaves the next argument positional", async (t) => {
  for (const option of FLAG_OPTIONS) {
    await t.step(option, async () => {
      assert.deepEqual(
        await selectionCommand([...PY, option, "tests"], { exists }),
        [...PY, option],
      );
    });
  }
});

Deno.test("the option tables agree with pytest 7.2's parser", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl_pytest_options_" });
  const out = await new Deno.Command("/usr/bin/python3", {
    args: [
      "-c",
      `import json, _pytest.config as c
config = c._prepareconfig(["-p", "_hypothesis_pytestplugin"])
flags, values, optional = [], [], []
for group in config._parser._groups + [config._parser._anonymous]:
    for o in group.options:
        attrs = o.attrs()
        if attrs.get("nargs") == "?":
            kind = optional
        elif attrs.get("action") in (None, "store", "append", "extend"):
            kind = values
        else:
            kind = flags
        kind.extend(o.names())
print(json.dumps({"flags": flags, "values": values, "optional": optional}))`,
    ],
    cwd: dir,
    // Only pytest's own plugins and Hypothesis', whatever else is installed.
    env: { PYTHONDONTWRITEBYTECODE: "1", PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output().finally(() => Deno.remove(dir, { recursive: true }));
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { flags, values, optional } = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  const sorted = (names: Iterable<string>) => [...names].sort();
  assert.deepEqual(sorted(FLAG_OPTIONS), sorted(flags));
  assert.deepEqual(sorted(VALUE_OPTIONS), sorted(values));
  assert.deepEqual(sorted(OPTIONAL_VALUE_OPTIONS), sorted(optional));
});
