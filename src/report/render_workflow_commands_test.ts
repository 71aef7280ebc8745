import assert from "node:assert/strict";
import { finding } from "../core/finding.ts";
import { buildVerdict } from "../core/verdict.ts";
import {
  acceptVerdict,
  HOSTILE_MESSAGE,
  input,
  rejectVerdict,
} from "./_testing.ts";
import {
  renderWorkflowCommands,
  undecidedWorkflowCommand,
} from "./render_workflow_commands.ts";

interface Parsed {
  command: string;
  properties: Record<string, string>;
  message: string;
}

/** One line read back the way the Actions runner reads a command. */
function parseCommand(line: string): Parsed {
  assert.ok(line.startsWith("::"), line);
  const end = line.indexOf("::", 2);
  assert.ok(end > 2, line);
  const info = line.slice(2, end);
  const space = info.indexOf(" ");
  const command = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of info.slice(space + 1).split(",")) {
      const eq = pair.indexOf("=");
      assert.ok(eq > 0, `property without "=": ${pair}`);
      const key = pair.slice(0, eq);
      assert.ok(!(key in properties), `property "${key}" given twice`);
      properties[key] = unescape(pair.slice(eq + 1), true);
    }
  }
  return { command, properties, message: unescape(line.slice(end + 2), false) };
}

function unescape(value: string, property: boolean): string {
  let out = value.replace(/%0D/g, "\r").replace(/%0A/g, "\n");
  if (property) out = out.replace(/%3A/g, ":").replace(/%2C/g, ",");
  return out.replace(/%25/g, "%");
}

function commands(text: string): Parsed[] {
  assert.ok(text === "" || text.endsWith("\n"));
  return text.split("\n").slice(0, -1).map(parseCommand);
}

Deno.test("renderWorkflowCommands() writes an error per blocking finding and a warning per advisory one", () => {
  assert.equal(renderWorkflowCommands(acceptVerdict()), "");
  const verdict = rejectVerdict();
  const parsed = commands(renderWorkflowCommands(verdict));
  assert.equal(parsed.length, verdict.findings.length);
  for (const [i, f] of verdict.findings.entries()) {
    const c = parsed[i]!;
    assert.equal(c.command, f.blocking ? "error" : "warning");
    assert.equal(c.properties["title"], f.rule);
    assert.equal(c.message, f.message);
    assert.equal(c.properties["file"], f.path);
    assert.equal(c.properties["line"], f.line?.toString());
  }
});

Deno.test("renderWorkflowCommands() survives hostile messages and paths", async (t) => {
  const cases = [
    { name: "every character the reports escape", message: HOSTILE_MESSAGE },
    {
      name: "a second command on a new line",
      message: "ok\n::error file=README.md,line=1::forged\r\n::add-mask::x",
    },
    { name: "the end of the properties", message: "a::b:: c" },
    { name: "escapes written out", message: "100%0A done %25 %3A %2C" },
    { name: "stop-commands", message: "::stop-commands::token" },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const path = "tests/a,b:c%0A d,title=x.py";
      const text = renderWorkflowCommands(buildVerdict([
        finding("tests.failed", c.message, { path, line: 2 }),
        finding("seed.fresh_failed", c.message, { blocking: false }),
      ], input()));
      const parsed = commands(text);
      assert.equal(parsed.length, 2, text);
      assert.deepEqual(parsed[0], {
        command: "error",
        properties: { file: path, line: "2", title: "tests.failed" },
        message: c.message,
      });
      assert.deepEqual(parsed[1], {
        command: "warning",
        properties: { title: "seed.fresh_failed" },
        message: c.message,
      });
    });
  }
});

Deno.test("renderWorkflowCommands() names no file outside the repository", async (t) => {
  for (const path of ["/etc/passwd", "../x.py", "a/../../b", "a\nb.py"]) {
    await t.step(JSON.stringify(path), () => {
      const [c] = commands(renderWorkflowCommands(buildVerdict([
        finding("tests.failed", "failed", { path, line: 3 }),
      ], input())));
      assert.deepEqual(c!.properties, { title: "tests.failed" });
    });
  }
});

Deno.test("undecidedWorkflowCommand() is one error with the reason, at its file when it names one", () => {
  assert.deepEqual(commands(undecidedWorkflowCommand("no clock\n::x::y")), [{
    command: "error",
    properties: { title: "pawl could not decide" },
    message: "no clock\n::x::y",
  }]);
  assert.deepEqual(
    commands(undecidedWorkflowCommand("bad", { path: "pawl.toml", line: 4 })),
    [{
      command: "error",
      properties: {
        file: "pawl.toml",
        line: "4",
        title: "pawl could not decide",
      },
      message: "bad",
    }],
  );
});
