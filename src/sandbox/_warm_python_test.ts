import assert from "node:assert/strict";
import {
  handoverBytes,
  parseWarmReport,
  WARM_REPORT_PREFIX,
  warmArgv,
  warmModule,
} from "./_warm_python.ts";

Deno.test("warmModule() takes only `<program> -m <plain module name> ...`", () => {
  const cases: [string, string[], string | undefined][] = [
    ["pytest", ["python3", "-m", "pytest", "-q"], "pytest"],
    ["no arguments after it", ["/usr/bin/python3", "-m", "_mod1"], "_mod1"],
    ["an empty program", ["", "-m", "pytest"], undefined],
    [
      "an option before -m",
      ["python3", "-X", "dev", "-m", "pytest"],
      undefined,
    ],
    ["no module", ["python3", "-m"], undefined],
    ["a dotted module", ["python3", "-m", "pkg.tool"], undefined],
    ["a module with a dash", ["python3", "-m", "my-tool"], undefined],
    ["a module starting with a digit", ["python3", "-m", "1tool"], undefined],
    ["a script", ["python3", "run.py"], undefined],
    ["nothing", [], undefined],
  ];
  for (const [name, argv, module] of cases) {
    assert.equal(warmModule(argv), module, name);
  }
  assert.throws(() => warmArgv(["python3", "-m", "pkg.tool"]), {
    name: "RangeError",
    message: 'Cannot start "python3 -m pkg.tool" warm',
  });
});

Deno.test("handoverBytes() hands over the arguments after the module, each ended by a NUL", () => {
  const text = (argv: string[]) =>
    new TextDecoder().decode(handoverBytes(argv));
  assert.equal(
    text(["python3", "-m", "pytest", "-q", "a b", ""]),
    "RUN\0-q\0a b\0\0",
  );
  assert.equal(text(["python3", "-m", "pytest"]), "RUN\0");
});

Deno.test("parseWarmReport() reads a ready or failed report of top-level names, and nothing else", () => {
  const report = (rest: string) => parseWarmReport(WARM_REPORT_PREFIX + rest);
  assert.deepEqual(report("ready runpy pytest _pytest"), {
    ready: true,
    modules: ["runpy", "pytest", "_pytest"],
  });
  assert.deepEqual(report("failed runpy"), {
    ready: false,
    modules: ["runpy"],
  });
  for (
    const line of [
      "ready runpy",
      "NOT-WARM: ready runpy",
      "PAWL-WARM",
      "PAWL-WARM started runpy",
      "PAWL-WARM  ready runpy",
      "PAWL-WARM ready runpy ../evil",
      "PAWL-WARM ready runpy  pytest",
      "PAWL-WARM ready runpy\tpytest",
    ]
  ) {
    assert.equal(parseWarmReport(line), undefined, line);
  }
});

Deno.test("a warm interpreter whose module did not import runs nothing it is handed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pawl-warm-python-" });
  try {
    const argv = ["python3", "-m", "pawl_no_such_module", "x"];
    const [program, ...args] = warmArgv(argv);
    // The module appears once the interpreter reported: a cold start
    // would now find it in the working directory.
    const child = new Deno.Command(program!, {
      args,
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let first = "";
    while (!first.includes("\n")) {
      const { value, done } = await out.read();
      if (done) break;
      first += value;
    }
    assert.equal(parseWarmReport(first.trimEnd())?.ready, false, first);
    await Deno.writeTextFile(
      `${dir}/pawl_no_such_module.py`,
      "print('ran')\n",
    );
    const writer = child.stdin.getWriter();
    await writer.write(handoverBytes(argv));
    await writer.close();
    let rest = "";
    for (;;) {
      const { value, done } = await out.read();
      if (done) break;
      rest += value;
    }
    const status = await child.status;
    const stderr = await new Response(child.stderr).text();
    assert.deepEqual([status.code, rest, stderr], [0, "", ""]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
