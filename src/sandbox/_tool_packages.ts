/**
 * Which package provides each tool the sandbox needs, so "not found" can
 * say what to install.
 *
 * @module
 */

/** Debian/Ubuntu package of each sandbox tool. */
const DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  bwrap: "bubblewrap",
  prlimit: "util-linux",
  setpriv: "util-linux",
  unshare: "util-linux",
  mount: "mount",
  kill: "procps",
  env: "coreutils",
  sh: "dash",
};

/**
 * `"kill" not found in /usr/bin, /bin (install procps: apt-get install procps)`:
 * the missing tools and the packages that provide them.
 *
 * @example
 * ```ts
 * import { describeMissingTools } from "./_tool_packages.ts";
 * const text = describeMissingTools(["kill"], ["/usr/bin"]);
 * if (!text.includes("apt-get install procps")) throw new Error(text);
 * ```
 */
export function describeMissingTools(
  missing: readonly string[],
  dirs: readonly string[],
): string {
  const packages = [
    ...new Set(missing.map((tool) => DEBIAN_PACKAGES[tool] ?? tool)),
  ];
  const names = `"${missing.join('", "')}"`;
  return `${names} not found in ${
    dirs.join(", ")
  } (on Debian/Ubuntu: apt-get install ${packages.join(" ")})`;
}
