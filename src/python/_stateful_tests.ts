import type { Node } from "web-tree-sitter";
import type {
  HypothesisSettings,
  PythonDecorator,
  PythonFunction,
  SkipMarker,
  StatefulStep,
} from "./python_module.ts";
import type { ImportAliases } from "./_import_aliases.ts";
import { findSkips } from "./_find_skips.ts";
import { hypothesisSettings } from "./_hypothesis_settings.ts";
import { lastToken } from "./_last_token.ts";
import { pythonExpr } from "./_python_expr.ts";
import { realChildren } from "./_real_children.ts";
import { walk } from "./_walk.ts";
import { NESTED_SCOPES } from "./_nested_scopes.ts";

const MACHINE = "hypothesis.stateful.RuleBasedStateMachine";
const RUN = new Set([
  "hypothesis.stateful.run_state_machine_as_test",
  "run_state_machine_as_test",
]);
const SETTINGS = new Set(["settings", "hypothesis.settings"]);
const STEP_KINDS: Readonly<Record<string, StatefulStep["kinds"][number]>> = {
  "hypothesis.stateful.rule": "rule",
  "hypothesis.stateful.initialize": "initialize",
  "hypothesis.stateful.invariant": "invariant",
  "hypothesis.stateful.precondition": "precondition",
};

/** Everything the reader knows when it looks for stateful tests. */
export interface StatefulContext {
  /** The module's root node. */
  root: Node;
  /** Its imports. */
  aliases: ImportAliases;
  /** Source text of a node. */
  textOf: (node: Node) => string;
  /** The functions and methods read so far (methods of machines included). */
  functions: Map<string, PythonFunction>;
  /** Skips that apply to every test of the module. */
  moduleSkips: readonly SkipMarker[];
}

interface MachineClass {
  name: string;
  node: Node;
  decorators: Node[];
  bases: string[];
}

/**
 * Find Hypothesis stateful tests — a `RuleBasedStateMachine` subclass run
 * through its `TestCase` (`TestX = Machine.TestCase`, `class
 * TestX(Machine.TestCase)`) or by `run_state_machine_as_test(Machine)` in a
 * test function — and describe each as the registered name pytest
 * collects: a synthetic entry for a `TestCase` binding, or the test
 * function itself with the machine's facts merged in. The machine's
 * settings (`@settings` on the class, `X.TestCase.settings = ...`,
 * `settings = ...` in a `TestCase` subclass, `settings=` of the run call)
 * become the entry's settings and decorators; its rules, initializers,
 * invariants and preconditions become `stateful.steps`. The entry is also
 * found as `TestX.runTest` (the node id's spelling) and, when the machine
 * has just one `TestCase` binding, under the machine class's name.
 */
export function addStatefulTests(
  context: StatefulContext,
): { name: string; line: number }[] {
  const classes = moduleClasses(context);
  const machines = new Map<string, MachineClass>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const cls of classes.values()) {
      if (machines.has(cls.name)) continue;
      if (cls.bases.some((base) => base === MACHINE || machines.has(base))) {
        machines.set(cls.name, cls);
        grew = true;
      }
    }
  }
  if (machines.size === 0) return [];
  const settingsWrites = settingsAssignments(context);
  for (const statement of realChildren(context.root)) {
    const assignment = statement.type === "expression_statement"
      ? realChildren(statement)[0]
      : undefined;
    if (assignment?.type === "assignment") {
      const left = assignment.childForFieldName("left");
      const right = assignment.childForFieldName("right");
      const machine = right === null ? undefined : testCaseOf(right, machines);
      if (left?.type === "identifier" && machine !== undefined) {
        addEntry(context, {
          name: left.text,
          machine,
          machines,
          statement,
          binding: "assign",
          settings: settingsWrites.filter((w) =>
            w.owner === machine.name || w.owner === left.text
          ),
          skips: [],
        });
      }
      continue;
    }
    const definition = statement.type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    const cls = classes.get(classNameOf(statement) ?? "");
    if (cls === undefined || cls.node.id !== definition?.id) continue;
    const viaBase = cls.node.childForFieldName("superclasses");
    const machine = viaBase === null
      ? undefined
      : realChildren(viaBase).map((base) => testCaseOf(base, machines)).find(
        (found) => found !== undefined,
      );
    if (machine === undefined) continue;
    addEntry(context, {
      name: cls.name,
      machine,
      machines,
      statement,
      binding: "class",
      settings: [
        ...settingsWrites.filter((w) =>
          w.owner === machine.name || w.owner === cls.name
        ),
        ...classSettings(cls),
      ],
      skips: cls.decorators.flatMap((d) => findSkips(d, context.aliases)),
    });
  }
  for (const fn of [...context.functions.values()]) {
    if (fn.qualname.includes(".")) continue;
    const run = runCalls(context, fn, machines);
    if (run === undefined) continue;
    mergeIntoFunction(context, fn, run, machines, settingsWrites);
  }
  // The machine's own name stands for its TestCase when it has exactly one.
  for (const machine of machines.values()) {
    if (context.functions.has(machine.name)) continue;
    const cases = new Set(
      [...context.functions.values()].filter((fn) =>
        fn.stateful?.machine === machine.name && fn.stateful.binding !== "def"
      ),
    );
    const only = [...cases][0];
    if (cases.size === 1 && only !== undefined) {
      context.functions.set(machine.name, only);
    }
  }
  return [...machines.values()].map((machine) => ({
    name: machine.name,
    line: machine.node.startPosition.row + 1,
  }));
}

