/**
 * The README and every page under docs/, checked against pawl itself: every
 * relative link and anchor resolves, every `pawl.toml` and contract snippet
 * is read by pawl's own readers, every option table lists exactly the
 * options the command's parser knows, the action's tables match action.yml,
 * every `pawl …` command line in a shell snippet names a real command and
 * options it takes, the pawl.toml reference lists exactly the settings
 * schema's keys, Python snippets parse, every rule id named is a rule, and
 * the quick start is two commands that exist.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { ROOT } from "./_cli.ts";
import { CHECK_OPTIONS } from "../src/cli/_check_options.ts";
import {
  AUDIT_OPTIONS,
  AUDIT_REPORT_OPTIONS,
} from "../src/cli/audit_command.ts";
import { DEMO_OPTIONS } from "../src/cli/demo_command.ts";
import { KEYGEN_OPTIONS } from "../src/cli/keygen_command.ts";
import { PROPOSE_OPTIONS } from "../src/cli/propose_command.ts";
import { SERVE_OPTIONS } from "../src/cli/serve_command.ts";
import { VERIFY_OPTIONS } from "../src/cli/verify_command.ts";
import { readSettings } from "../src/settings/read_settings.ts";
import { SettingsSchema } from "../src/settings/settings.ts";
import { RULES } from "../src/core/rules.ts";
import { loadYamlParser } from "../src/contract/parse_yaml_document.ts";
import { readAgentContract } from "../src/layouts/agent_contract/read_agent_contract.ts";
import { readPropertyRegistry } from "../src/layouts/invariants/read_property_registry.ts";
import { readFixtureLock } from "../src/layouts/invariants/read_fixture_lock.ts";
import { readFreezeList } from "../src/layouts/invariants/read_freeze_list.ts";
import { readContracts } from "../src/layouts/seed_contracts/read_contracts.ts";
import { readFlakeFreeze } from "../src/layouts/seed_contracts/read_flake_freeze.ts";

/** Every command's options, as its parser takes them. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  check: Object.keys(CHECK_OPTIONS),
  diff: Object.keys(CHECK_OPTIONS),
  propose: Object.keys(PROPOSE_OPTIONS),
  keygen: Object.keys(KEYGEN_OPTIONS),
  verify: Object.keys(VERIFY_OPTIONS),
  demo: Object.keys(DEMO_OPTIONS),
  audit: Object.keys(AUDIT_OPTIONS),
  "audit report": Object.keys(AUDIT_REPORT_OPTIONS),
  serve: Object.keys(SERVE_OPTIONS),
  version: [],
};

/** How each contract file named by a `<!-- file: NAME -->` marker is read. */
const READERS: Readonly<Record<string, (text: string) => unknown>> = {
  "pawl.toml": (text) => readSettings(text),
  "tests/agent_contract.yaml": (text) =>
    readAgentContract(text, { path: "tests/agent_contract.yaml" }),
  "invariants.toml": (text) => readPropertyRegistry(text),
  "fixtures.lock": (text) => readFixtureLock(text),
  "freeze.yml": (text) => readFreezeList(text),
  "contracts.yml": (text) => readContracts(text),
  "flake_freeze.yml": (text) => readFlakeFreeze(text),
};

interface Page {
  path: string;
  text: string;
}

interface Block {
  page: string;
  line: number;
  lang: string;
  body: string;
  /** The `<!-- … -->` comment right before the block, if any. */
  marker: string | undefined;
}

async function pages(): Promise<Page[]> {
  const paths = ["README.md"];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${ROOT}/${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".md")) paths.push(path);
    }
  };
  await walk("docs");
  paths.sort();
  return await Promise.all(paths.map(async (path) => ({
    path,
    text: await Deno.readTextFile(`${ROOT}/${path}`),
  })));
}

const PAGES = await pages();
await loadYamlParser();

