import assert from "node:assert/strict";
import { observerBlockers } from "./observer_blockers.ts";

Deno.test("observerBlockers() names what in a test command keeps pawl's observer out", async (t) => {
  const cases: {
    name: string;
    command: string[];
    causes: string[];
    pythonpath?: string[];
  }[] = [
    {
      name: "pawl's own command keeps nothing out",
      command: ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
      causes: [],
    },
    {
      name: "an isolated interpreter",
      command: ["python3", "-I", "-m", "pytest"],
      causes: ['"-I" isolates'],
    },
    {
      name: "combined options, up to -m",
      command: ["/opt/venv/bin/python", "-Bsm", "pytest", "-s"],
      causes: ['"-s" turns the user site off'],
    },
    {
      name: "options after the module are pytest's",
      command: ["python3", "-m", "pytest", "-I"],
      causes: [],
    },
    {
      name: "env -i",
      command: ["env", "-i", "PATH=/usr/bin", "python3", "-m", "pytest"],
      causes: ['"env -i" clears'],
    },
    {
      name: "env --ignore-environment",
      command: ["env", "--ignore-environment", "python3", "-m", "pytest"],
      causes: ['"env --ignore-environment" clears'],
    },
    {
      name: "env -u of a variable pawl sets",
      command: ["env", "-u", "PYTHONUSERBASE", "python3", "-m", "pytest"],
      causes: ['"env -u PYTHONUSERBASE" removes'],
    },
    {
      name: "env - clears the environment as env -i does",
      command: ["env", "-", "python3", "-m", "pytest"],
      causes: ['"env -" clears'],
    },
    {
      name: "env --unset= of a variable pawl sets",
      command: ["env", "--unset=PYTHONPATH", "python3", "-m", "pytest"],
      causes: ['"env -u PYTHONPATH" removes'],
    },
    {
      name: "env -u of any of pawl's own variables",
      command: ["env", "-u", "PAWL_OBSERVER_LINES", "python3", "-m", "pytest"],
      causes: ['"env -u PAWL_OBSERVER_LINES" removes'],
    },
    {
      name: "env -u of a variable pawl does not set keeps nothing out",
      command: [
        "env",
        "-u",
        "PYTHONDONTWRITEBYTECODE",
        "python3",
        "-m",
        "pytest",
      ],
      causes: [],
    },
    {
      name: "options after -c are the program's",
      command: ["python3", "-c", "-I"],
      causes: [],
    },
    {
      name: "a PYTHONPATH of its own, its relative entries kept",
      command: [
        "env",
        "PYTHONPATH=src:/opt/lib:lib/",
        "python3",
        "-m",
        "pytest",
      ],
      causes: ['"PYTHONPATH=src:/opt/lib:lib/" replaces'],
      pythonpath: ["src", "lib"],
    },
    {
      name: "a shell script's words",
      command: [
        "sh",
        "-c",
        "PYTHONNOUSERSITE=1 PYTHONPATH=src python3 -m pytest",
      ],
      causes: ['"PYTHONNOUSERSITE=1" turns', '"PYTHONPATH=src" replaces'],
      pythonpath: ["src"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const found = observerBlockers(c.command);
      assert.equal(found.causes.length, c.causes.length, found.causes.join());
      for (const [i, start] of c.causes.entries()) {
        assert.ok(found.causes[i]?.startsWith(start), found.causes[i]);
      }
      assert.deepEqual(found.pythonpath, c.pythonpath ?? []);
    });
  }
});

