/**
 * A small real src-layout project for the end-to-end tests and the derived
 * image's smoke run: its package lives under `src/` and has the name of a
 * module Debian's python3 already has installed (`more_itertools`, whose
 * `chunked` is correct), its tests need a Debian package the system does
 * not bring along (`toolz`, installed by tools/test_prereqs.sh), and a
 * Hypothesis property catches a real bug in one of its two heads.
 *
 * @module
 */

/** The module both heads change. */
export const CHUNKING = "src/more_itertools/chunking.py";
/** The test module. */
export const TEST = "tests/test_chunking.py";

/** The base: correct, but it copies the whole input first. */
const CORRECT = `"""Split an iterable into lists of n items."""


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    items = list(iterable)
    return [items[i:i + n] for i in range(0, len(items), n)]
`;

/** An honest fix of the copy: streams the input, same results. */
const STREAMING = `"""Split an iterable into lists of n items."""

from itertools import islice


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    it = iter(iterable)
    out = []
    while True:
        chunk = list(islice(it, n))
        if not chunk:
            return out
        out.append(chunk)
`;

/** The same "fix", but a short last chunk is lost. */
const LOSES_TAIL = `"""Split an iterable into lists of n items."""


def chunked(iterable, n):
    """Lists of n items of iterable, in order; the last may be shorter."""
    if n < 1:
        raise ValueError("n must be at least 1")
    it = iter(iterable)
    return [list(group) for group in zip(*[it] * n)]
`;

/** The base tree; `pawl.toml` names the interpreter, the import path and one variable. */
export const BASE: Record<string, string> = {
  "pyproject.toml": `[project]
name = "more-itertools-lite"
version = "0.1.0"

[tool.pytest.ini_options]
testpaths = ["tests"]
`,
  "pawl.toml": `[environment]
python = "/usr/bin/python3"
pythonpath = ["src"]

[environment.env]
CHUNKING_UNDER_TEST = "checkout"
`,
  "src/more_itertools/__init__.py":
    '"""A src-layout package that shares its name with an installed one."""\n\nfrom .chunking import chunked\n\n__all__ = ["chunked"]\n',
  [CHUNKING]: CORRECT,
  "tests/__init__.py": "",
  [TEST]: `import os
import pathlib

import more_itertools
import toolz
from hypothesis import given, settings
from hypothesis import strategies as st

from more_itertools import chunked


def test_the_checkout_is_imported():
    checkout = pathlib.Path.cwd().resolve() / "src"
    assert pathlib.Path(more_itertools.__file__).resolve().is_relative_to(checkout)
    assert os.environ["CHUNKING_UNDER_TEST"] == "checkout"


@settings(max_examples=200)
@given(st.lists(st.integers()), st.integers(min_value=1, max_value=6))
def test_chunked_matches_partition_all(items, n):
    expected = [list(part) for part in toolz.partition_all(n, items)]
    assert chunked(items, n) == expected


def test_chunked_refuses_zero():
    try:
        chunked([1], 0)
    except ValueError:
        return
    raise AssertionError("chunked(_, 0) must raise")
`,
  "tests/agent_contract.yaml": `version: 1
properties:
  - id: chunked_matches_partition_all
    module: tests.test_chunking
    name: test_chunked_matches_partition_all
    min_examples: 200
`,
};

/** The heads: an honest fix (accept) and the same fix with a bug (reject). */
export const HEADS: Record<string, Record<string, string>> = {
  "fix/stream": { [CHUNKING]: STREAMING },
  "bug/loses-tail": { [CHUNKING]: LOSES_TAIL },
};
