/**
 * Stage 2: every contract layout present at the base, loaded from git
 * objects on both sides, with the base's settings and the changed paths.
 *
 * @module
 */
import { ContractSyntaxError } from "../contract/contract_syntax_error.ts";
import { withYamlParser } from "../contract/parse_yaml_document.ts";
import type { Finding } from "../core/finding.ts";
import type { LoadedDialect } from "../layouts/dialect.ts";
import type { ChangedPath, Git } from "../git/git.ts";
import type { Settings } from "../settings/settings.ts";
import {
  DIALECT_ENTRIES,
  ParsedTexts,
  presentDialects,
} from "../layouts/mod.ts";
import { NoContractError } from "./no_contract_error.ts";
import type { Commits } from "./read_commits.ts";
import { readBaseSettings } from "./read_base_settings.ts";
import { readContractBlobs } from "./read_contract_blobs.ts";

/** The contracts a pull request is judged against. */
export interface Contracts {
  /** Each layout present at base, in report order. */
  loaded: LoadedDialect[];
  /** Each layout loaded with the base's files on both sides: the base judged against itself. */
  selves: LoadedDialect[];
  /** The base's settings. */
  settings: Settings;
  /** Paths that differ base → head. */
  changes: ChangedPath[];
  /** Findings from reading the head side and the settings. */
  findings: Finding[];
}

/**
 * Load every layout present at base. Throws {@linkcode NoContractError}
 * when there is none; a base contract that cannot be read throws
 * `ContractSyntaxError`.
 */
export async function loadContracts(
  git: Git,
  commits: Commits,
  options: { repo: string },
): Promise<Contracts> {
  const { base, head, baseTree, headTree } = commits;
  // Only the layouts the base holds are loaded, code included.
  const present = await presentDialects(baseTree);
  if (present.length === 0) {
    const files = DIALECT_ENTRIES.flatMap((d) => d.files).map((f) => `"${f}"`);
    throw new NoContractError(
      `Cannot decide: the base commit ${
        base.slice(0, 12)
      } has no contract (looked for ${
        files.join(", ")
      }); start one with "pawl propose --repo ${options.repo}" and have a human commit it to the base branch`,
    );
  }
  const findings: Finding[] = [];
  const loaded: LoadedDialect[] = [];
  const selves: LoadedDialect[] = [];
  for (const dialect of present) {
    const [baseBlobs, headBlobs] = await Promise.all([
      readContractBlobs(git, baseTree, dialect.files),
      readContractBlobs(git, headTree, dialect.files),
    ]);
    // Both loads read the same base files: parse each once. The full YAML
    // parser loads only if a text needs it (what was read stays parsed).
    const parsed = new ParsedTexts();
    const [one, self] = await withYamlParser(() => [
      atBaseCommit(base, () => dialect.load(baseBlobs, headBlobs, { parsed })),
      dialect.load(baseBlobs, baseBlobs, { parsed }),
    ]);
    loaded.push(one);
    selves.push(self);
    findings.push(...one.loadFindings);
  }
  const settings = await atBaseCommitAsync(
    base,
    () => readBaseSettings(git, { baseTree, headTree }),
  );
  findings.push(...settings.findings);
  const changes = await git.changedPaths(base, head);
  return { loaded, selves, settings: settings.settings, changes, findings };
}

/**
 * Run `read`; a base file it cannot read says which commit it came from
 * and that the pull request is not at fault.
 */
function atBaseCommit<T>(base: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw pointAtBase(error, base);
  }
}

async function atBaseCommitAsync<T>(
  base: string,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw pointAtBase(error, base);
  }
}

function pointAtBase(error: unknown, base: string): unknown {
  if (error instanceof ContractSyntaxError) {
    error.message = `${error.message} (in the base commit ${
      base.slice(0, 12)
    }; the pull request is not at fault: fix the base branch)`;
  }
  return error;
}