Deno.test("observerBlockers() reads a command's words as a shell would split and quote them", async (t) => {
  const table: [string, string[], string[], string[]][] = [
    [
      "a tab separates words as a space does",
      ["sh", "-c", "PYTHONNOUSERSITE=1\tpython3 -I -m pytest"],
      [
        '"PYTHONNOUSERSITE=1" turns the user site off',
        '"-I" isolates the interpreter from PYTHONPATH and the user site',
      ],
      [],
    ],
    [
      "quotes and a trailing semicolon are no part of a word",
      ["sh", "-c", `PYTHONNOUSERSITE=1; 'python3' "-s" -m pytest`],
      [
        '"PYTHONNOUSERSITE=1" turns the user site off',
        '"-s" turns the user site off',
      ],
      [],
    ],
    [
      "an empty word is no word",
      ["python3", "", "-E", "-m", "pytest"],
      ['"-E" makes the interpreter ignore PYTHONPATH and PYTHONUSERBASE'],
      [],
    ],
    [
      "pypy is an interpreter too, with a dotted version",
      ["pypy3.10", "-S", "-m", "pytest"],
      ['"-S" turns the site module off, and with it the user site'],
      [],
    ],
    [
      "a program merely ending in python is not one",
      ["./run-python3", "-I"],
      [],
      [],
    ],
    [
      "an option whose value looks like an assignment is none",
      ["python3", "-m", "pytest", "--opt=PYTHONUSERBASE=/x"],
      [],
      [],
    ],
    [
      "a PYTHONUSERBASE of its own replaces pawl's",
      ["env", "PYTHONUSERBASE=/x", "python3", "-m", "pytest"],
      ['"PYTHONUSERBASE=/x" replaces the user base pawl puts the plugin in'],
      [],
    ],
    [
      "empty, repeated and slashed PYTHONPATH entries are one entry each",
      ["env", "PYTHONPATH=:src::lib//:src", "python3", "-m", "pytest"],
      [
        '"PYTHONPATH=:src::lib//:src" replaces the PYTHONPATH pawl puts the plugin on, and the interpreter does not read the user site pawl also puts it in (a virtualenv made without --system-site-packages reads none)',
      ],
      ["src", "lib"],
    ],
    [
      "a cause said twice is named once",
      ["sh", "-c", "python3 -I -m pytest; python3 -I -m pytest"],
      ['"-I" isolates the interpreter from PYTHONPATH and the user site'],
      [],
    ],
    [
      "env's options end at --",
      ["env", "--", "-i"],
      [],
      [],
    ],
    [
      "env's options end at its program: python3 -i is the interpreter's",
      ["env", "python3", "-i", "-m", "pytest"],
      [],
      [],
    ],
    [
      "env's options end at a word that is no assignment",
      ["env", "1X=y", "-i", "python3"],
      [],
      [],
    ],
    [
      "env -u glued to its variable",
      ["env", "-uPYTHONPATH", "python3", "-m", "pytest"],
      ['"env -u PYTHONPATH" removes PYTHONPATH, which pawl sets'],
      [],
    ],
    [
      "env -u of a variable merely starting like pawl's",
      ["env", "-u", "PYTHONPATHS", "python3", "-m", "pytest"],
      [],
      [],
    ],
    [
      "env's options end at its first assignment",
      ["env", "A=1", "-i", "python3", "-m", "pytest"],
      [],
      [],
    ],
    [
      "the variable env -u names does not end env's options",
      ["env", "-u", "LANG", "-i", "python3", "-m", "pytest"],
      [
        `"env -i" clears the environment pawl gives the run (its PYTHONPATH, PYTHONUSERBASE and the plugin's socket)`,
      ],
      [],
    ],
    [
      "the directory env -C names does not end env's options",
      ["env", "--chdir", "/srv", "-i", "python3", "-m", "pytest"],
      [
        `"env -i" clears the environment pawl gives the run (its PYTHONPATH, PYTHONUSERBASE and the plugin's socket)`,
      ],
      [],
    ],
    [
      "the directory env -C names, as the next word, does not end env's options",
      ["env", "-C", "/srv", "-i", "python3", "-m", "pytest"],
      [
        `"env -i" clears the environment pawl gives the run (its PYTHONPATH, PYTHONUSERBASE and the plugin's socket)`,
      ],
      [],
    ],
    [
      "env with options and no program",
      ["env", "-i"],
      [
        `"env -i" clears the environment pawl gives the run (its PYTHONPATH, PYTHONUSERBASE and the plugin's socket)`,
      ],
      [],
    ],
    [
      "a semicolon or an operator separates commands as a blank does",
      ["sh", "-c", "PYTHONNOUSERSITE=1;python3 -I -m pytest&&python3 -s"],
      [
        '"PYTHONNOUSERSITE=1" turns the user site off',
        '"-I" isolates the interpreter from PYTHONPATH and the user site',
        '"-s" turns the user site off',
      ],
      [],
    ],
    [
      "env --unset with its variable as the next word",
      ["env", "--unset", "PYTHONPATH", "python3", "-m", "pytest"],
      ['"env -u PYTHONPATH" removes PYTHONPATH, which pawl sets'],
      [],
    ],
    [
      "env -u of a variable merely ending like pawl's",
      ["env", "-u", "MYPYTHONPATH", "python3", "-m", "pytest"],
      [],
      [],
    ],
    [
      "an option that merely holds -u further on is no -u",
      ["env", "--chdir=/srv/app-uPYTHONPATH", "python3", "-m", "pytest"],
      [],
      [],
    ],
    [
      "a quoted assignment is read as the shell reads it",
      ["sh", "-c", "PYTHONPATH='src/lib' python3 -m pytest"],
      [
        '"PYTHONPATH=src/lib" replaces the PYTHONPATH pawl puts the plugin on, and the interpreter does not read the user site pawl also puts it in (a virtualenv made without --system-site-packages reads none)',
      ],
      ["src/lib"],
    ],
    [
      "a program merely starting like python is not one",
      ["python3-config", "-I"],
      [],
      [],
    ],
    [
      "a script named with a dash is no option",
      ["python3", "run-tests", "-s"],
      [],
      [],
    ],
    [
      "a module glued to -m ends the options",
      ["python3", "-mpytest", "-s"],
      [],
      [],
    ],
    [
      "an interpreter option with more than letters ends the options",
      ["python3", "-Werror::Warning", "-s", "-m", "pytest"],
      [],
      [],
    ],
  ];
  for (const [label, command, causes, pythonpath] of table) {
    await t.step(label, () => {
      assert.deepEqual(observerBlockers(command), { causes, pythonpath });
    });
  }
});
