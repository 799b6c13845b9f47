"""TAR members read in memory, in one pass: plain and packed (gzip, bzip2, xz), hostile
entries refused or skipped, bombs stopped at the limits, members re-read by name."""

from __future__ import annotations

import gzip
import io
import tarfile
import time
import tracemalloc
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import CorruptError, ReadError, TooLargeError
from omnireader.formats.archives.containers import read_member
from omnireader.formats.archives.tar import tar_members
from omnireader.formats.sniff import sniff
from omnireader.options import ReadOptions
from omnireader.payloads import Blob
from tests.formats.test_archive import make_zip

MB = 1024 * 1024
CODECS = {"": "tar", "gz": "tar.gz", "bz2": "tar.bz2", "xz": "tar.xz"}


def make_tar(
    members: dict[str, bytes], codec: str = "", extra: list[tarfile.TarInfo] = ()
) -> bytes:
    """A TAR of regular files (``name: bytes``) plus ``extra`` entries with no data."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=f"w:{codec}", format=tarfile.GNU_FORMAT) as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        for info in extra:
            tf.addfile(info)
    return buf.getvalue()


def entry(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


class Zeros(io.RawIOBase):
    """``size`` zero bytes, made as they are read (a bomb is built without holding it)."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        n = min(len(buffer), self.left)
        buffer[:n] = bytes(n)
        self.left -= n
        return n


