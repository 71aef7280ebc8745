import type { Node } from "web-tree-sitter";
import { realChildren } from "./_real_children.ts";

/** Longer constants are not built: no name pawl looks for is this long. */
const MAX_LENGTH = 4096;

/** The constant a name stands for, when the caller can tell. */
export type ResolveName = (node: Node) => string | undefined;

/**
 * The text of a string literal, escapes decoded unless it is raw (`"\x70y"`
 * is `py`); undefined for an f-string with fields.
 */
export function stringValue(node: Node): string | undefined {
  if (node.type !== "string") return undefined;
  let raw = false;
  let out = "";
  for (const part of realChildren(node)) {
    if (part.type === "string_start") raw = /r/i.test(part.text);
    else if (part.type === "string_content") {
      out += raw ? part.text : decodeEscapes(part.text);
    } else if (part.type === "interpolation") return undefined;
  }
  return out;
}

/**
 * The string an expression evaluates to when it is built from constants
 * alone: literals, `+`, `*`, `%s` formatting, f-strings of constants,
 * `"".join([...])`, `chr(112)`, slicing (`"tset"[::-1]`) and case
 * changes. Names are read through `resolve`. Undefined for anything else.
 */
export function foldString(
  node: Node,
  resolve?: ResolveName,
  depth = 0,
): string | undefined {
  if (depth > 24) return undefined;
  const fold = (n: Node) => foldString(n, resolve, depth + 1);
  const text = foldNode(node, fold, resolve, depth);
  return text !== undefined && text.length <= MAX_LENGTH ? text : undefined;
}

function foldNode(
  node: Node,
  fold: (n: Node) => string | undefined,
  resolve: ResolveName | undefined,
  depth: number,
): string | undefined {
  switch (node.type) {
    case "string":
      return foldFormatted(node, fold);
    case "concatenated_string":
      return joinAll(realChildren(node).map(fold));
    case "parenthesized_expression": {
      const inner = realChildren(node)[0];
      return inner === undefined ? undefined : fold(inner);
    }
    case "identifier":
    case "attribute":
      return resolve?.(node);
    case "binary_operator":
      return foldOperator(node, fold);
    case "subscript":
      return foldSubscript(node, fold);
    case "call":
      return foldCall(node, fold, depth);
    default:
      return undefined;
  }
}

function foldFormatted(
  node: Node,
  fold: (n: Node) => string | undefined,
): string | undefined {
  let raw = false;
  let out = "";
  for (const part of realChildren(node)) {
    if (part.type === "string_start") raw = /r/i.test(part.text);
    else if (part.type === "string_content") {
      out += raw ? part.text : decodeEscapes(part.text);
    } else if (part.type === "interpolation") {
      const fields = realChildren(part);
      const expression = part.childForFieldName("expression");
      if (expression === null || fields.length !== 1) return undefined;
      const value = fold(expression);
      if (value === undefined) return undefined;
      out += value;
    }
  }
  return out;
}

function foldOperator(
  node: Node,
  fold: (n: Node) => string | undefined,
): string | undefined {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  const operator = node.childForFieldName("operator")?.type;
  if (left === null || right === null) return undefined;
  if (operator === "+") return joinAll(plusOperands(node).map(fold));
  if (operator === "*") {
    const text = fold(left);
    const times = integerValue(right);
    return text === undefined || times === undefined ||
        times * text.length > MAX_LENGTH
      ? undefined
      : text.repeat(Math.max(0, times));
  }
  if (operator === "%") {
    const format = fold(left);
    if (format === undefined || /%[^s%]/.test(format)) return undefined;
    const values = right.type === "tuple"
      ? realChildren(right).map(fold)
      : [fold(right)];
    if (values.some((v) => v === undefined)) return undefined;
    let i = 0;
    return format.replace(
      /%[s%]/g,
      (m) => m === "%%" ? "%" : values[i++] ?? "",
    );
  }
  return undefined;
}

function foldSubscript(
  node: Node,
  fold: (n: Node) => string | undefined,
): string | undefined {
  const value = node.childForFieldName("value");
  const index = node.childForFieldName("subscript");
  const text = value === null ? undefined : fold(value);
  if (text === undefined || index === null) return undefined;
  if (index.type !== "slice") {
    const at = integerValue(index);
    if (at === undefined) return undefined;
    return [...text].at(at);
  }
  // start:stop:step; a part left out is null.
  const parts: (number | null | undefined)[] = [null, null, null];
  let slot = 0;
  for (const child of index.children) {
    if (child === null) continue;
    if (child.type === ":") slot++;
    else if (slot < 3) parts[slot] = integerValue(child);
  }
  if (parts.some((p) => p === undefined)) return undefined;
  return slice(
    [...text],
    parts as [number | null, number | null, number | null],
  );
}

