/**
 * Git access for the gate. Everything pawl judges is read from git objects
 * of a private bare clone (`cloneRepository`), never from a working tree
 * the tests could write to: {@linkcode GitCli} is the real adapter over the
 * git command line, hardened against hostile repository config (hooks,
 * fsmonitor, filters), and {@linkcode FakeGit} is an in-memory stand-in for
 * other components' unit tests.
 *
 * @module
 */
export type {
  ChangedPath,
  ChangeStatus,
  EntryKind,
  Git,
  ReadBlobOptions,
  Tree,
  TreeEntry,
} from "./git.ts";
export {
  BlobTooLargeError,
  GitError,
  type GitErrorOptions,
} from "./git_error.ts";
export { GitCli, type GitCliOptions } from "./git_cli.ts";
export {
  cloneRepository,
  type CloneRepositoryOptions,
} from "./clone_repository.ts";
export {
  type FakeCommitFiles,
  type FakeEntry,
  FakeGit,
  type FakeGitData,
} from "./fake_git.ts";
