/**
 * Build the demo's sample repository: a base commit with a seed-000
 * contract, and one branch per agent patch. Commits use fixed names and
 * dates so the same sample always has the same commit ids.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { commitAll, fixedGit } from "./fixed_git.ts";
import {
  BASE_CONTRACT,
  BASE_FILES,
  SAMPLE_PATCHES,
  type SamplePatch,
} from "./_sample_files.ts";

/** The sample repository on disk. */
export interface SampleRepo {
  /** Work tree path (a normal, non-bare git repository). */
  dir: string;
  /** Base branch name. */
  base: string;
  /** The agent branches, in demo order. */
  patches: readonly SamplePatch[];
}

/** Options for {@linkcode buildSampleRepo}. */
export interface BuildSampleRepoOptions {
  /** Extra or replacement patches (tests use this for more scenarios). */
  patches?: readonly SamplePatch[];
}

/** Base file texts with the fixture digest filled into the contract. */
export function sampleBaseFiles(): Record<string, string> {
  const fixture = BASE_FILES["tests/fixtures/invoice_v3.json"] ?? "";
  const digest = createHash("sha256").update(fixture).digest("hex");
  return {
    ...BASE_FILES,
    "tests/agent_contract.yaml": BASE_CONTRACT.replace("@FIXTURE@", digest),
  };
}

/**
 * Create the sample repository in `dir` (which must be empty or absent).
 */
export async function buildSampleRepo(
  dir: string,
  options: BuildSampleRepoOptions = {},
): Promise<SampleRepo> {
  const patches = options.patches ?? SAMPLE_PATCHES;
  await Deno.mkdir(dir, { recursive: true });
  await fixedGit(dir, ["init", "-q", "-b", "main"]);
  const base = sampleBaseFiles();
  await writeFiles(dir, base);
  await commitAll(dir, "Base: invoice parser with a human-owned contract");
  for (const patch of patches) {
    await fixedGit(dir, ["checkout", "-q", "-b", patch.branch, "main"]);
    const edits: Record<string, string | null> = {};
    for (const [path, edit] of Object.entries(patch.files)) {
      edits[path] = typeof edit === "function" ? edit(base[path] ?? "") : edit;
    }
    await writeFiles(dir, edits);
    await commitAll(dir, patch.title);
  }
  await fixedGit(dir, ["checkout", "-q", "main"]);
  return { dir, base: "main", patches };
}

async function writeFiles(
  dir: string,
  files: Record<string, string | null>,
): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    if (text === null) {
      await Deno.remove(full);
      continue;
    }
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
}