function blocks(page: Page): Block[] {
  const lines = page.text.split("\n");
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```([a-z]*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const comment = /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[before] ?? "");
    found.push({
      page: page.path,
      line: i + 1,
      lang: open[2]!,
      body: lines.slice(i + 1, end).map((l) => l.slice(indent)).join("\n") +
        "\n",
      marker: comment?.[1],
    });
    i = end;
  }
  return found;
}

/** The text of a page with its fenced blocks and inline code blanked out: a link there is code, not a link. */
function prose(page: Page): string {
  return page.text.replace(/^\s*```[a-z]*\n[\s\S]*?^\s*```$/gm, "")
    .replace(/(`+)[\s\S]*?(?<!`)\1(?!`)/g, "");
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const body = text.replace(/^```[a-z]*\n[\s\S]*?^```$/gm, "");
  for (const m of body.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function resolve(from: string, target: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

Deno.test("every relative link in the README and docs/ leads to a file, and every anchor to a heading", async () => {
  const problems: string[] = [];
  let links = 0;
  for (const page of PAGES) {
    for (const m of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      links++;
      const [file = "", anchor] = target.split("#");
      const path = file === "" ? page.path : resolve(page.path, file);
      const info = await Deno.stat(`${ROOT}/${path}`).catch(() => undefined);
      if (info === undefined) {
        problems.push(`${page.path}: ${target}: no ${path}`);
        continue;
      }
      if (anchor === undefined) continue;
      const text = info.isFile
        ? await Deno.readTextFile(`${ROOT}/${path}`)
        : "";
      if (!anchors(text).has(anchor)) {
        problems.push(`${page.path}: ${target}: no heading #${anchor}`);
      }
    }
  }
  assert.ok(links > 100, `only ${links} links found`);
  assert.deepEqual(problems, []);
});

Deno.test("every pawl.toml and contract snippet in the docs is read by pawl's own readers", async (t) => {
  let read = 0;
  for (const page of PAGES) {
    for (const block of blocks(page)) {
      const marked = /^file: (\S+)$/.exec(block.marker ?? "")?.[1];
      if (block.marker?.startsWith("fragment:")) continue;
      const file = marked ?? (block.lang === "toml" ? "pawl.toml" : undefined);
      if (file === undefined) continue;
      await t.step(`${block.page}:${block.line} (${file})`, () => {
        const reader = READERS[file];
        assert.ok(reader !== undefined, `no reader for "${file}"`);
        reader(block.body);
      });
      read++;
    }
  }
  assert.ok(read >= 15, `only ${read} snippets read`);
});

Deno.test("a pawl.toml snippet with an unknown key would fail the docs check", () => {
  assert.throws(
    () => READERS["pawl.toml"]!("[tests]\ntimeout = 60\n"),
    /timeout/,
  );
});

/** The code spans of the first column of the table after `marker`. */
function firstColumn(page: Page, marker: string): string[] {
  const at = page.text.indexOf(`<!-- ${marker} -->`);
  assert.ok(at >= 0, `${page.path} has no "${marker}"`);
  const rows = page.text.slice(at).split("\n").slice(1)
    .filter((l, i, all) =>
      l.startsWith("|") &&
      all.slice(0, i).every((p) => p.trim() === "" || p.startsWith("|"))
    );
  assert.ok(rows.length > 2, `${page.path}: no table after "${marker}"`);
  return rows.slice(2).flatMap((row) =>
    row.split("|")[1]!.match(/`[^`]+`/g) ?? []
  ).map((cell) => cell.slice(1, -1));
}

/** The options (`--x`, `-h`) named in the first column of the table after `marker`. */
function tableOptions(page: Page, marker: string): string[] {
  return firstColumn(page, marker).map((cell) => cell.split(/\s/)[0]!);
}

// deno-lint-ignore no-explicit-any
type Schema = any;

function unwrapped(schema: Schema): Schema {
  let s = schema;
  while (["default", "prefault", "optional", "nullable"].includes(s.def.type)) {
    s = s.def.innerType;
  }
  return s;
}

/** `[table] key` for every key of the settings schema (`[[excuses]] test` for arrays of tables). */
function settingsKeys(
  schema: Schema,
  table = "",
  out: string[] = [],
): string[] {
  for (const [key, value] of Object.entries(unwrapped(schema).shape)) {
    const inner = unwrapped(value);
    const element = inner.def.type === "array"
      ? unwrapped(inner.def.element)
      : undefined;
    if (inner.def.type === "object") {
      settingsKeys(inner, table === "" ? key : `${table}.${key}`, out);
    } else if (table === "" && element?.def.type === "object") {
      for (const item of Object.keys(element.shape)) {
        out.push(`[[${key}]] ${item}`);
      }
    } else {
      out.push(`[${table}] ${key}`);
    }
  }
  return out;
}

Deno.test("the pawl.toml reference lists every key the settings reader takes, and no other", () => {
  const page = PAGES.find((p) => p.path === "docs/configuration.md")!;
  const known = settingsKeys(SettingsSchema);
  assert.ok(known.length > 20, known.join());
  assert.deepEqual(
    [...firstColumn(page, "settings-keys")].sort(),
    [...known].sort(),
  );
});

Deno.test("every option table lists exactly the options its command takes", async (t) => {
  let tables = 0;
  for (const page of PAGES) {
    for (const m of page.text.matchAll(/<!-- options: ([a-z ]+) -->/g)) {
      const command = m[1]!;
      await t.step(`${page.path}: ${command}`, () => {
        const known = COMMAND_OPTIONS[command];
        assert.ok(known !== undefined, `no command "${command}"`);
        const listed = tableOptions(page, `options: ${command}`)
          .filter((o) => o !== "-h")
          .map((o) => o.replace(/^--/, ""));
        assert.deepEqual(
          [...new Set(listed)].sort(),
          [...new Set([...known, "help"])].sort(),
        );
      });
      tables++;
    }
  }
  assert.ok(tables >= 8, `only ${tables} option tables`);
});

Deno.test("the action's tables list exactly the inputs and outputs of action.yml", () => {
  const action = parseYaml(Deno.readTextFileSync(`${ROOT}/action.yml`));
  const page = PAGES.find((p) => p.path === "docs/github-actions.md")!;
  assert.deepEqual(
    tableOptions(page, "action-inputs").sort(),
    Object.keys(action.inputs).sort(),
  );
  assert.deepEqual(
    tableOptions(page, "action-outputs").sort(),
    Object.keys(action.outputs).sort(),
  );
  const linked = /^# Example workflows: (\S+)\.$/m.exec(
    Deno.readTextFileSync(`${ROOT}/action.yml`),
  )?.[1];
  assert.equal(linked, "docs/github-actions.md");
});

/** Each `pawl COMMAND …` in a shell snippet, with its options. */
function commandLines(block: Block): { command: string; options: string[] }[] {
  const joined = block.body.replace(/\\\n\s*/g, " ");
  const found: { command: string; options: string[] }[] = [];
  for (const line of joined.split("\n")) {
    const code = line.replace(/\s#\s.*$/, "");
    for (
      const m of code.matchAll(/(?:^|[\s/])pawl\s+([a-z][a-z-]*)([^|;&]*)/g)
    ) {
      let command = m[1]!;
      let rest = m[2]!;
      if (command === "audit" && /^\s+report\b/.test(rest)) {
        command = "audit report";
        rest = rest.replace(/^\s+report/, "");
      }
      const options = [...rest.matchAll(/(?:^|\s)--([a-z][a-z-]*)/g)].map((
        o,
      ) => o[1]!);
      found.push({ command, options });
    }
  }
  return found;
}

Deno.test("every pawl command line in a shell snippet names a real command and options it takes", async (t) => {
  let lines = 0;
  for (const page of PAGES) {
    for (const block of blocks(page)) {
      if (!["sh", "bash", "shell"].includes(block.lang)) continue;
      for (const { command, options } of commandLines(block)) {
        await t.step(`${block.page}:${block.line}: pawl ${command}`, () => {
          const known = COMMAND_OPTIONS[command];
          assert.ok(known !== undefined, `no command "${command}"`);
          for (const option of options) {
            assert.ok(
              [...known, "help"].includes(option),
              `"pawl ${command}" has no option "--${option}"`,
            );
          }
        });
        lines++;
      }
    }
  }
  assert.ok(lines >= 15, `only ${lines} command lines`);
});

Deno.test("the README's quick start is two commands, each a task of deno.json", () => {
  const readme = PAGES.find((p) => p.path === "README.md")!;
  const start = readme.text.indexOf("## Quick start");
  const first = blocks({
    path: "README.md",
    text: readme.text.slice(start),
  })[0]!;
  const commands = first.body.split("\n").map((l) => l.replace(/\s+#.*$/, ""))
    .filter((l) => l.trim() !== "");
  assert.equal(commands.length, 2, first.body);
  const tasks = JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).tasks;
  for (const command of commands) {
    const task = /^npx -y deno@[\d.]+ task ([a-z]+)$/.exec(command)?.[1];
    assert.ok(task !== undefined && task in tasks, command);
  }
  const version = /deno@([\d.]+)/.exec(first.body)?.[1];
  const denoVersion = Deno.version.deno;
  assert.equal(version, denoVersion);
});

Deno.test("the README stays a way in: at most 400 lines", () => {
  const readme = PAGES.find((p) => p.path === "README.md")!;
  assert.ok(readme.text.split("\n").length <= 400);
});

Deno.test("every Python snippet in the docs is valid Python", async (t) => {
  let parsed = 0;
  for (const page of PAGES) {
    for (const block of blocks(page)) {
      if (block.lang !== "python") continue;
      await t.step(`${block.page}:${block.line}`, async () => {
        const child = new Deno.Command("python3", {
          args: ["-c", "import ast, sys; ast.parse(sys.stdin.read())"],
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(block.body));
        await writer.close();
        const out = await child.output();
        assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      });
      parsed++;
    }
  }
  assert.ok(parsed >= 3, `only ${parsed} Python snippets`);
});

Deno.test("every rule id the docs name is a rule of pawl's", () => {
  const unknown: string[] = [];
  let named = 0;
  const shape =
    /`((?:property|fixture|freeze|seed|config|harness|tests)\.([a-z_]+))`/g;
  for (const page of PAGES) {
    for (const m of page.text.matchAll(shape)) {
      const id = m[1]!;
      const rest = m[2]!;
      // File names (`freeze.yml`) and verdict fields (`tests.mutation`)
      // share the shape; a rule's second part has an underscore or is known.
      const file = ["yml", "yaml", "toml", "lock", "md", "json"].includes(rest);
      const field = id.startsWith("tests.") && !rest.includes("_") &&
        !(id in RULES);
      if (file || field) continue;
      named++;
      if (!(id in RULES)) unknown.push(`${page.path}: ${id}`);
    }
  }
  assert.ok(named > 100, `only ${named} rule ids named`);
  assert.deepEqual(unknown, []);
});
