import assert from "node:assert/strict";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { generateMutants } from "./generate_mutants.ts";
import { applyMutant } from "./mutant.ts";
import { buildSchemata } from "./schemata.ts";

const parser = await loadPythonParser();

const CODE = `def less(a, b):
    return a < b


class Box:
    def get(self):
        return 1


@staticmethod
def decorated(x):
    return x + 1
`;

/** What `less(1, 1)` and `less(1, 2)` return with `__pawl_active__` set to `active`. */
async function run(text: string, active: string | null): Promise<string> {
  const script = `import builtins\nbuiltins.__pawl_active__ = ${
    active === null ? "None" : JSON.stringify(active)
  }\nns = {}\nexec(compile(${
    JSON.stringify(text)
  }, "m.py", "exec"), ns)\nprint(ns["less"](1, 1), ns["less"](1, 2))\n`;
  const out = await new Deno.Command("python3", {
    args: ["-c", script],
    stdout: "piped",
  }).output();
  assert.ok(out.success);
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("buildSchemata() compiles in the mutants of top-level functions, each chosen at call time, the original otherwise", async () => {
  const mutants = generateMutants(parser, "m.py", CODE);
  const schemata = buildSchemata(parser, "m.py", CODE, mutants);
  assert.ok(
    schemata.text.startsWith(CODE),
    "the original lines keep their numbers",
  );
  const inLess = mutants.filter((m) => m.function === "less");
  assert.ok(inLess.length > 0);
  assert.equal(await run(schemata.text, null), "False True");
  for (const m of inLess) {
    assert.deepEqual(schemata.coverLines.get(m.id), [2]);
    assert.equal(
      await run(schemata.text, m.id),
      await run(applyMutant(CODE, m), null),
      `${m.original} → ${m.replacement}`,
    );
  }
});

Deno.test("buildSchemata() leaves out methods and decorated functions, saying why", () => {
  const mutants = generateMutants(parser, "m.py", CODE);
  const schemata = buildSchemata(parser, "m.py", CODE, mutants);
  const others = mutants.filter((m) => m.function !== "less");
  assert.ok(others.length > 0);
  for (const m of others) {
    assert.match(schemata.excluded.get(m.id) ?? "", /top-level function/);
    assert.equal(schemata.coverLines.has(m.id), false);
  }
});