function foldCall(
  node: Node,
  fold: (n: Node) => string | undefined,
  depth: number,
): string | undefined {
  const callee = node.childForFieldName("function");
  const args = callArguments(node);
  if (callee === null || args === undefined) return undefined;
  if (callee.type === "identifier") {
    if (callee.text === "chr" && args.length === 1 && args[0] !== undefined) {
      const code = integerValue(args[0]);
      return code === undefined || code < 0 || code > 0x10ffff
        ? undefined
        : String.fromCodePoint(code);
    }
    if (callee.text === "str" && args.length === 1 && args[0] !== undefined) {
      return fold(args[0]);
    }
    return undefined;
  }
  if (callee.type !== "attribute") return undefined;
  const object = callee.childForFieldName("object");
  const method = callee.childForFieldName("attribute")?.text;
  const receiver = object === null ? undefined : fold(object);
  if (receiver === undefined) return undefined;
  if (method === "join" && args.length === 1 && args[0] !== undefined) {
    const items = foldItems(args[0], fold, depth);
    return items === undefined ? undefined : items.join(receiver);
  }
  if (method === "replace" && args.length === 2) {
    const [from, to] = args.map(fold);
    return from === undefined || to === undefined
      ? undefined
      : receiver.split(from).join(to);
  }
  if (args.length > 0) return undefined;
  switch (method) {
    case "lower":
    case "casefold":
      return receiver.toLowerCase();
    case "upper":
      return receiver.toUpperCase();
    case "strip":
      return receiver.trim();
    case "lstrip":
      return receiver.trimStart();
    case "rstrip":
      return receiver.trimEnd();
    default:
      return undefined;
  }
}

/** The strings of a literal list or tuple, or of `map(chr, [...])`. */
function foldItems(
  node: Node,
  fold: (n: Node) => string | undefined,
  _depth: number,
): string[] | undefined {
  if (node.type === "list" || node.type === "tuple") {
    const items = realChildren(node).map(fold);
    return items.some((i) => i === undefined) ? undefined : items as string[];
  }
  if (
    node.type === "call" && node.childForFieldName("function")?.text === "map"
  ) {
    const [fn, list] = callArguments(node) ?? [];
    if (fn?.text !== "chr" || list === undefined) return undefined;
    if (list.type !== "list" && list.type !== "tuple") return undefined;
    const codes = realChildren(list).map(integerValue);
    if (codes.some((c) => c === undefined || c < 0 || c > 0x10ffff)) {
      return undefined;
    }
    return (codes as number[]).map((c) => String.fromCodePoint(c));
  }
  return undefined;
}

/**
 * The operands of a chain of `+` (`a + b + c` is `((a + b) + c)`), read
 * without recursion however long the chain is.
 */
export function plusOperands(node: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as Node;
    const left = current.childForFieldName("left");
    const right = current.childForFieldName("right");
    if (
      current.type === "binary_operator" &&
      current.childForFieldName("operator")?.type === "+" &&
      left !== null && right !== null
    ) {
      stack.push(right, left);
    } else out.push(current);
  }
  return out;
}

/**
 * The constants a `+` chain builds where pieces meet: `x + "_py" +
 * "test"` holds `_pytest` whatever `x` is.
 */
export function constantRuns(node: Node, resolve?: ResolveName): string[] {
  const runs: string[] = [];
  let run: string | undefined;
  for (const operand of plusOperands(node)) {
    const text = foldString(operand, resolve);
    if (text === undefined) {
      if (run !== undefined) runs.push(run);
      run = undefined;
    } else run = (run ?? "") + text;
  }
  if (run !== undefined) runs.push(run);
  return runs.filter((r) => r.length <= MAX_LENGTH);
}

/** The arguments of a call written as a list (not a generator). */
export function callArguments(call: Node): Node[] | undefined {
  const list = call.childForFieldName("arguments");
  return list?.type === "argument_list" ? realChildren(list) : undefined;
}

/** An integer literal, signed or not. */
function integerValue(node: Node): number | undefined {
  if (node.type === "integer") {
    const value = Number(node.text.replace(/_/g, ""));
    return Number.isSafeInteger(value) ? value : undefined;
  }
  if (node.type === "unary_operator") {
    const argument = node.childForFieldName("argument");
    const operator = node.childForFieldName("operator")?.type;
    const value = argument === null ? undefined : integerValue(argument);
    if (value === undefined) return undefined;
    return operator === "-" ? -value : operator === "+" ? value : undefined;
  }
  if (node.type === "parenthesized_expression") {
    const inner = realChildren(node)[0];
    return inner === undefined ? undefined : integerValue(inner);
  }
  return undefined;
}

/** Python's `chars[start:stop:step]`. */
function slice(
  chars: string[],
  [start, stop, step]: [number | null, number | null, number | null],
): string | undefined {
  const n = chars.length;
  const by = step ?? 1;
  if (by === 0) return undefined;
  const clamp = (i: number, low: number, high: number) =>
    Math.min(Math.max(i < 0 ? i + n : i, low), high);
  let out = "";
  if (by > 0) {
    const to = stop === null ? n : clamp(stop, 0, n);
    for (let i = start === null ? 0 : clamp(start, 0, n); i < to; i += by) {
      out += chars[i];
    }
  } else {
    const to = stop === null ? -1 : clamp(stop, -1, n - 1);
    for (
      let i = start === null ? n - 1 : clamp(start, -1, n - 1);
      i > to;
      i += by
    ) {
      out += chars[i];
    }
  }
  return out;
}

function joinAll(parts: (string | undefined)[]): string | undefined {
  return parts.some((p) => p === undefined) ? undefined : parts.join("");
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\n": "",
};

/** Python's escape sequences in a non-raw literal; unknown ones stay as written. */
function decodeEscapes(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(
    /\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.|\n)/g,
    (whole, esc: string) => {
      const head = esc[0] as string;
      if (head === "x" || head === "u" || head === "U") {
        const code = parseInt(esc.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      if (/[0-7]/.test(head)) return String.fromCodePoint(parseInt(esc, 8));
      return SIMPLE_ESCAPES[esc] ?? whole;
    },
  );
}