function classNameOf(statement: Node): string | undefined {
  const definition = statement.type === "decorated_definition"
    ? statement.childForFieldName("definition")
    : statement;
  if (definition?.type !== "class_definition") return undefined;
  return definition.childForFieldName("name")?.text;
}

function moduleClasses(context: StatefulContext): Map<string, MachineClass> {
  const out = new Map<string, MachineClass>();
  for (const statement of realChildren(context.root)) {
    let definition: Node | null = statement;
    let decorators: Node[] = [];
    if (statement.type === "decorated_definition") {
      decorators = realChildren(statement).filter((c) =>
        c.type === "decorator"
      );
      definition = statement.childForFieldName("definition");
    }
    if (definition?.type !== "class_definition") continue;
    const name = definition.childForFieldName("name")?.text;
    if (name === undefined) continue;
    const superclasses = definition.childForFieldName("superclasses");
    const bases = superclasses === null ? [] : realChildren(superclasses)
      .map((base) => context.aliases.canonical(base))
      .filter((base): base is string => base !== undefined);
    out.set(name, { name, node: definition, decorators, bases });
  }
  return out;
}

/** The machine `node` names the `TestCase` of (`Machine.TestCase`). */
function testCaseOf(
  node: Node,
  machines: ReadonlyMap<string, MachineClass>,
): MachineClass | undefined {
  if (node.type !== "attribute") return undefined;
  const object = node.childForFieldName("object");
  const attribute = node.childForFieldName("attribute");
  if (object?.type !== "identifier" || attribute?.text !== "TestCase") {
    return undefined;
  }
  return machines.get(object.text);
}

/** A settings value written for a machine or its TestCase. */
interface SettingsWrite {
  /** The machine class or the TestCase binding it is written on. */
  owner: string;
  /** The value. */
  value: Node;
  /** 1-based line. */
  line: number;
}

/** `Machine.TestCase.settings = ...` and `TestX.settings = ...` at module level. */
function settingsAssignments(context: StatefulContext): SettingsWrite[] {
  const out: SettingsWrite[] = [];
  for (const statement of realChildren(context.root)) {
    if (statement.type !== "expression_statement") continue;
    const assignment = realChildren(statement)[0];
    if (assignment?.type !== "assignment") continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (left?.type !== "attribute" || right === null) continue;
    if (left.childForFieldName("attribute")?.text !== "settings") continue;
    const object = left.childForFieldName("object");
    let owner: string | undefined;
    if (object?.type === "identifier") owner = object.text;
    else if (
      object?.type === "attribute" &&
      object.childForFieldName("attribute")?.text === "TestCase" &&
      object.childForFieldName("object")?.type === "identifier"
    ) {
      owner = object.childForFieldName("object")?.text;
    }
    if (owner === undefined) continue;
    out.push({ owner, value: right, line: statement.startPosition.row + 1 });
  }
  return out;
}

/** `settings = ...` in the body of a `TestCase` subclass. */
function classSettings(cls: MachineClass): SettingsWrite[] {
  const body = cls.node.childForFieldName("body");
  if (body === null) return [];
  const out: SettingsWrite[] = [];
  for (const statement of realChildren(body)) {
    const assignment = statement.type === "expression_statement"
      ? realChildren(statement)[0]
      : undefined;
    if (assignment?.type !== "assignment") continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (left?.type === "identifier" && left.text === "settings" && right) {
      out.push({
        owner: cls.name,
        value: right,
        line: statement.startPosition.row + 1,
      });
    }
  }
  return out;
}

interface Entry {
  name: string;
  machine: MachineClass;
  machines: ReadonlyMap<string, MachineClass>;
  statement: Node;
  binding: "assign" | "class";
  settings: SettingsWrite[];
  skips: SkipMarker[];
}

/** What a machine contributes to the test that runs it. */
interface MachineFacts {
  decorators: PythonDecorator[];
  settings?: HypothesisSettings;
  steps: StatefulStep[];
  assumes: number[];
  asserts: boolean;
  source: string;
  line: number;
}

