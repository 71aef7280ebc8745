import assert from "node:assert/strict";
import {
  FALLBACK_INSTALLED_MODULES,
  FALLBACK_STDLIB_MODULES,
} from "./fallback_module_names.ts";

/** The test interpreter's version and the names it reports. */
async function ask(): Promise<
  { version: number[]; stdlib: string[]; installed: Record<string, string[]> }
> {
  const out = await new Deno.Command("python3", {
    args: [
      "-I",
      "-c",
      "import json, sys\nfrom importlib import metadata\nprint(json.dumps({'version': list(sys.version_info[:2]), 'stdlib': sorted(sys.stdlib_module_names), 'installed': metadata.packages_distributions()}))",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(out.success, "python3 did not run");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const python = await ask();

Deno.test("the built-in standard-library names are CPython 3.11's sys.stdlib_module_names", () => {
  assert.deepEqual(
    python.version,
    [3, 11],
    "the list is CPython 3.11's: compare it with a 3.11 interpreter",
  );
  assert.deepEqual([...FALLBACK_STDLIB_MODULES].sort(), python.stdlib);
});

Deno.test("the built-in installed names cover every top-level module of the test framework and its dependencies", () => {
  const framework = new Set([
    "pytest",
    "pluggy",
    "iniconfig",
    "hypothesis",
    "packaging",
    "attrs",
    "sortedcontainers",
  ]);
  const provided = Object.entries(python.installed)
    .filter(([, dists]) => dists.some((d) => framework.has(d)))
    .map(([name]) => name)
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  assert.deepEqual(
    provided.filter((name) => !FALLBACK_INSTALLED_MODULES.has(name)),
    [],
  );
  // Each distribution the test interpreter has provides a name in the list.
  for (const dist of framework) {
    assert.ok(
      Object.values(python.installed).some((dists) => dists.includes(dist)),
      `the test interpreter has no "${dist}"`,
    );
  }
  // pytest-xdist, and the backports pytest needs before Python 3.11.
  for (const name of ["xdist", "exceptiongroup", "tomli"]) {
    assert.ok(FALLBACK_INSTALLED_MODULES.has(name), name);
  }
});
