import assert from "node:assert/strict";
import { iniSection } from "./_ini_section.ts";

Deno.test("iniSection() reads one section, ignoring what does not change its meaning", async (t) => {
  const cases: [string, string, string, string | undefined][] = [
    [
      "a missing section is absent",
      "[metadata]\nname = a\n",
      "pytest",
      undefined,
    ],
    ["an empty file has no section", "", "pytest", undefined],
    ["an empty section is present and empty", "[pytest]\n", "pytest", ""],
    [
      "lines before the first header belong to no section",
      "addopts = -x\n[pytest]\naddopts = -q\n",
      "pytest",
      "addopts=-q",
    ],
    [
      "only the lines of the section are kept",
      "[metadata]\nname = a\n[pytest]\naddopts = -q\n[flake8]\nmax = 1\n",
      "pytest",
      "addopts=-q",
    ],
    [
      "a section given twice is read whole",
      "[pytest]\na = 1\n[other]\nb = 2\n[pytest]\nc = 3\n",
      "pytest",
      "a=1\nc=3",
    ],
    [
      "comments, blank lines and indentation are dropped",
      "[pytest]\n# note\n; other note\n\n   addopts = -q\n\t  -x\n",
      "pytest",
      "addopts=-q\n-x",
    ],
    [
      "spaces around the first = or : are dropped, later ones kept",
      "[pytest]\naddopts   =   -k 'a = b'\nmarkers:  slow: long\n",
      "pytest",
      "addopts=-k 'a = b'\nmarkers:slow: long",
    ],
    [
      "CRLF line ends read as LF",
      "[pytest]\r\naddopts = -q\r\n",
      "pytest",
      "addopts=-q",
    ],
    [
      "spaces inside the brackets of a header do not matter",
      "[ tool:pytest ]\naddopts = -q\n",
      "tool:pytest",
      "addopts=-q",
    ],
    [
      "a line that only starts with [ is no header",
      "[pytest]\n[not a header\naddopts = -q\n",
      "pytest",
      "[not a header\naddopts=-q",
    ],
    [
      "a line that only ends with ] is no header",
      "[pytest]\nmarkers = a]\n",
      "pytest",
      "markers=a]",
    ],
    [
      "a section whose name contains the wanted one is another section",
      "[pytest-extra]\naddopts = -q\n",
      "pytest",
      undefined,
    ],
  ];
  for (const [name, text, section, want] of cases) {
    await t.step(name, () => {
      assert.equal(iniSection(text, section), want);
    });
  }
});
