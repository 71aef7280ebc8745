/**
 * A canonical form (`call_forms.py`) shown to a person, Python-like and
 * shortened: a finding names a call and its results with it.
 *
 * @module
 */
import type { Form } from "./call_streams.ts";

/** Longest text a form is shown as. */
export const SHOWN_CHARS = 120;

/**
 * `form` as Python-like text, at most `max` characters.
 *
 * @example
 * ```ts
 * import { showForm } from "./show_form.ts";
 * if (showForm(["list", [["int", "1"], ["str", "a"]]]) !== '[1, "a"]') throw new Error();
 * ```
 */
export function showForm(form: Form, max = SHOWN_CHARS): string {
  return shorten(show(form), max);
}

/** The call `qualname(args)` from the recorded arguments' form. */
export function showCall(qualname: string, shown: Form): string {
  const [args, kwargs] = pairOf(shown);
  const parts = [
    ...itemsOf(args).map(show),
    ...itemsOf(kwargs).map((p) => {
      // Stryker disable next-line ArrayDeclaration: a string key is shown as "?", as no key is
      const [k, v] = Array.isArray(p) ? p : [];
      const key = Array.isArray(k) && typeof k[1] === "string" ? k[1] : show(k);
      return `${key}=${show(v)}`;
    }),
  ];
  return shorten(`${qualname}(${parts.join(", ")})`, SHOWN_CHARS);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

function pairOf(form: Form): [Form, Form] {
  const items = itemsOf(form);
  return [items[0], items[1]];
}

function itemsOf(form: Form): Form[] {
  return Array.isArray(form) && Array.isArray(form[1]) ? form[1] : [];
}

function lastName(name: unknown): string {
  const text = String(name);
  return text.slice(text.lastIndexOf(".") + 1);
}

function show(form: Form): string {
  if (form === null) return "None";
  if (form === true) return "True";
  if (form === false) return "False";
  if (!Array.isArray(form)) return "?";
  const [tag, a, b] = form;
  switch (tag) {
    case "int":
    case "float":
      return String(a);
    case "str":
      return JSON.stringify(a);
    case "bytes":
      return `<${b} bytes>`;
    case "complex":
      return `complex(${a}, ${b})`;
    case "list":
      return `[${itemsOf(form).map(show).join(", ")}]`;
    case "tuple": {
      const items = itemsOf(form).map(show);
      return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
    }
    case "set":
      return `{${itemsOf(form).map(show).join(", ")}}`;
    case "dict":
      return `{${
        itemsOf(form).map((p) =>
          Array.isArray(p) ? `${show(p[0])}: ${show(p[1])}` : "?"
        ).join(", ")
      }}`;
    case "obj":
      return `${lastName(a)}(${
        (Array.isArray(b) ? b : []).map((p) =>
          Array.isArray(p) ? `${p[0]}=${show(p[1])}` : "?"
        ).join(", ")
      })`;
    case "sub":
      return `${lastName(a)}(${show(b)})`;
    case "raise":
      return `raised ${lastName(a)}`;
    case "exception":
      return `${lastName(a)}${show(b)}`;
    case "ref":
      return String(a);
    case "opaque":
      return `<${lastName(a)}>`;
    default:
      return "...";
  }
}