function machineFacts(
  context: StatefulContext,
  machine: MachineClass,
  machines: ReadonlyMap<string, MachineClass>,
  writes: readonly SettingsWrite[],
): MachineFacts {
  const decorators: PythonDecorator[] = [];
  let settings: HypothesisSettings | undefined;
  const chain = machineChain(machine, machines);
  // The class decorator sets TestCase.settings when the class is made; a
  // later assignment replaces it, so written order decides.
  const written: { line: number; node: Node; decorator: boolean }[] = [];
  for (const cls of chain.toReversed()) {
    for (const d of cls.decorators) {
      const expression = realChildren(d)[0];
      if (expression === undefined) continue;
      decorators.push({
        text: context.textOf(expression),
        line: d.startPosition.row + 1,
        expr: pythonExpr(expression, context.aliases),
      });
      written.push({
        line: d.startPosition.row + 1,
        node: expression,
        decorator: true,
      });
    }
  }
  for (const write of writes) {
    decorators.push({
      text: context.textOf(write.value),
      line: write.line,
      expr: pythonExpr(write.value, context.aliases),
    });
    written.push({ line: write.line, node: write.value, decorator: false });
  }
  for (const item of written.sort((a, b) => a.line - b.line)) {
    const read = settingsOf(context, item.node, item.line);
    if (read !== undefined) settings = read;
  }
  const steps: StatefulStep[] = [];
  const assumes: number[] = [];
  let asserts = false;
  const seen = new Set<string>();
  for (const cls of chain) {
    for (const [qualname, fn] of context.functions) {
      if (!qualname.startsWith(`${cls.name}.`)) continue;
      if (qualname.slice(cls.name.length + 1).includes(".")) continue;
      if (seen.has(fn.name)) continue; // a subclass overrides its base
      seen.add(fn.name);
      const kinds: StatefulStep["kinds"] = [];
      const stepDecorators: PythonDecorator[] = [];
      for (const decorator of fn.decorators) {
        const kind = stepKind(context, decorator);
        if (kind === undefined) continue;
        kinds.push(kind);
        stepDecorators.push(decorator);
        if (kind === "precondition") assumes.push(decorator.line);
      }
      const runs = kinds.length > 0 || fn.name === "teardown";
      if (!runs) continue;
      const canFail = fn.vacuity === undefined;
      if (canFail) asserts = true;
      assumes.push(...(fn.assumes ?? []));
      steps.push({
        method: fn.name,
        qualname,
        line: fn.line,
        kinds,
        decorators: stepDecorators,
        asserts: canFail,
      });
    }
  }
  const node = machine.node;
  const facts: MachineFacts = {
    decorators,
    steps: steps.sort((a, b) => a.line - b.line),
    assumes: assumes.sort((a, b) => a - b),
    asserts,
    source: context.textOf(node).slice(
      0,
      lastToken(node).endIndex - node.startIndex,
    ),
    line: node.startPosition.row + 1,
  };
  if (settings !== undefined) facts.settings = settings;
  return facts;
}

/** A machine and its machine bases, the machine first. */
function machineChain(
  machine: MachineClass,
  machines: ReadonlyMap<string, MachineClass>,
): MachineClass[] {
  const out: MachineClass[] = [];
  const queue = [machine];
  while (queue.length > 0) {
    const next = queue.shift() as MachineClass;
    if (out.includes(next)) continue;
    out.push(next);
    for (const base of next.bases) {
      const found = machines.get(base);
      if (found !== undefined) queue.push(found);
    }
  }
  return out;
}

function stepKind(
  context: StatefulContext,
  decorator: PythonDecorator,
): StatefulStep["kinds"][number] | undefined {
  const callee = /^[A-Za-z_][\w.]*/.exec(decorator.text)?.[0];
  if (callee === undefined) return undefined;
  return STEP_KINDS[context.aliases.canonicalText(callee)];
}

/** The settings a `settings(...)` call (or a decorator applying one) sets. */
function settingsOf(
  context: StatefulContext,
  node: Node,
  line: number,
): HypothesisSettings | undefined {
  if (node.type !== "call") return undefined;
  const callee = node.childForFieldName("function");
  const name = callee === null ? undefined : context.aliases.canonical(callee);
  if (name === undefined || !SETTINGS.has(name)) return undefined;
  return hypothesisSettings(node, line, context.textOf);
}

