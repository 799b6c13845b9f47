"""ZIP members read in memory: junk skipped, hostile names refused, bombs stopped at the limit."""

from __future__ import annotations

import io
import struct
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import CorruptError, EncryptedError, ReadError, TooLargeError
from omnireader.formats.archives.containers import read_member
from omnireader.formats.archives.zip import (
    archive_depth,
    is_safe_member_name,
    iter_members,
)
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

MB = 1024 * 1024


def make_zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def make_bomb(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, deflated to a small file, written piece by piece."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("zeros.bin", "w", force_zip64=True) as f:
            zeros = bytes(MB)
            for _ in range(megabytes):
                f.write(zeros)
    return buf.getvalue()


def _zipcrypto(plain: bytes, password: bytes, check_byte: int) -> bytes:
    """PKWARE traditional encryption (APPNOTE 6.1), the scheme zipfile can decrypt."""
    keys = [0x12345678, 0x23456789, 0x34567890]

    def crc(c: int, b: int) -> int:
        return zlib.crc32(bytes([b]), c ^ 0xFFFFFFFF) ^ 0xFFFFFFFF

    def update(b: int) -> None:
        keys[0] = crc(keys[0], b)
        keys[1] = ((keys[1] + (keys[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        keys[2] = crc(keys[2], keys[1] >> 24)

    def stream_byte() -> int:
        t = keys[2] | 2
        return ((t * (t ^ 1)) >> 8) & 0xFF

    for b in password:
        update(b)
    out = bytearray()
    for b in bytes(11) + bytes([check_byte]) + plain:
        out.append(b ^ stream_byte())
        update(b)
    return bytes(out)


def make_encrypted_zip(name: str, plain: bytes, password: bytes, others: dict[str, bytes]) -> bytes:
    """A ZIP whose first member is ZipCrypto-encrypted (stored) and the others are not."""
    crc = zlib.crc32(plain)
    enc = _zipcrypto(plain, password, crc >> 24)
    data = bytearray(make_zip({name: enc, **others}, zipfile.ZIP_STORED))
    # Local header of the first member: flags @6, CRC @14, sizes @18/@22.
    struct.pack_into("<H", data, 6, 1)
    struct.pack_into("<III", data, 14, crc, len(enc), len(plain))
    central = data.index(b"PK\x01\x02")  # the first central directory entry
    struct.pack_into("<H", data, central + 8, 1)
    struct.pack_into("<III", data, central + 16, crc, len(enc), len(plain))
    return bytes(data)


def read_all(blob: Blob, options: ReadOptions | None = None) -> tuple[list[Blob], list[ReadError]]:
    errors: list[ReadError] = []
    members = list(iter_members(blob, options or ReadOptions(), on_error=errors.append))
    return members, errors


def test_members_are_read_in_memory_and_carry_the_archives_provenance(tmp_path: Path) -> None:
    archive = tmp_path / "bundle.zip"
    archive.write_bytes(make_zip({"notes/a.txt": b"alpha", "b.csv": b"x,y\n1,2\n"}))
    blob = Blob(
        path=str(archive),
        context="here are the files",
        chat_time="2025-01-02T03:04:05",
        message_id="m1",
    )
    members, errors = read_all(blob)
    assert errors == []
    assert [(m.member, m.data) for m in members] == [
        ("notes/a.txt", b"alpha"),
        ("b.csv", b"x,y\n1,2\n"),
    ]
    first = members[0]
    assert first.path == str(archive) and first.label == f"{archive}!notes/a.txt"
    assert (first.context, first.message_id) == ("here are the files", "m1")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundle.zip"]  # nothing unpacked


def test_a_member_is_timed_by_its_entry_or_else_by_the_message_it_came_in(
    tmp_path: Path,
) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo("dated.txt", (2019, 4, 5, 6, 7, 8)), b"alpha")
        zf.writestr(zipfile.ZipInfo("undated.txt", (1980, 1, 1, 0, 0, 0)), b"beta")
    blob = Blob(data=buf.getvalue(), filename="bundle.zip", chat_time="2025-01-02T03:04:05")
    members, _ = read_all(blob)
    assert [m.chat_time for m in members] == ["2019-04-05T06:07:08", "2025-01-02T03:04:05"]


def test_folders_macos_metadata_and_dotfiles_are_skipped() -> None:
    data = make_zip(
        {
            "docs/": b"",
            "docs/report.txt": b"real",
            "__MACOSX/docs/._report.txt": b"junk",
            ".DS_Store": b"junk",
            "docs/.hidden/x.txt": b"junk",
            "Thumbs.db": b"junk",
        }
    )
    members, errors = read_all(Blob(data=data, filename="a.zip"))
    assert [m.member for m in members] == ["docs/report.txt"] and errors == []


@pytest.mark.parametrize(
    "name", ["../../etc/x", "/etc/passwd", "a/../../x", "C:/Windows/win.ini", "..\\..\\x"]
)
def test_member_names_that_escape_the_archive_are_refused(name: str) -> None:
    assert not is_safe_member_name(name)
    data = make_zip({name: b"evil", "ok.txt": b"fine"})
    members, errors = read_all(Blob(data=data, filename="evil.zip"))
    assert [m.member for m in members] == ["ok.txt"]
    assert len(errors) == 1 and isinstance(errors[0], CorruptError)
    assert errors[0].input_name == f"evil.zip!{name}"


def test_names_that_only_look_odd_are_fine() -> None:
    assert is_safe_member_name("a/../b.txt") and is_safe_member_name("dir/file..txt")


def test_without_an_error_callback_a_bad_member_raises() -> None:
    data = make_zip({"../x": b"evil"})
    with pytest.raises(CorruptError):
        list(iter_members(Blob(data=data, filename="evil.zip"), ReadOptions()))


def test_a_zip_bomb_stops_at_the_archive_limit_without_allocating_its_output() -> None:
    start = time.perf_counter()
    bomb = make_bomb(200)
    assert len(bomb) < 2 * MB and time.perf_counter() - start < 5
    options = ReadOptions(max_archive_bytes=16 * MB)
    tracemalloc.start()
    try:
        with pytest.raises(TooLargeError) as info:
            list(iter_members(Blob(data=bomb, filename="bomb.zip"), options))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.input_name == "bomb.zip" and "max_archive_bytes" in str(info.value)
    assert peak < 48 * MB  # the limit plus a piece, not 200 MB


def test_the_archive_limit_counts_all_members_together() -> None:
    data = make_zip({f"part{i}.bin": bytes(3 * MB) for i in range(4)})
    blob = Blob(data=data, filename="parts.zip")
    with pytest.raises(TooLargeError):
        list(iter_members(blob, ReadOptions(max_archive_bytes=10 * MB)))
    members, _ = read_all(blob, ReadOptions(max_archive_bytes=12 * MB))
    assert len(members) == 4


def test_one_member_over_the_file_limit_is_reported_and_the_rest_read() -> None:
    data = make_zip({"big.bin": bytes(5 * MB), "small.txt": b"ok"})
    members, errors = read_all(Blob(data=data, filename="m.zip"), ReadOptions(max_file_bytes=MB))
    assert [m.member for m in members] == ["small.txt"]
    assert isinstance(errors[0], TooLargeError) and errors[0].input_name == "m.zip!big.bin"


def test_too_many_members_is_too_large() -> None:
    data = make_zip({f"f{i}.txt": b"x" for i in range(6)})
    with pytest.raises(TooLargeError) as info:
        blob = Blob(data=data, filename="many.zip")
        list(iter_members(blob, ReadOptions(max_archive_members=5)))
    assert "max_archive_members" in str(info.value)


def test_an_encrypted_member_needs_the_password_and_the_others_are_still_read() -> None:
    data = make_encrypted_zip("secret.txt", b"the vault code is 1234", b"pw", {"open.txt": b"hi"})
    members, errors = read_all(Blob(data=data, filename="locked.zip"))
    assert [m.member for m in members] == ["open.txt"]
    assert isinstance(errors[0], EncryptedError)
    assert errors[0].input_name == "locked.zip!secret.txt"

    members, errors = read_all(Blob(data=data, filename="locked.zip"), ReadOptions(password="pw"))
    assert errors == [] and members[0].data == b"the vault code is 1234"

    _, errors = read_all(Blob(data=data, filename="locked.zip"), ReadOptions(password="nope"))
    assert isinstance(errors[0], EncryptedError)


def test_nested_archives_are_named_level_by_level_and_limited_in_depth() -> None:
    inner = make_zip({"deep.txt": b"deep"})
    outer = Blob(data=make_zip({"inner.zip": inner}), filename="outer.zip")
    [member] = list(iter_members(outer, ReadOptions()))
    assert member.member == "inner.zip" and archive_depth(member) == 1
    [deep] = list(iter_members(member, ReadOptions()))
    assert deep.member == "inner.zip!deep.txt" and deep.label == "outer.zip!inner.zip!deep.txt"
    with pytest.raises(TooLargeError) as info:
        list(iter_members(member, ReadOptions(max_archive_depth=0)))
    assert "max_archive_depth" in str(info.value)


def test_a_member_can_be_read_again_from_its_source(tmp_path: Path) -> None:
    inner = make_zip({"deep.txt": b"deep"})
    path = tmp_path / "outer.zip"
    path.write_bytes(make_zip({"inner.zip": inner, "top.txt": b"top"}))
    assert read_member(Blob(path=str(path), member="top.txt"), ReadOptions()) == b"top"
    assert read_member(Blob(path=str(path), member="inner.zip!deep.txt"), ReadOptions()) == b"deep"
    with pytest.raises(ReadError):
        read_member(Blob(path=str(path), member="missing.txt"), ReadOptions())


def test_a_file_that_is_not_a_zip_is_corrupt() -> None:
    with pytest.raises(CorruptError) as info:
        list(iter_members(Blob(data=b"PK\x03\x04 not really", filename="x.zip"), ReadOptions()))
    assert info.value.input_name == "x.zip"


def test_a_member_with_a_bad_checksum_is_corrupt_and_the_rest_read() -> None:
    data = bytearray(make_zip({"a.txt": b"hello world", "b.txt": b"fine"}, zipfile.ZIP_STORED))
    data[data.index(b"hello")] = ord("j")  # flip a byte in the stored data
    members, errors = read_all(Blob(data=bytes(data), filename="crc.zip"))
    assert [m.member for m in members] == ["b.txt"]
    assert isinstance(errors[0], CorruptError)


def test_member_names_in_utf8_without_the_utf8_flag_read_as_utf8(tmp_path: Path) -> None:
    from omnireader import Reader

    names = {"Zoë.txt": "Zoë's notes on the glacier walk.", "plain.txt": "ASCII names stay."}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for n, (name, text) in enumerate(names.items()):
            zf.writestr(f"{n}" * len(name.encode()), text)  # a stand-in of the same length
    raw = buf.getvalue()
    for n, name in enumerate(names):  # the name's UTF-8 bytes, the UTF-8 flag left unset
        raw = raw.replace(f"{n}".encode() * len(name.encode()), name.encode())
    (tmp_path / "names.zip").write_bytes(raw)
    got = {i.metadata.sources[0].member: i.memory for i in Reader().read(tmp_path / "names.zip")}
    assert got == {"Zoë.txt": names["Zoë.txt"], "plain.txt": names["plain.txt"]}


def test_members_that_pack_tightly_but_are_small_are_read_not_refused_as_bombs() -> None:
    """10 MB of zeros and 10 MB of spaces pack to ~10 kB each (1000x): sparse logs and CSVs
    do that too. Only a high ratio *and* a size past 100 MiB make a bomb."""
    data = make_zip(
        {"zeros.bin": bytes(10 * MB), "spaces.txt": b" " * (10 * MB), "readme.txt": b"read me"}
    )
    assert len(data) < 100_000
    members, errors = read_all(Blob(data=data, filename="zeros.zip"))
    assert errors == [] and [len(m.data) for m in members] == [10 * MB, 10 * MB, 7]


def test_a_big_member_packed_like_a_bomb_is_refused_from_its_header_alone() -> None:
    bomb = make_bomb(150)  # 150 MiB from about 150 kB: past the floor and the ratio
    start = time.perf_counter()
    members, errors = read_all(Blob(data=bomb, filename="bomb.zip"))
    assert members == [] and isinstance(errors[0], TooLargeError)
    assert "ZIP bomb" in str(errors[0]) and time.perf_counter() - start < 1


def test_an_archive_nested_too_deep_is_reported_once_with_how_to_open_it(tmp_path: Path) -> None:
    from omnireader import Reader

    inner = make_zip({"deep.txt": b"deep"})
    path = tmp_path / "outer.zip"
    path.write_bytes(
        make_zip({"l1.zip": make_zip({"l2.zip": inner, "l1.txt": b"one"}), "top.txt": b"top"})
    )
    result = Reader(max_archive_depth=1).read_report(path)
    assert sorted(i.memory.strip() for i in result.items) == ["one", "top"]
    [failure] = result.failures
    assert failure.input == f"{path}!l1.zip!l2.zip" and failure.error == "too_large"
    assert failure.message == (
        f"{path}!l1.zip!l2.zip: not opened: it is nested 2 levels deep inside other archives "
        "or e-mails, past max_archive_depth=1; to open it, raise the limit "
        "(--max-archive-depth 2, or ReadOptions(max_archive_depth=2))"
    )
    deeper = Reader(max_archive_depth=2).read_report(path)
    assert "deep" in {i.memory.strip() for i in deeper.items} and deeper.failures == []


def test_a_member_name_flagged_utf8_that_is_not_no_longer_loses_the_archive(
    tmp_path: Path,
) -> None:
    """A writer that set the UTF-8 flag over Latin-1 bytes: zipfile refused the whole archive
    (``corrupt``), the good members too. Both are read; the mislabelled name is shown with
    ``\\xNN`` for its bytes, as a file name on disk is, and found again by that name."""
    made = make_zip({"ok.txt": b"Godwit, a fine member.", "m\u00e9mo.txt": b"Curlew notes."})
    data = made.replace("m\u00e9mo.txt".encode(), b"m\xe9\xe9mo.txt")  # same length: flag kept
    assert data != made
    path = tmp_path / "mislabelled.zip"
    path.write_bytes(data)
    result = Reader().read_report(path)
    assert result.failures == []
    named = {i.source.member: i.memory for i in result.items}
    assert named == {"ok.txt": "Godwit, a fine member.", "m\\xe9\\xe9mo.txt": "Curlew notes."}
    again = read_member(Blob(path=str(path), member="m\\xe9\\xe9mo.txt"), ReadOptions())
    assert again == b"Curlew notes."
    members, errors = read_all(Blob(data=data, filename="mislabelled.zip"))  # bytes, not a path
    assert errors == [] and sorted(m.member or "" for m in members) == [
        "m\\xe9\\xe9mo.txt",
        "ok.txt",
    ]
