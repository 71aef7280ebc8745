"""pawl's bytecode compiler: the bytecode a working copy's runs read.

pawl removes every ``__pycache__`` and ``*.pyc`` from an export and runs
its tests with ``PYTHONDONTWRITEBYTECODE=1``, so nothing but the source
pawl read runs, and every run compiles each module it imports from that
source (and pytest rewrites each test module's asserts) once more. This
process, pawl's own (root's, outside the sandbox, started with ``-I``: no
``PYTHON*`` variable, no user site, no working directory on ``sys.path``),
compiles each copy's modules as the run would and writes the result where
the run looks first, so the run reads it instead of compiling:

- a module pytest rewrites (``conftest.py``, ``test_*.py``, ``*_test.py``)
  as pytest's assertion rewriter compiles it, in
  ``__pycache__/<name>.<cache tag>-pytest-<version>.pyc``;
- any other module as the import system compiles it, in
  ``__pycache__/<name>.<cache tag>.pyc``.

Each is exactly what the run would have made: the same compiler (this
interpreter is the one the run starts, and imports the same pytest), the
same source bytes, the copy's path as the code's file name, and the
source's size and modification time in the header the run checks. A module
whose compiling warns is left to the run (the warning is the run's to
show), as is every module when a configuration file of the copy mentions
``enable_assertion_pass_hook`` (rewritten asserts then differ). A wrong
guess at which modules pytest rewrites costs only time: pytest reads its
own kind of file and the import system its own.

What is compiled is kept in a cache directory pawl owns, keyed by this
interpreter, the rewriter's source and the module's sha256, and named anew
for each copy: the next judgement of an unchanged module reads it instead
of compiling. Nothing the tests run can write there.

Protocol: argv[1] is the cache directory; each line on stdin names one
copy (absolute path); for each, one line on stdout: ``done <written>
<compiled> <left>``. It never follows a symbolic link, reads only regular
files, and writes only new ``__pycache__`` directories and files in them.
"""

import _imp
import hashlib
import importlib.util
import marshal
import os
import stat
import sys
import warnings

MAGIC = importlib.util.MAGIC_NUMBER
TAG = sys.implementation.cache_tag
CONFIGS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
PASS_HOOK = b"enable_assertion_pass_hook"
#: Files larger than this are left to the run.
MAX_SOURCE = 4 * 1024 * 1024
#: Entries kept in the cache before the least recently used half goes.
MAX_ENTRIES = 20000


def pytest_identity():
    """pytest's version and its rewriter's sha256, without importing pytest."""
    spec = importlib.util.find_spec("_pytest")
    if spec is None or not spec.submodule_search_locations:
        return None
    base = list(spec.submodule_search_locations)[0]
    try:
        with open(os.path.join(base, "_version.py"), "rb") as f:
            version_source = f.read()
        with open(os.path.join(base, "assertion", "rewrite.py"), "rb") as f:
            rewriter = hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None
    scope = {}
    try:
        exec(compile(version_source, "_version.py", "exec"), scope)
    except Exception:
        return None
    version = scope.get("version")
    if not isinstance(version, str):
        return None
    return version, rewriter


def is_rewritten(name):
    """Whether pytest's default ``python_files`` (or conftest) covers ``name``."""
    return name == "conftest.py" or (
        name.startswith("test_") or name.endswith("_test.py")
    )