function addEntry(context: StatefulContext, entry: Entry): void {
  // pytest collects the last binding; a def or method of the name wins.
  const existing = context.functions.get(entry.name);
  if (existing !== undefined && existing.stateful === undefined) return;
  const facts = machineFacts(
    context,
    entry.machine,
    entry.machines,
    entry.settings,
  );
  const statement = entry.statement;
  const fn: PythonFunction = {
    name: entry.name,
    qualname: entry.name,
    line: statement.type === "decorated_definition"
      ? (statement.childForFieldName("definition") ?? statement).startPosition
        .row + 1
      : statement.startPosition.row + 1,
    endLine: lastToken(statement).endPosition.row + 1,
    source: facts.source,
    decorators: facts.decorators,
    usesHypothesis: true,
    skips: [...context.moduleSkips, ...entry.skips].sort((a, b) =>
      a.line - b.line
    ),
    exampleAssertions: 0,
    assumes: facts.assumes,
    refs: [entry.machine.name],
    stateful: {
      machine: entry.machine.name,
      binding: entry.binding,
      bindingLine: statement.startPosition.row + 1,
      nodeName: `${entry.name}::runTest`,
      steps: facts.steps,
    },
  };
  if (facts.settings !== undefined) fn.settings = facts.settings;
  if (!facts.asserts) {
    fn.vacuity = { reason: "no_assertion", line: facts.line };
  }
  context.functions.set(entry.name, fn);
  // The node id's own spelling (`TestX::runTest`) names the same test.
  const alias = `${entry.name}.runTest`;
  if (
    context.functions.get(alias)?.stateful !== undefined ||
    !context.functions.has(alias)
  ) {
    context.functions.set(alias, fn);
  }
}

interface RunCall {
  machine: MachineClass;
  settings?: { node: Node; line: number };
}

/** The `run_state_machine_as_test(Machine, ...)` call in a test's body. */
function runCalls(
  context: StatefulContext,
  fn: PythonFunction,
  machines: ReadonlyMap<string, MachineClass>,
): RunCall | undefined {
  const definition = findDefinition(context.root, fn);
  const body = definition?.childForFieldName("body");
  if (body === null || body === undefined) return undefined;
  let found: RunCall | undefined;
  walk(body, (node, _parent, type) => {
    if (found !== undefined) return false;
    if (NESTED_SCOPES.has(type)) return false;
    if (type !== "call") return;
    const callee = node.childForFieldName("function");
    const name = callee === null
      ? undefined
      : context.aliases.canonical(callee);
    if (name === undefined || !RUN.has(name)) return;
    const args = node.childForFieldName("arguments");
    const first = args === null ? undefined : realChildren(args)[0];
    const machine = first?.type === "identifier"
      ? machines.get(first.text)
      : undefined;
    if (machine === undefined) return;
    found = { machine };
    for (const arg of args === null ? [] : realChildren(args)) {
      if (arg.type !== "keyword_argument") continue;
      if (arg.childForFieldName("name")?.text !== "settings") continue;
      const value = arg.childForFieldName("value");
      if (value !== null) {
        found.settings = { node: value, line: value.startPosition.row + 1 };
      }
    }
    return false;
  });
  return found;
}

function findDefinition(root: Node, fn: PythonFunction): Node | undefined {
  for (const statement of realChildren(root)) {
    const definition = statement.type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    if (
      definition?.type === "function_definition" &&
      definition.startPosition.row + 1 === fn.line
    ) {
      return definition;
    }
  }
  return undefined;
}

function mergeIntoFunction(
  context: StatefulContext,
  fn: PythonFunction,
  run: RunCall,
  machines: ReadonlyMap<string, MachineClass>,
  writes: readonly SettingsWrite[],
): void {
  const own = run.settings === undefined ? [] : [{
    owner: run.machine.name,
    value: run.settings.node,
    line: run.settings.line,
  }];
  // `settings=` of the call wins over the machine's own.
  const facts = machineFacts(
    context,
    run.machine,
    machines,
    writes.filter((w) => w.owner === run.machine.name),
  );
  fn.usesHypothesis = true;
  fn.decorators = [...fn.decorators, ...facts.decorators];
  for (const write of own) {
    fn.decorators.push({
      text: context.textOf(write.value),
      line: write.line,
      expr: pythonExpr(write.value, context.aliases),
    });
  }
  const settings = own.length > 0
    ? settingsOf(context, run.settings!.node, run.settings!.line)
    : facts.settings;
  if (settings !== undefined) fn.settings = settings;
  else if (own.length > 0) {
    fn.settings = {
      line: run.settings!.line,
      keywords: {},
      maxExamplesDynamic: true,
    };
  }
  fn.assumes = [...(fn.assumes ?? []), ...facts.assumes].sort((a, b) => a - b);
  fn.refs = [...new Set([...(fn.refs ?? []), run.machine.name])];
  if (fn.vacuity?.reason === "no_assertion" && facts.asserts) {
    delete fn.vacuity;
  }
  fn.stateful = {
    machine: run.machine.name,
    binding: "def",
    nodeName: fn.name,
    steps: facts.steps,
  };
}
