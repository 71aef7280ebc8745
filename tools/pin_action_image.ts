/**
 * Point action.yml at a released image: the release workflow runs
 *
 *   deno run --allow-read=action.yml --allow-write=action.yml \
 *     tools/pin_action_image.ts ghcr.io/OWNER/pawl@sha256:<digest>
 *
 * after pushing the image, so the action's `runs.image` is
 * `docker://<that reference>` and every job runs exactly the image that was
 * smoke-tested and signed. It is the one line of action.yml that names the
 * image; nothing else in the file changes.
 *
 * @module
 */

/** `registry/name@sha256:<64 hex>`, lower case, as `docker push` reports it. */
export const IMAGE_BY_DIGEST =
  /^[a-z0-9]+([._-][a-z0-9]+)*(\.[a-z0-9-]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)+@sha256:[0-9a-f]{64}$/;

/** The `image:` line under `runs:`. */
const IMAGE_LINE = /^( {2}image: )(.*)$/m;

/**
 * action.yml's text with `runs.image` set to `docker://<ref>`. Throws when
 * `ref` is not an image by digest or the file has no such line.
 *
 * @example
 * ```ts
 * import { pinActionImage } from "./pin_action_image.ts";
 * const ref = "ghcr.io/o/pawl@sha256:" + "a".repeat(64);
 * const text = pinActionImage("runs:\n  using: docker\n  image: Dockerfile\n", ref);
 * if (!text.includes(`  image: docker://${ref}\n`)) throw new Error(text);
 * ```
 */
export function pinActionImage(actionYml: string, ref: string): string {
  if (!IMAGE_BY_DIGEST.test(ref)) {
    throw new TypeError(
      `Cannot pin action.yml to "${ref}": expected REGISTRY/NAME@sha256:<64 hex digits>`,
    );
  }
  const runs = actionYml.search(/^runs:$/m);
  const line = runs < 0 ? null : IMAGE_LINE.exec(actionYml.slice(runs));
  if (runs < 0 || line === null) {
    throw new SyntaxError(`Cannot pin action.yml: it has no "runs.image" line`);
  }
  const at = runs + line.index;
  return actionYml.slice(0, at) + `${line[1]}docker://${ref}` +
    actionYml.slice(at + line[0].length);
}

if (import.meta.main) {
  const [ref] = Deno.args;
  const path = new URL("../action.yml", import.meta.url);
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, pinActionImage(text, ref ?? ""));
  // deno-lint-ignore no-console
  console.log(`action.yml: image docker://${ref}`);
}
