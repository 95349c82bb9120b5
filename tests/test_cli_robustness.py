"""Issue 21.4 and 23.6: whatever the input or the terminal does, one line and an exit status
that means what it says, never a traceback, a hang or a lost verdict. Numbers too large for
their field anywhere in a dump or a glTF's extras, folders 1,000 deep, symbolic link loops
under a ``**`` glob, folders that cannot be listed, a closed standard output, a reader that
went away, Ctrl-C.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES

from animspec import convert
from animspec.cli import main
from animspec.common.errors import AnimspecError, JsonInputError
from animspec.dumps import dump_text, pack_bytes

PYTHON = [sys.executable, "-m", "animspec"]
SIGPIPE_STATUS = 128 + signal.SIGPIPE


def run(*args, cwd=None, timeout=120, **kw) -> subprocess.CompletedProcess:
    """The command as typed, in a child process; standard output and error captured unless
    ``stdout`` is given (then only standard error)."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    streams.update(kw)
    return subprocess.run(PYTHON + [str(a) for a in args], text=True, cwd=cwd, timeout=timeout, **streams)


def one_line(err: str) -> str:
    """The single line a failure may print (and no traceback)."""
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------------------- numbers


TOO_BIG = ["1" + "0" * 400, "1e999", "-1e999", "NaN", str(2**64), str(-(2**64)), "-Infinity"]
"""JSON number tokens no field of these formats holds (Python's json reads NaN, Infinity and
1e999 as floats, and a 400-digit integer exactly)."""


def numeric_leaves(doc, path="$"):
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from numeric_leaves(value, f"{path}.{key}")
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from numeric_leaves(value, f"{path}[{i}]")
    elif isinstance(doc, (int, float)) and not isinstance(doc, bool):
        yield path


def with_token(doc, path: str, token: str) -> str:
    """``doc`` as JSON text with the value at ``path`` replaced by the raw ``token``."""
    copy = json.loads(json.dumps(doc))
    parts = re.findall(r"\.([A-Za-z_0-9]+)|\[(\d+)\]", path[1:])
    node = copy
    for key, index in parts[:-1]:
        node = node[key if key else int(index)]
    last_key, last_index = parts[-1]
    node[last_key if last_key else int(last_index)] = "@@TOKEN@@"
    return json.dumps(copy).replace('"@@TOKEN@@"', token)