def read_regular(path):
    """The bytes and stat of a regular file at ``path``, never following a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SOURCE:
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        if len(data) != st.st_size:
            return None
        return data, st
    finally:
        os.close(fd)


class Compiler:
    def __init__(self, cache):
        self.cache = cache
        identity = pytest_identity()
        self.pytest_tail = None
        self.rewrite_asserts = None
        if identity is not None:
            self.pytest_tail = f".{TAG}-pytest-{identity[0]}.pyc"
        key = hashlib.sha256(
            repr((MAGIC, TAG, sys.version, identity)).encode()
        ).hexdigest()[:24]
        self.store = os.path.join(cache, key)
        os.makedirs(self.store, mode=0o700, exist_ok=True)

    def rewriter(self):
        if self.rewrite_asserts is None:
            from _pytest.assertion.rewrite import rewrite_asserts

            self.rewrite_asserts = rewrite_asserts
        return self.rewrite_asserts

    def compile(self, data, path, rewrite):
        """The code ``path`` compiles to, or None when compiling warns or fails."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if rewrite:
                    import ast

                    tree = ast.parse(data, filename=path)
                    self.rewriter()(tree, data, path, None)
                    code = compile(tree, path, "exec", dont_inherit=True)
                else:
                    code = compile(data, path, "exec", dont_inherit=True)
            except Exception:
                return None
        return None if caught else code

    def code_for(self, data, path, rewrite):
        """(code, compiled) for ``data`` at ``path``, from the cache when it holds it."""
        kind = b"rewrite\0" if rewrite else b"import\0"
        digest = hashlib.sha256(kind + data).hexdigest()
        entry = os.path.join(self.store, digest[:2], digest)
        try:
            with open(entry, "rb") as f:
                code = marshal.loads(f.read())
            os.utime(entry)
            _imp._fix_co_filename(code, path)
            return code, False
        except (OSError, EOFError, ValueError, TypeError):
            pass
        code = self.compile(data, path, rewrite)
        if code is None:
            return None, True
        write_new(os.path.dirname(entry), os.path.basename(entry), marshal.dumps(code), 0o600)
        return code, True

    def copy(self, top):
        sources = []
        pass_hook = False
        for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                path = os.path.join(dirpath, name)
                if name in CONFIGS:
                    found = read_regular(path)
                    if found is None or PASS_HOOK in found[0]:
                        pass_hook = True
                elif name.endswith(".py"):
                    sources.append((dirpath, name, path))
        written = compiled = left = 0
        for dirpath, name, path in sources:
            rewrite = is_rewritten(name)
            if rewrite and (pass_hook or self.pytest_tail is None):
                left += 1
                continue
            found = read_regular(path)
            if found is None:
                left += 1
                continue
            data, st = found
            code, fresh = self.code_for(data, path, rewrite)
            compiled += fresh
            if code is None:
                left += 1
                continue
            tail = self.pytest_tail if rewrite else f".{TAG}.pyc"
            header = (
                MAGIC
                + b"\0\0\0\0"
                + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
                + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
            )
            pycache = os.path.join(dirpath, "__pycache__")
            if write_new(pycache, name[:-3] + tail, header + marshal.dumps(code), 0o644):
                written += 1
            else:
                left += 1
        return written, compiled, left

    def trim(self):
        """Keep the cache at most MAX_ENTRIES entries: drop the least recently used half."""
        entries = []
        for shard in os.scandir(self.store):
            if shard.is_dir(follow_symlinks=False):
                for entry in os.scandir(shard.path):
                    entries.append(entry)
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime)
        for entry in entries[: len(entries) - MAX_ENTRIES // 2]:
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def write_new(directory, name, data, mode):
    """Write ``directory/name`` whole (a temporary file renamed), making the directory."""
    try:
        os.mkdir(directory, 0o755 if mode == 0o644 else 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = os.lstat(directory)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return False
    temp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.rename(temp, os.path.join(directory, name))
        return True
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
        return False


def main():
    compiler = Compiler(sys.argv[1])
    grew = False
    for line in sys.stdin:
        top = line.rstrip("\n")
        try:
            written, compiled, left = compiler.copy(top)
        except Exception:
            written, compiled, left = 0, 0, -1
        grew = grew or compiled > 0
        sys.stdout.write(f"done {written} {compiled} {left}\n")
        sys.stdout.flush()
    # Only a run that added entries can have taken the cache past its bound,
    # and by now every copy has what it needs.
    if grew:
        try:
            compiler.trim()
        except OSError:
            pass


if __name__ == "__main__":
    main()
