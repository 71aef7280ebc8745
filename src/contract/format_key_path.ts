/**
 * Key paths as people read them in messages: `properties[1].min_examples`.
 *
 * @module
 */
import type { YamlPath } from "./parse_yaml_document.ts";

/**
 * Format a key path as `properties[1].min_examples`.
 *
 * @example
 * ```ts
 * import { formatKeyPath } from "./format_key_path.ts";
 * if (formatKeyPath(["properties", 1, "min_examples"]) !== "properties[1].min_examples") throw new Error();
 * ```
 */
export function formatKeyPath(path: YamlPath): string {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number"
      ? `[${segment}]`
      : out === ""
      ? segment
      : `.${segment}`;
  }
  return out;
}