class TestNumbersTooLarge:
    def test_every_numeric_leaf_of_every_example_dump(self):
        """Each number of each example's dump in turn, replaced by 10**400 and by one other
        token: pack gives a file, or one JsonInputError at exactly that JSON path."""
        wrong = []
        for example in ("swing.animbin", "sparse.animbin", "pendulum.meshbin", "walk.animclip",
                        "walk_lz4.animclip", "wave.performanceclip"):
            wrong += self._leaves_of(example)
        assert wrong == []

    @staticmethod
    def _leaves_of(example: str) -> list:
        full = json.loads(dump_text(EXAMPLES / example))
        leaves = list(numeric_leaves(full))
        assert len(leaves) > 50
        # A raw leaf alone (an .animclip's clip would contradict the edit of raw, refused as such)
        raw_only = {k: v for k, v in full.items() if k != "clip"}
        wrong = []
        for i, path in enumerate(leaves):
            doc = raw_only if path.startswith("$.raw.") else full
            for token in (TOO_BIG[0], TOO_BIG[1 + i % (len(TOO_BIG) - 1)]):
                try:
                    pack_bytes(with_token(doc, path, token).encode(), example)
                except JsonInputError as exc:
                    if exc.json_path != path:
                        wrong.append((example, path, token[:8], exc.json_path))
                except Exception as exc:  # noqa: BLE001 - what the test looks for
                    wrong.append((example, path, token[:8], f"{type(exc).__name__}: {exc}"))
        return wrong

    def test_pack_as_typed(self, tmp_path):
        dump = tmp_path / "walk.json"
        doc = json.loads(dump_text(EXAMPLES / "walk.animclip"))
        dump.write_text(with_token(doc, "$.clip.fps", "1" + "0" * 400))
        done = run("pack", dump, "-o", tmp_path / "walk.animclip")
        assert done.returncode == 2
        assert one_line(done.stderr).startswith(f"animspec: error: {dump}: $.clip.fps: 10000000...(401 digits) does not fit")

    @staticmethod
    def _glb_parts(glb: bytes):
        size = struct.unpack_from("<I", glb, 12)[0]
        return json.loads(glb[20 : 20 + size]), glb[20 + size :]

    @staticmethod
    def _glb(text: str, rest: bytes) -> bytes:
        body = text.encode()
        body += b" " * (-len(body) % 4)
        chunks = struct.pack("<I4s", len(body), b"JSON") + body + rest
        return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks

    def test_every_numeric_leaf_of_a_gltf_s_extras(self, tmp_path):
        """extras.animbin (the ANIMBIN layout) and extras.markers of a GLB made from an
        ANIMBIN: each number replaced in turn, the conversion back succeeds or fails with
        one AnimspecError."""
        made = tmp_path / "sparse.glb"
        convert.convert_file(str(EXAMPLES / "sparse.animbin"), str(made), convert.ConvertOptions())
        doc, rest = self._glb_parts(made.read_bytes())
        leaves = [p for p in numeric_leaves(doc) if ".extras." in p]
        assert len(leaves) > 30
        wrong = []
        for i, path in enumerate(leaves):
            for token in (TOO_BIG[0], TOO_BIG[1 + i % (len(TOO_BIG) - 1)]):
                src, out = tmp_path / "in.glb", tmp_path / "out.animbin"
                src.write_bytes(self._glb(with_token(doc, path, token), rest))
                try:
                    convert.convert_file(str(src), str(out), convert.ConvertOptions(force=True))
                except AnimspecError:
                    pass
                except Exception as exc:  # noqa: BLE001 - what the test looks for
                    wrong.append((path, token[:8], f"{type(exc).__name__}: {exc}"))
        assert wrong == []

    def test_a_markers_file_time_of_400_digits(self, tmp_path):
        markers = tmp_path / "markers.json"
        markers.write_text('{"swing": [{"name": "x", "time": 1' + "0" * 400 + "}]}")
        done = run("convert", EXAMPLES / "pendulum_rig.glb", "--markers", markers, "-o", tmp_path / "out.animbin")
        assert done.returncode == 2
        assert "needs an integer 'frame' or a number 'time'" in one_line(done.stderr)


# ---------------------------------------------------------------------------- folders


def _nested(top: Path, depth: int) -> Path:
    """``top``/d/d/.../d (``depth`` folders), made without recursion."""
    top.mkdir()
    path = top
    for _ in range(depth):
        path = path / "d"
        path.mkdir()
    return path


