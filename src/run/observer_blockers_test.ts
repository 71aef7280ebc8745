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
