/** Node types that open a scope whose body may never run. */
export const NESTED_SCOPES: ReadonlySet<string> = new Set([
  "function_definition",
  "class_definition",
  "decorated_definition",
  "lambda",
]);
