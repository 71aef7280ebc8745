/**
 * Changed code no test runs: the lines a pull request added or changed in
 * the code under test (`readChangedLines`, from git's objects), which the
 * full suite's run traces through pawl's observer, judged by
 * `judgeChangedLines` into advisory findings (blocking when the base's
 * `[coverage] changed_lines` says so), with the mutants on changed lines
 * that survive every base property.
 *
 * @module
 */
export { changedLineNumbers } from "./changed_line_numbers.ts";
export {
  type ChangedLines,
  readChangedLines,
  type ReadChangedLinesInput,
} from "./read_changed_lines.ts";
export {
  type ChangedLinesJudgement,
  judgeChangedLines,
  type JudgeChangedLinesInput,
} from "./judge_changed_lines.ts";
