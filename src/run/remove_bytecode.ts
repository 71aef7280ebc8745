/**
 * Strip Python bytecode from an exported tree before any test runs in it,
 * so what Python executes is the source pawl read: a committed
 * `__pycache__/*.pyc` (even one whose hash is never checked) or a sourceless
 * `module.pyc` would otherwise run in place of, or beside, the source.
 *
 * @module
 */

/** Whether a tree path is bytecode pawl removes before a run. */
export function isBytecodePath(path: string): boolean {
  const parts = path.split("/");
  // Stryker disable next-line StringLiteral: split() always gives a last part
  const name = parts[parts.length - 1] ?? "";
  return parts.includes("__pycache__") || /\.py[co]$/i.test(name);
}

/**
 * Remove every `__pycache__` directory and every `*.pyc` / `*.pyo` file
 * under `dir` (symlinks are removed, never followed). Returns the removed
 * paths, relative to `dir`, sorted.
 */
export async function removeBytecode(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    // Stryker disable next-line ConditionalExpression,StringLiteral: "dir/" names the same folder as "dir"
    const abs = rel === "" ? dir : `${dir}/${rel}`;
    for await (const entry of Deno.readDir(abs)) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (
        (entry.isDirectory && entry.name === "__pycache__") ||
        (!entry.isDirectory && /\.py[co]$/i.test(entry.name))
      ) {
        await Deno.remove(`${dir}/${path}`, { recursive: true });
        removed.push(path);
      } else if (entry.isDirectory && !entry.isSymlink) {
        await walk(path);
      }
    }
  };
  await walk("");
  return removed.sort();
}
