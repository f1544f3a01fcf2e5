"""Endgame database files and the build tool: round trip, damage, rules, bad usage."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from draughts_engine import Position
from draughts_engine.endgame import EndgameTables, Material
from draughts_engine.endgame.build import MissingTableError, build_all, solve
from draughts_engine.endgame.paths import cache_folder, package_folder
from draughts_engine.endgame.store import EndgameFileError, file_name, load, read_header, save
from draughts_engine.variants import get_variant

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "build_endgames.py"


@pytest.fixture(scope="module")
def small():
    """Freshly solved English tables up to KMvK."""
    return build_all("english", 3, [Material.parse("KMvK")])


@pytest.mark.parametrize("codec", ["lzma", "zlib"])
def test_file_round_trip_keeps_every_value(small, tmp_path, codec):
    for material, table in small.items():
        path = tmp_path / file_name(material)
        size = save(table, path, codec)
        assert size == path.stat().st_size
        back = load(path, "english", material)
        assert bytes(back.wdl) == bytes(table.wdl)
        assert list(back.dtz) == list(table.dtz) and list(back.tail) == list(table.tail)
        assert back.counts() == table.counts()
        assert read_header(path.read_bytes())["codec"] == codec


def test_file_with_two_byte_distances_round_trips(small, tmp_path):
    table = small[Material.parse("KMvK")]
    wide = type(table)(table.index, table.rule, table.wdl, table.dtz,
                       [t + 300 if v in (1, 2) else 0 for v, t in zip(table.wdl, table.tail)])
    save(wide, tmp_path / "KMvK.egdb")
    back = load(tmp_path / "KMvK.egdb", "english")
    assert read_header((tmp_path / "KMvK.egdb").read_bytes())["tail_width"] == 2
    assert list(back.tail) == list(wide.tail)


def test_damaged_file_is_refused_with_its_name(small, tmp_path):
    path = tmp_path / "KvK.egdb"
    save(small[Material.parse("KvK")], path, "zlib")
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(EndgameFileError, match="KvK.egdb"):
        load(path, "english")


def test_truncated_file_is_refused(small, tmp_path):
    path = tmp_path / "KvK.egdb"
    save(small[Material.parse("KvK")], path)
    path.write_bytes(path.read_bytes()[:-30])
    with pytest.raises(EndgameFileError):
        load(path, "english")


@pytest.mark.parametrize("content", [
    b"", b"hello\n", b"draughts-egdb 99\n{}\n", b"draughts-egdb 1\n[1]\n",
    b"draughts-egdb 1\n{\"material\": \"KXvK\"}\n"])
def test_file_that_is_not_a_database_is_refused(tmp_path, content):
    path = tmp_path / "KvK.egdb"
    path.write_bytes(content)
    with pytest.raises(EndgameFileError):
        load(path, "english")


def test_file_of_another_variant_or_material_is_refused(small, tmp_path):
    path = tmp_path / "KvK.egdb"
    save(small[Material.parse("KvK")], path)
    with pytest.raises(EndgameFileError, match="not 'russian'"):
        load(path, "russian")
    with pytest.raises(EndgameFileError, match="not KKvK"):
        load(path, "english", Material.parse("KKvK"))


def test_file_solved_under_another_draw_count_is_refused(small, tmp_path):
    path = tmp_path / "KvK.egdb"
    save(small[Material.parse("KvK")], path)
    data = path.read_bytes().replace(b'"count_limit": 80', b'"count_limit": 60')
    path.write_bytes(data)
    with pytest.raises(EndgameFileError, match="draw count"):
        load(path, "english")


def test_solver_needs_the_tables_captures_lead_to():
    with pytest.raises(MissingTableError, match="KvK"):
        solve("english", Material.parse("KKvK"), {})


def test_probe_skips_a_damaged_file_and_says_why(small, tmp_path):
    path = tmp_path / "KvK.egdb"
    save(small[Material.parse("KvK")], path)
    path.write_bytes(path.read_bytes()[:-5])
    tables = EndgameTables("english", [tmp_path])
    assert tables.max_pieces == 2
    assert tables.probe(*Position.from_fen("W:WK1:BK32", "english").raw) is None
    assert tables.errors and "KvK.egdb" in tables.errors[0]


def test_probe_loads_each_table_once_under_concurrent_readers():
    tables = EndgameTables("international")
    raw = Position.from_fen("W:WK28,K47:BK23", "international").raw
    results = []

    def reader():
        results.extend(tables.probe(*raw) for _ in range(50))

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(results) == {(1, 1)} and len(results) == 200
    assert tables.table(Material.parse("KKvK")) is tables.table(Material.parse("KvKK"))


def test_folders_are_the_package_then_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    variant = get_variant("russian")
    assert cache_folder(variant) == str(tmp_path / "draughts-engine" / "endgame-2" / "russian")
    assert EndgameTables(variant).folders == (package_folder(variant), cache_folder(variant))


def test_probe_finds_a_table_in_the_user_cache(small, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = Path(cache_folder(get_variant("english")))
    folder.mkdir(parents=True)
    fake = small[Material.parse("KvK")]
    save(fake, folder / "KvK.egdb")
    tables = EndgameTables("english", [folder])
    assert tables.covers(Material.parse("KvK")) and not tables.covers(Material.parse("KKvK"))


# ---- the build tool ------------------------------------------------------------------------

def run_tool(*args, env=None):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=300, env=env, cwd=str(ROOT))


@pytest.mark.parametrize("args", [
    [], ["--variant", "english"], ["--variant", "chess", "--pieces", "3"],
    ["--variant", "english", "--pieces", "7"], ["--variant", "english", "--pieces", "x"],
    ["--variant", "english", "--pieces", "3", "--material", "KQvK"],
    ["--variant", "english", "--pieces", "2", "--material", "KKvK"],
    ["--variant", "english", "--pieces", "3", "--bogus"],
    ["--variant", "english", "--pieces", "3", "--out", "/dev/null/x"],
    ["--variant", "english", "--pieces", "2", "--out", "/nonexistent-folder/x"],
    ["--variant", "turkish", "--pieces", "2"], ["--variant", "frisian", "--pieces", "2"],
])
def test_build_tool_answers_bad_usage_with_one_line_and_status_2(args):
    done = run_tool(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "error" in done.stderr


def test_build_tool_solves_again_with_force_reading_what_the_material_needs(tmp_path):
    """KKvK is solved again (--force) into --out; KvK, which it needs, is read from
    the committed files; a second run finds KKvK in --out and does nothing."""
    done = run_tool("--variant", "english", "--pieces", "3", "--material", "KKvK",
                    "--out", str(tmp_path), "--force")
    assert done.returncode == 0, done.stderr
    assert os.listdir(tmp_path) == ["KKvK.egdb"]
    assert "\r" not in done.stderr  # the progress bar is for a terminal, not a log
    assert len(done.stdout.splitlines()) == 1 and "KKvK" in done.stdout
    tables = EndgameTables("english", [tmp_path])
    assert tables.probe(*Position.from_fen("W:WK31,K32:BK19", "english").raw) == (1, 33)
    again = run_tool("--variant", "english", "--pieces", "3", "--material", "KKvK",
                     "--out", str(tmp_path), "--quiet")
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout == f"english KKvK: already built in {tmp_path} (--force solves it again)\n"


def test_build_tool_builds_missing_tables_into_the_cache(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    done = run_tool("--variant", "brazilian", "--pieces", "3", "--material", "KMvK", "--force",
                    "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "draughts-engine" / "endgame-2" / "brazilian"
    assert os.listdir(folder) == ["KMvK.egdb"]