class TestFolders:
    def test_a_folder_1000_deep(self, tmp_path):
        bottom = _nested(tmp_path / "deep", 1000)
        shutil.copy(EXAMPLES / "swing.animbin", bottom / "swing.animbin")
        try:
            done = run("validate", "deep", cwd=tmp_path)
        finally:
            (bottom / "swing.animbin").unlink()
            while bottom != tmp_path:  # bottom up: shutil.rmtree recurses as deep as the tree
                bottom.rmdir()
                bottom = bottom.parent
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Traceback" not in done.stderr
        assert "summary: 1 file(s): 1 ok" in done.stdout

    def test_a_glob_over_symlink_loops_ends(self, tmp_path):
        loopd = tmp_path / "loopd"
        (loopd / "a").mkdir(parents=True)
        shutil.copy(EXAMPLES / "swing.animbin", loopd / "a" / "swing.animbin")
        for name in ("up1", "up2"):  # two loops: 2**depth paths for a walk that follows them
            (loopd / "a" / name).symlink_to(loopd)
        (loopd / "self").symlink_to(".")
        (tmp_path / "elsewhere").mkdir()  # ** still goes through a link to another folder
        shutil.copy(EXAMPLES / "sparse.animbin", tmp_path / "elsewhere" / "sparse.animbin")
        (loopd / "out").symlink_to(tmp_path / "elsewhere")
        done = run("validate", "loopd/**/*.animbin", cwd=tmp_path, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("swing.animbin: ok") == 1
        assert "loopd/out/sparse.animbin: " in done.stdout
        assert "summary: 2 file(s): 2 ok" in done.stdout
        done = run("validate", "loopd/**", cwd=tmp_path, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.count("swing.animbin: ok") == 1

    def test_a_folder_that_cannot_be_listed_is_a_failure(self, tmp_path, capsys, monkeypatch):
        top = tmp_path / "top"
        (top / "locked").mkdir(parents=True)
        shutil.copy(EXAMPLES / "swing.animbin", top / "swing.animbin")
        shutil.copy(EXAMPLES / "swing.animbin", top / "locked" / "hidden_from_us.animbin")
        locked = str(top / "locked")
        real_scandir = os.scandir

        def scandir(path="."):  # what chmod 000 does for a user who is not root
            if os.fspath(path) == locked:
                raise PermissionError(13, "Permission denied", locked)
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
        status = main(["validate", str(top)])
        out, err = capsys.readouterr()
        assert status == 2
        assert f"animspec: error: {locked}: cannot list this folder: Permission denied" in err
        assert "1 failed" in out


# ---------------------------------------------------------------------------- standard output


PRINTING = [
    ["info", EXAMPLES / "swing.animbin"],
    ["info", EXAMPLES],
    ["validate", EXAMPLES / "swing.animbin"],
    ["dump", EXAMPLES / "swing.animbin"],
    ["play", EXAMPLES / "swing.animbin"],
    ["compare", EXAMPLES / "swing.animbin"],
    ["hash", "root"],
]


def _close_stdout() -> None:
    os.close(1)


class TestStandardOutput:
    @pytest.mark.parametrize("command", PRINTING, ids=lambda c: " ".join(str(a) for a in c).replace(str(EXAMPLES), "examples"))
    def test_closed(self, command):
        done = run(*command, preexec_fn=_close_stdout)
        assert done.returncode == 2
        assert one_line(done.stderr) == "animspec: error: cannot write to standard output: it is closed"

    @pytest.mark.parametrize("command", [c for c in PRINTING if c[0] != "validate"],
                             ids=lambda c: " ".join(str(a) for a in c).replace(str(EXAMPLES), "examples"))
    def test_reader_gone_ends_a_printing_command_with_sigpipe_status(self, command):
        read, write = os.pipe()
        os.close(read)  # the reader is gone before the first write: EPIPE for sure
        try:
            done = run(*command, stdout=write)
        finally:
            os.close(write)
        assert done.returncode == SIGPIPE_STATUS
        assert done.stderr == ""

    def test_validate_keeps_its_verdict_when_the_reader_goes(self, tmp_path):
        to_file = run("validate", EXAMPLES, "--bones", "3")
        assert to_file.returncode == 1  # the examples have joints >= 3
        read, write = os.pipe()
        os.close(read)
        try:
            done = run("validate", EXAMPLES, "--bones", "3", stdout=write)
        finally:
            os.close(write)
        assert done.returncode == to_file.returncode
        assert "Traceback" not in done.stderr

    def test_validate_piped_to_head_as_typed(self):
        shell = f"{sys.executable} -m animspec validate {EXAMPLES} --bones 3 | head -2; exit ${{PIPESTATUS[0]}}"
        done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120)
        assert done.returncode == 1
        assert len(done.stdout.splitlines()) == 2


# ---------------------------------------------------------------------------- Ctrl-C


INTERRUPT_MID_WRITE = """
import os, signal, sys
real_fsync = os.fsync
def fsync(fd):  # Ctrl-C arrives while the output's temporary file is being written
    os.kill(os.getpid(), signal.SIGINT)
    real_fsync(fd)
os.fsync = fsync
from animspec.cli import main
sys.exit(main(sys.argv[1:]))
"""


class TestCtrlC:
    def test_interrupted_mid_write(self, tmp_path):
        done = subprocess.run(
            [sys.executable, "-c", INTERRUPT_MID_WRITE, "convert", str(EXAMPLES / "swing.animbin"), "-o", str(tmp_path / "s.glb")],
            capture_output=True, text=True, timeout=120,
        )
        assert done.returncode == 130
        assert one_line(done.stderr) == "animspec: interrupted"
        assert list(tmp_path.iterdir()) == []  # neither the output nor a temporary file

    def test_interrupted_in_process(self, tmp_path, capsys, monkeypatch):
        def interrupt(*args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr("animspec.batch.load", interrupt)
        try:
            status = main(["validate", str(EXAMPLES / "swing.animbin")])
        except KeyboardInterrupt:
            pytest.fail("KeyboardInterrupt escaped the command line")
        assert status == 130
        assert capsys.readouterr().err == "animspec: interrupted\n"
