/**
 * Work for this thread while `git clone` runs: loading the Python grammar
 * and reading a small built-in test module and contract a few times, so the
 * parser's WebAssembly and the readers' code are compiled before the
 * repository's own sources arrive. In a fresh process the first few hundred
 * parses otherwise run on baseline code at a fraction of full speed.
 *
 * Nothing from the repository is read and nothing is kept but compiled
 * code, so it cannot change a verdict. It works in small slices and stops
 * when told, so a fast clone waits for at most one slice.
 *
 * @module
 */
import { loadAllDialects } from "../layouts/mod.ts";
import { analyzePython } from "../python/analyze_python.ts";
import { loadPythonParser } from "../python/load_python_parser.ts";

/** Slices of work at most; each reads the sample module once. */
export const MAX_SLICES = 100;

const SAMPLE_MODULE = `"""A small test module in the usual shapes."""
import os
import pytest
from hypothesis import assume, given, settings, strategies as st

LIMIT = 1_000


def helper(xs: list[int]) -> list[int]:
    return sorted({x % LIMIT for x in xs if x is not None})


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "data.txt"
    path.write_text("one\\ntwo\\n")
    return path


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers()), st.text())
def test_sorted(xs, label):
    assume(len(label) < 20)
    out = helper(xs)
    assert out == sorted(out), label
    assert all(0 <= x < LIMIT for x in out)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_raises(n, sample):
    with pytest.raises(ValueError):
        int("x" * (n + 1))
    assert sample.read_text().splitlines()[0] == "one"


class TestThings:
    def test_env(self, monkeypatch):
        monkeypatch.setenv("KEY", "value")
        assert os.environ["KEY"] == "value", "set"

    @pytest.mark.skipif(os.name == "nt", reason="posix only")
    def test_math(self):
        total = 0
        for i in range(10):
            total += i * 2
        assert total == 90
`;

/** Warm-up running until {@linkcode WarmUp.stop}; see the module doc. */
export class WarmUp {
  #stopped = false;
  #slices = 0;
  /** Settles (never rejects) once the warm-up has stopped. */
  readonly done: Promise<void>;

  /** Start warming up on this thread, between other work. */
  constructor() {
    this.done = this.#run().catch(() => {
      // A failure here shows again, and is reported, where the real work does it.
    });
  }

  /** Slices done so far. */
  get slices(): number {
    return this.#slices;
  }

  /** Stop after the current slice. */
  stop(): Promise<void> {
    this.#stopped = true;
    return this.done;
  }

  async #run(): Promise<void> {
    const [parser, dialects] = await Promise.all([
      loadPythonParser(),
      loadAllDialects(),
    ]);
    for (let i = 0; i < MAX_SLICES && !this.#stopped; i++) {
      // Yield first, so the clone's own callbacks come before each slice.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.#stopped) break;
      analyzePython(parser, SAMPLE_MODULE);
      this.#slices++;
      if (i % 8 === 0) {
        for (const dialect of dialects) dialect.warmUp?.();
      }
    }
  }
}