def make_tar_bomb(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros in one member, gzip-packed about a thousand times."""
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9) as gz:
        with tarfile.open(fileobj=gz, mode="w|") as tf:
            info = tarfile.TarInfo("zeros.bin")
            info.size = megabytes * MB
            tf.addfile(info, Zeros(info.size))
    return buf.getvalue()


def read_all(blob: Blob, options: ReadOptions | None = None) -> tuple[list[Blob], list[ReadError]]:
    errors: list[ReadError] = []
    members = list(tar_members(blob, options or ReadOptions(), on_error=errors.append))
    return members, errors


@pytest.mark.parametrize("codec", list(CODECS))
def test_members_are_read_in_memory_with_the_archives_name(tmp_path: Path, codec: str) -> None:
    path = tmp_path / f"bundle.{CODECS[codec]}"
    path.write_bytes(make_tar({"dir/file.txt": b"alpha", "b.csv": b"x,y\n1,2\n"}, codec))
    assert sniff(path.read_bytes(), path.name).kind == "tar"
    members, errors = read_all(Blob(path=str(path)))
    assert errors == []
    assert [(m.member, m.data) for m in members] == [
        ("dir/file.txt", b"alpha"),
        ("b.csv", b"x,y\n1,2\n"),
    ]
    assert members[0].label == f"{path}!dir/file.txt"
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # nothing unpacked


def test_a_bare_gzip_file_is_not_a_tar() -> None:
    assert sniff(gzip.compress(b"just some notes\n"), "notes.txt.gz").kind != "tar"


def test_links_devices_and_fifos_are_skipped_and_never_followed(tmp_path: Path) -> None:
    path = tmp_path / "links.tar.gz"
    path.write_bytes(
        make_tar(
            {"readme.txt": b"the real text"},
            "gz",
            [
                entry("link-to-etc", tarfile.SYMTYPE, "/etc/passwd"),
                entry("hard", tarfile.LNKTYPE, "/etc/passwd"),
                entry("tty", tarfile.CHRTYPE),
                entry("disk", tarfile.BLKTYPE),
                entry("pipe", tarfile.FIFOTYPE),
            ],
        )
    )
    members, errors = read_all(Blob(path=str(path)))
    assert [m.member for m in members] == ["readme.txt"] and errors == []
    result = Reader().read_report(path)
    assert [i.memory.strip() for i in result.items] == ["the real text"]
    assert not any("root:" in i.memory for i in result.items)


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/passwd", "a/../../x.txt"])
def test_names_that_climb_out_or_are_absolute_are_refused_one_by_one(name: str) -> None:
    data = make_tar({name: b"evil", "ok.txt": b"fine"})
    members, errors = read_all(Blob(data=data, filename="evil.tar"))
    assert [m.member for m in members] == ["ok.txt"]
    assert len(errors) == 1 and isinstance(errors[0], CorruptError)
    assert errors[0].input_name == f"evil.tar!{name}"


def test_dotfiles_and_folders_are_not_content() -> None:
    folder = entry("docs", tarfile.DIRTYPE)
    data = make_tar(
        {"docs/a.txt": b"a", "docs/.hidden": b"x", "__MACOSX/._a.txt": b"x"}, "", [folder]
    )
    members, _ = read_all(Blob(data=data, filename="d.tar"))
    assert [m.member for m in members] == ["docs/a.txt"]


def test_too_many_members_is_too_large_for_the_archive() -> None:
    data = make_tar({f"f{i}.txt": b"x" for i in range(6)}, "gz")
    with pytest.raises(TooLargeError, match="max_archive_members") as info:
        read_all(Blob(data=data, filename="many.tar.gz"), ReadOptions(max_archive_members=5))
    assert info.value.input_name == "many.tar.gz"


def test_a_tar_bomb_stops_at_the_byte_limit_without_allocating_its_output() -> None:
    bomb = make_tar_bomb(200)
    assert len(bomb) < 1 * MB
    options = ReadOptions(max_archive_bytes=16 * MB, max_file_bytes=1024 * MB)
    # The bomb rule would refuse it from its header; with it out of the way the stream
    # limit must still hold.
    tracemalloc.start()
    try:
        with pytest.raises(TooLargeError) as info:
            read_all(Blob(data=bomb + bytes(200 * MB // 100), filename="bomb.tar.gz"), options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.input_name == "bomb.tar.gz" and "max_archive_bytes" in str(info.value)
    assert peak < 48 * MB  # the limit plus a piece, not 200 MB


def test_a_tar_bomb_is_refused_by_its_ratio_before_it_is_unpacked() -> None:
    bomb = make_tar_bomb(200)
    start = time.perf_counter()
    with pytest.raises(TooLargeError, match="TAR bomb"):
        read_all(Blob(data=bomb, filename="bomb.tar.gz"))
    assert time.perf_counter() - start < 2


def test_a_member_over_the_file_limit_is_reported_and_the_rest_read() -> None:
    data = make_tar({"big.bin": bytes(3 * MB), "small.txt": b"ok"}, "xz")
    members, errors = read_all(Blob(data=data, filename="m.tar.xz"), ReadOptions(max_file_bytes=MB))
    assert [m.member for m in members] == ["small.txt"]
    assert isinstance(errors[0], TooLargeError) and errors[0].input_name == "m.tar.xz!big.bin"


def test_harmless_compressible_members_are_read() -> None:
    data = make_tar({"zeros.bin": bytes(10 * MB), "readme.txt": b"read me"}, "gz")
    members, errors = read_all(Blob(data=data, filename="z.tar.gz"))
    assert errors == [] and [len(m.data) for m in members] == [10 * MB, 7]


def test_an_archive_cut_short_keeps_what_came_before_and_reports_the_break() -> None:
    data = make_tar({"first.txt": b"one", "second.bin": bytes(64 * 1024)})
    members, errors = read_all(Blob(data=data[:2048], filename="cut.tar"))
    assert [m.member for m in members] == ["first.txt"]
    assert len(errors) == 1 and isinstance(errors[0], CorruptError)


def test_a_packed_stream_that_is_no_tar_is_corrupt() -> None:
    with pytest.raises(CorruptError):
        read_all(Blob(data=gzip.compress(b"plain words " * 100), filename="x.tar.gz"))


def test_a_member_is_read_again_by_its_name(tmp_path: Path) -> None:
    path = tmp_path / "bundle.tar.bz2"
    path.write_bytes(make_tar({"a.txt": b"alpha", "dir/b.md": b"# beta"}, "bz2"))
    assert read_member(Blob(path=str(path), member="dir/b.md"), ReadOptions()) == b"# beta"
    with pytest.raises(ReadError, match="no member"):
        read_member(Blob(path=str(path), member="missing.txt"), ReadOptions())


def test_a_tar_inside_a_zip_is_named_level_by_level_and_read_again(tmp_path: Path) -> None:
    path = tmp_path / "outer.zip"
    path.write_bytes(make_zip({"inner.tar.gz": make_tar({"deep.txt": b"deep text"}, "gz")}))
    [item] = Reader().read(path)
    assert item.source.member == "inner.tar.gz!deep.txt" and "deep text" in item.memory
    assert (
        read_member(Blob(path=str(path), member="inner.tar.gz!deep.txt"), ReadOptions())
        == b"deep text"
    )


def test_a_tar_nested_past_the_depth_limit_says_how_to_open_it(tmp_path: Path) -> None:
    path = tmp_path / "outer.tar"
    path.write_bytes(make_tar({"inner.tar": make_tar({"deep.txt": b"deep"}), "top.txt": b"top"}))
    result = Reader(max_archive_depth=0).read_report(path)
    assert [i.memory.strip() for i in result.items] == ["top"]
    [failure] = result.failures
    assert failure.input == f"{path}!inner.tar" and failure.error == "too_large"
    assert "max_archive_depth=0" in failure.message and "--max-archive-depth 1" in failure.message
    assert failure.message.count(str(path)) == 1  # one line, the path said once


def test_items_from_a_tar_member_are_rebuilt_from_their_source_with_the_same_ids(
    tmp_path: Path,
) -> None:
    from omnireader.parsers.base import ParseContext
    from omnireader.parsers.file import FileParser

    path = tmp_path / "notes.tgz"
    path.write_bytes(make_tar({"a/b.md": b"# Heron count\n\nForty herons at dawn."}, "gz"))
    [item] = Reader().read(path)
    assert item.source.member == "a/b.md"
    parser = FileParser()
    again = parser.parse_fast(parser.rebuild_from_source(item.source), ParseContext())
    assert [(i.id, i.memory) for i in again] == [(item.id, item.memory)]


def test_a_member_named_in_latin1_is_read_and_named_with_its_bytes_as_escapes(
    tmp_path: Path,
) -> None:
    """tarfile gives such a name with surrogates (surrogateescape): the member is read (its
    item id no longer fails on them), named ``\\xNN`` as the store keeps it, and found again
    by that name (fine mode re-reads a member by its stored name)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT, encoding="latin-1") as tf:
        for name, data in (("n\xe9st.txt", b"Whimbrel in the member."), ("ok.txt", b"Fine.")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    path = tmp_path / "bundle.tar"
    path.write_bytes(buf.getvalue())
    result = Reader().read_report(path)
    assert result.failures == []
    named = {i.source.member: i.memory for i in result.items}
    assert named == {"n\\xe9st.txt": "Whimbrel in the member.", "ok.txt": "Fine."}
    again = read_member(Blob(path=str(path), member="n\\xe9st.txt"), ReadOptions())
    assert again == b"Whimbrel in the member."
