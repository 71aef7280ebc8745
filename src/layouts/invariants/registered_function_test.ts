import assert from "node:assert/strict";
import type { EntryKind } from "../../git/git.ts";
import type { PythonModule } from "../../python/python_module.ts";
import { pyFunction, pyModule, treeOf } from "./_testing.ts";
import {
  type RegisteredFunction,
  registeredFunction,
  registryModulePath,
} from "./registered_function.ts";

Deno.test("registryModulePath() turns every dot of the module into a folder and adds .py", async (t) => {
  const cases: [string, string][] = [
    ["test_p", "test_p.py"],
    ["tests.test_p", "tests/test_p.py"],
    ["tests.properties.test_parse", "tests/properties/test_parse.py"],
  ];
  for (const [module, path] of cases) {
    await t.step(`${module} → ${path}`, () => {
      assert.equal(registryModulePath(module), path);
    });
  }
});

const PATH = "tests/test_p.py";
const TARGET = { module: "tests.test_p", function: "test_p" };

Deno.test("registeredFunction() finds a module-level def only in a regular, analysed file", async (t) => {
  const found = pyFunction("test_p", "def test_p():\n    assert True");
  const cases: {
    name: string;
    kind?: EntryKind;
    module?: PythonModule;
    status: RegisteredFunction["status"];
  }[] = [
    {
      name: "a regular file",
      kind: "file",
      module: pyModule(found),
      status: "ok",
    },
    {
      name: "an executable file",
      kind: "executable",
      module: pyModule(found),
      status: "ok",
    },
    {
      name: "a symlinked module is missing",
      kind: "symlink",
      module: pyModule(found),
      status: "module_missing",
    },
    {
      name: "a folder named like the module is missing",
      kind: "tree",
      module: pyModule(found),
      status: "module_missing",
    },
    {
      name: "a submodule is missing",
      kind: "submodule",
      module: pyModule(found),
      status: "module_missing",
    },
    {
      name: "a file not in the tree is missing",
      module: pyModule(found),
      status: "module_missing",
    },
    {
      name: "a regular file with no analysis is missing",
      kind: "file",
      status: "module_missing",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const tree = treeOf(c.kind === undefined ? {} : { [PATH]: c.kind });
      const modules = new Map<string, PythonModule>(
        c.module === undefined ? [] : [[PATH, c.module]],
      );
      const result = registeredFunction(TARGET, { tree, modules });
      assert.equal(result.status, c.status);
      assert.equal(result.path, PATH);
      if (result.status === "ok") assert.equal(result.fn, found);
    });
  }
});

Deno.test("registeredFunction() tells a missing function, an async def and a found def apart", async (t) => {
  const cases: {
    name: string;
    module: PythonModule;
    status: RegisteredFunction["status"];
  }[] = [
    {
      name: "a module without the name has the test missing",
      module: pyModule(pyFunction("test_other", "def test_other():\n    pass")),
      status: "test_missing",
    },
    {
      name: "a method of the same name is not the module-level property",
      module: pyModule(
        pyFunction("TestP.test_p", "def test_p(self):\n    pass"),
      ),
      status: "test_missing",
    },
    {
      name: "an async def is async",
      module: pyModule(pyFunction("test_p", "async def test_p():\n    pass")),
      status: "async",
    },
    {
      name: "a def whose body mentions async is found",
      module: pyModule(
        pyFunction("test_p", "def test_p():\n    assert 'async' != ''"),
      ),
      status: "ok",
    },
    {
      name: "a def is found",
      module: pyModule(pyFunction("test_p", "def test_p():\n    assert True")),
      status: "ok",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const result = registeredFunction(TARGET, {
        tree: treeOf({ [PATH]: "file" }),
        modules: new Map([[PATH, c.module]]),
      });
      assert.equal(result.status, c.status);
      assert.equal(result.path, PATH);
      if (result.status === "test_missing") {
        assert.equal(result.module, c.module);
      }
      if (result.status === "ok" || result.status === "async") {
        assert.equal(result.fn, c.module.functions.get("test_p"));
      }
    });
  }
});
