import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPythonParser } from "../python/load_python_parser.ts";
import { generateMutants } from "./generate_mutants.ts";
import { applyMutant, type Mutant, renderMutantDiff } from "./mutant.ts";
import { buildSchemata, mutantAtLine, type Schemata } from "./schemata.ts";
import { SCHEMATA_CORPUS } from "./testdata/schemata_corpus.ts";

const parser = await loadPythonParser();
const HARNESS = fileURLToPath(
  new URL("./testdata/schemata_harness.py", import.meta.url),
);

/** What the harness reports for one variant of a module. */
interface Run {
  results?: unknown[];
  lines?: number[];
  compile?: string;
}

/**
 * Run, in one Python process, the original module, the schemata with no
 * mutant active and with each of `mutants` active, and each mutant's
 * mutated copy, evaluating `calls` in each.
 */
async function runVariants(
  text: string,
  schemata: Schemata,
  mutants: readonly Mutant[],
  calls: readonly string[],
): Promise<Record<string, Run>> {
  const dir = await Deno.makeTempDir({ prefix: "pawl-schemata-test-" });
  try {
    const runs = [
      { key: "original", path: join(dir, "original.py"), active: null },
      { key: "schemata", path: join(dir, "schemata.py"), active: null },
    ];
    await Deno.writeTextFile(join(dir, "original.py"), text);
    await Deno.writeTextFile(join(dir, "schemata.py"), schemata.text);
    for (const m of mutants) {
      const path = join(dir, `${m.id}.py`);
      await Deno.writeTextFile(path, applyMutant(text, m));
      runs.push({ key: `mutant ${m.id}`, path, active: null });
      runs.push({
        key: `schemata ${m.id}`,
        path: join(dir, "schemata.py"),
        active: m.id as unknown as null,
      });
    }
    const spec = join(dir, "spec.json");
    await Deno.writeTextFile(spec, JSON.stringify({ calls, runs }));
    const out = await new Deno.Command("/usr/bin/python3", {
      args: [HARNESS, spec],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A `global` or `nonlocal` statement. */
const DECLARATION = /^\s*(global|nonlocal)\s/;

function outcome(run: Run | undefined): unknown {
  return run?.compile ?? run?.results;
}

function compiledIn(schemata: Schemata, mutants: readonly Mutant[]): Mutant[] {
  return mutants.filter((m) => !schemata.excluded.has(m.id));
}

Deno.test("buildSchemata() runs each compiled-in mutant as its mutated copy runs", async (t) => {
  for (const { name, text, calls } of SCHEMATA_CORPUS) {
    await t.step(name, async () => {
      const mutants = generateMutants(parser, "m.py", text);
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      const compiled = compiledIn(schemata, mutants);
      assert.ok(compiled.length > 0, "no mutant compiled in");
      const runs = await runVariants(text, schemata, compiled, calls);
      assert.equal(runs["schemata"]?.compile, undefined, schemata.text);
      assert.deepEqual(outcome(runs["schemata"]), outcome(runs["original"]));
      let told = 0;
      for (const m of compiled) {
        const mutated = outcome(runs[`mutant ${m.id}`]);
        assert.deepEqual(
          outcome(runs[`schemata ${m.id}`]),
          mutated,
          renderMutantDiff(text, m),
        );
        if (
          JSON.stringify(mutated) !== JSON.stringify(outcome(runs["original"]))
        ) told++;
      }
      // The calls must tell most mutants from the original, or the
      // comparison above proves little.
      assert.ok(told * 2 > compiled.length, `${told} of ${compiled.length}`);
    });
  }
});

Deno.test("buildSchemata() coverLines are run exactly when the changed lines of the original are", async (t) => {
  for (const { name, text, calls } of SCHEMATA_CORPUS) {
    await t.step(name, async () => {
      const mutants = generateMutants(parser, "m.py", text);
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      const runs = await runVariants(text, schemata, [], calls);
      const ranOriginal = new Set(runs["original"]?.lines);
      const ranSchemata = new Set(runs["schemata"]?.lines);
      const before = text.split(/\r\n|\n/);
      for (const m of compiledIn(schemata, mutants)) {
        const changed = [];
        for (let l = m.line; l <= m.endLine; l++) changed.push(l);
        const covered = (schemata.coverLines.get(m.id) ?? []).some((l) =>
          ranSchemata.has(l)
        );
        if (changed.every((l) => DECLARATION.test(before[l - 1] ?? ""))) {
          // A declaration runs no code; the `pass` standing in for it in
          // the copy does, so the schemata may see more than the original.
          if (changed.some((l) => ranOriginal.has(l))) assert.ok(covered);
          continue;
        }
        assert.equal(
          covered,
          changed.some((l) => ranOriginal.has(l)),
          renderMutantDiff(text, m),
        );
      }
    });
  }
});

Deno.test("buildSchemata() coverLines are the unmutated copies of the changed lines", async (t) => {
  for (const { name, text } of SCHEMATA_CORPUS) {
    await t.step(name, () => {
      const mutants = generateMutants(parser, "m.py", text);
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      const before = text.split(/\r\n|\n/);
      const after = schemata.text.split(/\r\n|\n/);
      for (const m of compiledIn(schemata, mutants)) {
        const lines = schemata.coverLines.get(m.id) ?? [];
        const diff = renderMutantDiff(text, m);
        assert.equal(lines.length, m.endLine - m.line + 1, diff);
        lines.forEach((l, i) => {
          assert.equal(mutantAtLine(schemata, l), undefined, diff);
          const copy = (after[l - 1] ?? "").trim();
          const original = (before[m.line + i - 1] ?? "").trim();
          // A body on the def line starts a line of its own in the copy;
          // the outermost function's declarations are hoisted, a `pass`
          // left in their place.
          const same = DECLARATION.test(original)
            ? copy === "pass" || copy === original
            : i === 0
            ? original.endsWith(copy)
            : original === copy;
          assert.ok(same && copy !== "", `${diff}\n${l}: ${copy}`);
        });
      }
    });
  }
});

Deno.test("mutantAtLine() finds the mutant whose branch holds a line", () => {
  const text = "def f(a):\n    x = a + 1\n    return x * 2\n";
  const mutants = generateMutants(parser, "m.py", text);
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  const lines = schemata.text.split("\n");
  for (const m of mutants) {
    const [first, last] = schemata.branchLines.get(m.id) ?? [0, 0];
    assert.equal(lines[first - 1]?.trim(), `if __pawl_active__ == "${m.id}":`);
    // The branch runs to the last line of its copy of the two-line body.
    assert.ok(last >= first + 2, `${m.id}: ${first}-${last}`);
    assert.equal(
      lines[last - 1]?.trim(),
      applyMutant(text, m).trimEnd().split("\n").at(-1)?.trim(),
    );
    for (let line = first; line <= last; line++) {
      assert.equal(mutantAtLine(schemata, line), m.id);
    }
  }
  assert.equal(mutantAtLine(schemata, 1), undefined);
});

Deno.test("mutantAtLine() finds no mutant on a line past every branch", () => {
  const text = "def f(a):\n    return a + 1\n\n\nX = 1\n";
  const mutants = generateMutants(parser, "m.py", text);
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  const lines = schemata.text.split("\n");
  const x = lines.indexOf("X = 1") + 1;
  assert.ok(x > 0);
  assert.ok(
    [...schemata.branchLines.values()].every(([, last]) => last < x),
  );
  assert.equal(mutantAtLine(schemata, x), undefined);
});

Deno.test("buildSchemata() excludes a mutant it cannot compile in faithfully", async (t) => {
  const cases: [string, string, (m: Mutant) => boolean, RegExp][] = [
    [
      "removing the only yield",
      "def g(x):\n    yield x\n",
      (m) => m.replacement === "pass",
      /^"g" would stop being a generator: the change removes every "yield" in it$/,
    ],
    [
      "unbinding a local that shadows a builtin",
      "def f(xs):\n    len = 3\n    return len + xs\n",
      (m) => m.replacement === "pass",
      /^"len" would stop being a local of "f" and could then name the builtin "len"$/,
    ],
    [
      "unbinding a local named _, a builtin once gettext is installed",
      "def f(x):\n    _ = 3\n    return _ + x\n",
      (m) => m.replacement === "pass",
      /^"_" would stop being a local of "f" and could then name the builtin "_"$/,
    ],
    [
      "unbinding two locals: the first by name is named",
      "def f(x):\n    len, abs = 1, 2\n    return x\n",
      (m) => m.replacement === "pass",
      /^"abs" would stop being a local of "f" and could then name the builtin "abs"$/,
    ],
    [
      "unbinding a local that shadows a module global",
      "limit = 1\ndef f(x):\n    limit = 3\n    return limit + x\n",
      (m) => m.replacement === "pass",
      /^"limit" would stop being a local of "f" and could then name the module's global "limit"$/,
    ],
    [
      "unbinding a local that shadows a global another function binds",
      "def setup():\n    global limit\n    limit = 5\ndef f(x):\n    limit = 3\n    return limit + x\n",
      (m) => m.original === "limit = 3" && m.replacement === "pass",
      /^"limit" would stop being a local of "f" and could then name the module's global "limit"$/,
    ],
    [
      "unbinding a local of a module that binds globals at run time",
      "from os import *\ndef f(x):\n    y = 3\n    return y + x\n",
      (m) => m.replacement === "pass",
      /^"y" would stop being a local of "f" and the module may bind globals at run time$/,
    ],
    [
      "unbinding a local a nested function declares nonlocal",
      "def f(x):\n    n = x\n    def g():\n        nonlocal n\n        n += 1\n    g()\n    return n\n",
      (m) => m.original === "n = x",
      /^"n" would stop being a local of "f" while a nested function declares it "nonlocal"$/,
    ],
    [
      "returning a value from an async generator",
      "async def a(x):\n    yield x\n",
      (m) => m.replacement.startsWith("return None"),
      /^"return None" is a syntax error in the async generator "a"$/,
    ],
    [
      "a double quote inside a double-quoted f-string",
      "def f(x):\n    return f\"{x or 'a'}\"\n",
      (m) => m.original === "'a'",
      /^the replacement's quotes would end the enclosing f-string before Python 3\.12$/,
    ],
    [
      "a body indented with tabs and spaces",
      "def f(x):\n\t if x:\n\t \treturn 1\n\t return 2\n",
      (m) => m.operator === "constant",
      /^the body of "f" mixes tabs and spaces in its indentation$/,
    ],
  ];
  for (const [name, text, pick, reason] of cases) {
    await t.step(name, async () => {
      const mutants = generateMutants(parser, "m.py", text);
      const picked = mutants.filter(pick);
      assert.ok(picked.length > 0, "no such mutant");
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      for (const m of picked) {
        assert.match(schemata.excluded.get(m.id) ?? "compiled in", reason);
      }
      const runs = await runVariants(text, schemata, [], []);
      assert.equal(runs["schemata"]?.compile, undefined, schemata.text);
    });
  }
});

Deno.test("buildSchemata() excludes a mutant that unbinds a local where the module may bind globals at run time", async (t) => {
  const cases: [string, string][] = [
    ["globals()", 'globals()["y"] = 1\n'],
    ["exec()", 'exec("y = 1")\n'],
  ];
  for (const [name, tail] of cases) {
    await t.step(name, () => {
      const text = `def f(x):\n    y = 3\n    return y + x\n${tail}`;
      const mutants = generateMutants(parser, "m.py", text);
      const unbinding = mutants.filter((m) => m.original === "y = 3");
      assert.equal(unbinding.length, 1);
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      assert.equal(
        schemata.excluded.get(unbinding[0]!.id),
        '"y" would stop being a local of "f" and the module may bind globals at run time',
      );
    });
  }
});

/** The schemata of `text`, and the id of the one early return of `fn`. */
function earlyReturnOf(
  text: string,
  fn: string,
): { schemata: Schemata; id: string } {
  const mutants = generateMutants(parser, "m.py", text);
  const early = mutants.filter((m) =>
    m.function === fn && m.replacement.startsWith("return None")
  );
  assert.equal(early.length, 1);
  return {
    schemata: buildSchemata(parser, "m.py", text, mutants),
    id: early[0]!.id,
  };
}

Deno.test("buildSchemata() excludes a returned value in an async generator nested in a function that is none", () => {
  const { schemata, id } = earlyReturnOf(
    "def make():\n    async def a(x):\n        yield x\n    return a\n",
    "make.a",
  );
  assert.equal(
    schemata.excluded.get(id),
    '"return None" is a syntax error in the async generator "a"',
  );
});

Deno.test("buildSchemata() compiles in a returned value in a plain function nested in an async generator", () => {
  const { schemata, id } = earlyReturnOf(
    "async def a(x):\n    def helper():\n        return x\n    yield helper()\n",
    "a.helper",
  );
  assert.equal(schemata.excluded.get(id), undefined);
  assert.ok(schemata.coverLines.has(id));
});

Deno.test("buildSchemata() compiles in a quote change inside an f-string whose interpolation already holds that quote", () => {
  // Python 3.12 syntax: the file runs only where the quote cannot end the f-string.
  const text = 'def f(x):\n    return f"{x or "a"}"\n';
  const mutants = generateMutants(parser, "m.py", text);
  const inner = mutants.filter((m) => m.original === '"a"');
  assert.equal(inner.length, 1);
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  assert.equal(schemata.excluded.get(inner[0]!.id), undefined);
  assert.ok(schemata.coverLines.has(inner[0]!.id));
});

Deno.test("buildSchemata() compiles in a mutant that keeps its function's scope as it is", async (t) => {
  const cases: [string, string, (m: Mutant) => boolean, string[]][] = [
    [
      "a returned None in a generator that is not async",
      "def g(x):\n    yield x\n",
      (m) => m.replacement.startsWith("return None"),
      ["list(g(1))"],
    ],
    [
      "a returned None in an async function that is no generator",
      "async def a(x):\n    return x + 1\n",
      (m) => m.replacement.startsWith("return None"),
      ["__import__('asyncio').run(a(1))"],
    ],
    [
      "a negated condition that names return in an async generator",
      'async def a(xs):\n    for s in xs:\n        if s == "return":\n            yield s\n',
      (m) => m.operator === "negate",
      [],
    ],
    [
      "a removed yield where another stays",
      "def g(x):\n    yield x\n    yield x + 1\n",
      (m) => m.original === "yield x" && m.replacement === "pass",
      ["list(g(1))"],
    ],
    [
      "an unbound local shadowing a builtin that is bound elsewhere too",
      "def f(xs):\n    len = 3\n    len = len + xs\n    return len\n",
      (m) => m.original === "len = 3" && m.replacement === "pass",
      ["f(1)"],
    ],
    [
      "an unbound name the function declares global",
      "counter = 0\ndef f():\n    global counter\n    counter = 1\n    return counter\n",
      (m) => m.original === "counter = 1" && m.replacement === "pass",
      ["f()"],
    ],
    [
      "an unbound local whose name only ends in two underscores",
      "def f(v):\n    x__ = v\n    return v\n",
      (m) => m.original === "x__ = v",
      ["f(1)"],
    ],
    [
      "an unbound local whose name only starts with two underscores",
      "def f(v):\n    __x = v\n    return v\n",
      (m) => m.original === "__x = v",
      ["f(1)"],
    ],
    [
      "a double quote inside a triple-single-quoted f-string",
      "def f(x):\n    return f'''{x or 'a'}'''\n",
      (m) => m.original === "'a'",
      ["f(0)"],
    ],
    [
      "a double quote inside a triple-quoted f-string",
      'def f(x):\n    return f"""{x or \'a\'}"""\n',
      (m) => m.original === "'a'",
      ["f(0)"],
    ],
    [
      "a negated condition that keeps the only yield",
      "def g(x):\n    if (yield x):\n        return 1\n",
      (m) => m.operator === "negate",
      ["list(g(1))"],
    ],
    [
      "a dropped not that keeps the only yield",
      "def g(x):\n    if not (yield x):\n        return 1\n",
      (m) => m.original.startsWith("not") && !m.replacement.startsWith("not"),
      ["list(g(1))"],
    ],
    [
      "a dropped not that keeps the walrus binding a module global's name",
      "limit = 1\ndef f(x):\n    if not (limit := x):\n        return 0\n    return limit\n",
      (m) => m.original.startsWith("not") && !m.replacement.startsWith("not"),
      ["f(0)", "f(5)"],
    ],
  ];
  for (const [name, text, pick, calls] of cases) {
    await t.step(name, async () => {
      const mutants = generateMutants(parser, "m.py", text);
      const picked = mutants.filter(pick);
      assert.equal(picked.length, 1, "no such mutant");
      const m = picked[0]!;
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      assert.equal(schemata.excluded.get(m.id), undefined);
      const runs = await runVariants(text, schemata, [m], calls);
      assert.deepEqual(
        outcome(runs[`schemata ${m.id}`]),
        outcome(runs[`mutant ${m.id}`]),
      );
    });
  }
});

Deno.test("buildSchemata() compiles in an unbound local no other scope names", () => {
  const text =
    "def f(xs):\n    acc = sum(xs)\n    result = acc * 2\n    return result\n";
  const mutants = generateMutants(parser, "m.py", text);
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  const unbinding = mutants.filter((m) => m.replacement === "pass");
  assert.equal(unbinding.length, 2);
  for (const m of unbinding) {
    assert.equal(schemata.excluded.get(m.id), undefined);
  }
});

Deno.test("buildSchemata() excludes a mutant that is not of this file's function bodies", async (t) => {
  const text = "X = 1\ndef f(a):\n    return a + 1\n";
  const [m] = generateMutants(parser, "m.py", text, {
    operators: ["arithmetic"],
  });
  assert.ok(m !== undefined);
  const moduleLevel: Mutant = {
    ...m,
    id: "mtop",
    start: 4,
    end: 5,
    original: "1",
    replacement: "2",
  };
  const cases: [string, Mutant[], string, string][] = [
    [
      "outside every function",
      [moduleLevel],
      "mtop",
      "the change is not inside a function body",
    ],
    [
      "of another file",
      [{ ...m, file: "n.py" }],
      m.id,
      'the mutant is of "n.py", not "m.py"',
    ],
    [
      "whose text is not there",
      [{ ...m, original: "-" }],
      m.id,
      `the mutant's original text is not at offset ${m.start} of "m.py"`,
    ],
    [
      "given twice",
      [m, { ...m, replacement: "*" }],
      m.id,
      `the id "${m.id}" is given more than once`,
    ],
  ];
  for (const [name, mutants, id, reason] of cases) {
    await t.step(name, () => {
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      assert.equal(schemata.excluded.get(id), reason);
      assert.equal(schemata.coverLines.has(id), false);
      assert.equal(schemata.text, text);
    });
  }
});

Deno.test("buildSchemata() leaves out the mutants of the largest functions first when the copies would grow too long", () => {
  const big = Array.from({ length: 30 }, (_, i) => `    x = x * ${i + 2}\n`);
  const small = Array.from(
    { length: 6 },
    (_, i) => `def small${i}(x):\n    return x + ${i + 1}\n`,
  );
  const text = `def big(x):\n${big.join("")}    return x\n${small.join("")}`;
  const mutants = generateMutants(parser, "m.py", text);
  const unbounded = buildSchemata(parser, "m.py", text, mutants);
  assert.equal(unbounded.excluded.size, 0);
  const maxLength = 10 * text.length;
  const schemata = buildSchemata(parser, "m.py", text, mutants, { maxLength });
  assert.ok(schemata.text.length <= maxLength, `${schemata.text.length}`);
  const of = (name: string) => mutants.filter((m) => m.function === name);
  for (const m of mutants.filter((m) => m.function !== "big")) {
    assert.equal(schemata.excluded.get(m.id), undefined);
  }
  const left = of("big").filter((m) => schemata.excluded.has(m.id));
  assert.ok(left.length > 0 && left.length < of("big").length);
  assert.equal(
    schemata.excluded.get(left[0]?.id ?? ""),
    `a copy of "big" for it would take the schemata past ${maxLength} characters`,
  );
});

Deno.test("buildSchemata() never lets the text grow past maxLength, whatever it is", () => {
  const text = [
    "def f(a):\n    return a + 1\n",
    "def g(b):\n    if b > 2:\n        return b * 3\n    return 'long string ' * b\n",
    "def h(c):\n    x = c - 1\n    y = x // 2\n    return x < y\n",
  ].join("\n\n");
  const mutants = generateMutants(parser, "m.py", text);
  const full = buildSchemata(parser, "m.py", text, mutants).text.length;
  for (let maxLength = text.length; maxLength <= full; maxLength += 7) {
    const schemata = buildSchemata(parser, "m.py", text, mutants, {
      maxLength,
    });
    assert.ok(
      schemata.text.length <= maxLength,
      `${schemata.text.length} > ${maxLength}`,
    );
  }
});

Deno.test("buildSchemata() keeps one mutant's copy within maxLength, whatever the shape of its function", async (t) => {
  const body = Array.from({ length: 40 }, () => "    x = x + 1\n").join("");
  const cases: [string, string, (m: Mutant) => Mutant][] = [
    [
      "a long replacement",
      "def f(x):\n    return x + 1\n",
      (m) => ({ ...m, replacement: `1${"0".repeat(2000)}` }),
    ],
    ["a long body", `def f(x):\n${body}    return x\n`, (m) => m],
    [
      "a deeply indented method with CRLF line ends",
      "class C:\r\n    class D:\r\n        def m(self, x):\r\n            if x:\r\n                return x + 1\r\n            return 0\r\n",
      (m) => m,
    ],
    [
      "a body indented by tabs",
      "def f(x):\n\tif x:\n\t\treturn x + 1\n\treturn 0\n",
      (m) => m,
    ],
  ];
  for (const [name, text, change] of cases) {
    await t.step(name, () => {
      const [first] = generateMutants(parser, "m.py", text, {
        operators: ["constant"],
      });
      assert.ok(first !== undefined && first.original === "1");
      const m = change(first);
      const full = buildSchemata(parser, "m.py", text, [m]).text.length;
      // The least maxLength that takes the mutant in: the copy must fit it.
      let [low, high] = [text.length, 4 * full];
      while (low < high) {
        const mid = Math.floor((low + high) / 2);
        const { excluded } = buildSchemata(parser, "m.py", text, [m], {
          maxLength: mid,
        });
        if (excluded.size === 0) high = mid;
        else low = mid + 1;
      }
      assert.ok(low < 4 * full, "never compiled in");
      const least = buildSchemata(parser, "m.py", text, [m], {
        maxLength: low,
      });
      assert.equal(least.excluded.size, 0);
      assert.ok(least.text.length <= low, `${least.text.length} > ${low}`);
    });
  }
});

Deno.test("buildSchemata() keeps many copies of a long function within maxLength", () => {
  const body = Array.from({ length: 40 }, (_, i) => `    x = x + ${i}\n`);
  const text = `def f(x):\n${body.join("")}    return x\n`;
  const mutants = generateMutants(parser, "m.py", text, {
    operators: ["constant"],
  }).slice(0, 20);
  assert.equal(mutants.length, 20);
  const full = buildSchemata(parser, "m.py", text, mutants).text.length;
  for (let k = 1; k <= 40; k++) {
    const maxLength = text.length + Math.floor(k * (full - text.length) / 40);
    const schemata = buildSchemata(parser, "m.py", text, mutants, {
      maxLength,
    });
    assert.ok(
      schemata.text.length <= maxLength,
      `${schemata.text.length} > ${maxLength}`,
    );
  }
});

Deno.test("buildSchemata() leaves the file as it is when no copy fits", () => {
  const text = "def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b * 2\n";
  const mutants = generateMutants(parser, "m.py", text);
  const schemata = buildSchemata(parser, "m.py", text, mutants, {
    maxLength: text.length,
  });
  assert.equal(schemata.text, text);
  assert.equal(schemata.excluded.size, mutants.length);
  assert.equal(schemata.coverLines.size, 0);
  assert.equal(schemata.branchLines.size, 0);
});

Deno.test("buildSchemata() leaves a file without mutants as it is", () => {
  const text = "def f(a):\r\n    return a\r\n";
  const schemata = buildSchemata(parser, "m.py", text, []);
  assert.equal(schemata.text, text);
  assert.equal(schemata.excluded.size, 0);
  assert.equal(schemata.coverLines.size, 0);
});

Deno.test("buildSchemata() compiles a function with more mutants than an elif chain allows", async () => {
  // CPython's compiler recurses once per `elif`: 3,000 of them overflow it.
  const text = "def f(x):\n    return x + 1\n";
  const [m] = generateMutants(parser, "m.py", text, {
    operators: ["constant"],
  });
  assert.ok(m !== undefined);
  const mutants = Array.from({ length: 3000 }, (_, i) => ({
    ...m,
    id: `m${i}`,
    replacement: String(i + 2),
  }));
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  assert.equal(schemata.excluded.size, 0);
  const sample = [mutants[0], mutants[1500], mutants.at(-1)] as Mutant[];
  const runs = await runVariants(text, schemata, sample, ["f(0)"]);
  assert.equal(runs["schemata"]?.compile, undefined);
  assert.deepEqual(outcome(runs["schemata"]), outcome(runs["original"]));
  for (const m of sample) {
    assert.deepEqual(
      outcome(runs[`schemata ${m.id}`]),
      outcome(runs[`mutant ${m.id}`]),
    );
  }
});

Deno.test("buildSchemata() gives the same schemata whichever function's mutants come first", () => {
  const text =
    "def f(a):\n    return a + 1\n\n\ndef g(b):\n    return b < 2\n\n\nX = f(1)\n";
  const mutants = generateMutants(parser, "m.py", text);
  assert.ok(new Set(mutants.map((m) => m.function)).size === 2);
  const inOrder = buildSchemata(parser, "m.py", text, mutants);
  const reversed = buildSchemata(parser, "m.py", text, [
    ...mutants.filter((m) => m.function === "g"),
    ...mutants.filter((m) => m.function === "f"),
  ]);
  assert.equal(inOrder.excluded.size, 0);
  assert.equal(reversed.text, inOrder.text);
  assert.deepEqual(reversed.coverLines, inOrder.coverLines);
  assert.deepEqual(reversed.branchLines, inOrder.branchLines);
  assert.ok(reversed.text.endsWith("\n\n\nX = f(1)\n"));
});

Deno.test("buildSchemata() copies a body indented by tabs or spaces alone, and excludes one whose indentation mixes them", async (t) => {
  const cases: [string, string, boolean][] = [
    [
      "a one-line method of a class indented by a tab",
      "class C:\n\tdef f(self, a): return a + 1\n",
      true,
    ],
    [
      "a method indented by a tab whose body adds spaces",
      "class C:\n\tdef f(self, a):\n\t    return a + 1\n",
      false,
    ],
    [
      "a body indented by a tab with a nested line that adds spaces",
      "def f(a):\n\tif a:\n\t    return a + 1\n\treturn a\n",
      false,
    ],
    [
      "a body indented by tabs whose bracketed lines are aligned by spaces",
      "def f(a):\n\treturn [a + 1,\n\t        a - 1]\n",
      true,
    ],
  ];
  for (const [name, text, compiled] of cases) {
    await t.step(name, () => {
      const mutants = generateMutants(parser, "m.py", text);
      assert.ok(mutants.length > 0);
      const schemata = buildSchemata(parser, "m.py", text, mutants);
      const reasons = [...new Set(schemata.excluded.values())];
      if (compiled) {
        assert.deepEqual(reasons, []);
        assert.equal(schemata.coverLines.size, mutants.length);
      } else {
        assert.deepEqual(reasons, [
          `the body of "f" mixes tabs and spaces in its indentation`,
        ]);
        assert.equal(schemata.text, text);
      }
    });
  }
});

Deno.test("buildSchemata() breaks the lines it adds as the function's own lines break", () => {
  // A file whose head breaks lines with LF and whose function, with CRLF.
  const text =
    "import os\n\ndef f(a):\r\n    if a > 1:\r\n        return a + 1\r\n    return a\r\n";
  const mutants = generateMutants(parser, "m.py", text);
  const schemata = buildSchemata(parser, "m.py", text, mutants);
  assert.equal(schemata.excluded.size, 0);
  assert.ok(schemata.text.startsWith("import os\n\ndef f(a):\r\n"));
  // The lines that choose a branch (a mutant's own text is as it made it).
  const added = schemata.text.split("\n").filter((l) =>
    /__pawl_active__|^\s*else:/.test(l)
  );
  assert.equal(added.length, mutants.length + 2);
  for (const line of added) assert.ok(line.endsWith("\r"), line);
});
