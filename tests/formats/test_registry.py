"""The format registry: a format is one record, and everything else follows from it.

The toy format below is defined only here. Registering it is all it takes for the
sniffer to recognise it, the reader to read it (also as a member of a ZIP), and the
``unsupported`` error to list it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import UnsupportedFormatError
from omnireader.formats import registry
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.registry import Format, Magic
from omnireader.formats.sniff import sniff
from omnireader.options import ReadOptions
from omnireader.payloads import Blob


def _read_toy(blob: Blob, options: ReadOptions) -> Extraction:
    # A toy file is "TOYF" and then lines of "key=value".
    body = blob.read_bytes()[4:].decode("utf-8")
    lines = [
        f"{k.strip()} is {v.strip()}"
        for k, v in (line.split("=", 1) for line in body.splitlines() if "=" in line)
    ]
    return Extraction(info=DocInfo(title="toy"), sections=iter([Section(text="\n".join(lines))]))


TOY = Format(
    name="toy",
    display="TOY",
    extensions=(".toy",),
    mimes=("application/x-toy",),
    magic=(Magic(5, lambda probe: probe.head.startswith(b"TOYF")),),
    extract=_read_toy,
    rank=0,
)


@pytest.fixture
def toy() -> Iterator[Format]:
    registry.register(TOY)
    yield TOY
    registry.unregister("toy")


def test_a_registered_format_is_sniffed_by_its_magic(toy: Format) -> None:
    found = sniff(b"TOYF colour=blue\n", "anything.bin")
    assert (found.kind, found.mime) == ("toy", "application/x-toy")


def test_a_registered_format_is_read(toy: Format, tmp_path: Path) -> None:
    path = tmp_path / "palette.toy"
    path.write_bytes(b"TOYF\ncolour=blue\nsize=large\n")
    texts = [item.memory for item in Reader().read(path)]
    assert any("colour is blue" in t and "size is large" in t for t in texts)


def test_a_registered_format_is_named_in_the_unsupported_error(toy: Format, tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(UnsupportedFormatError) as info:
        Reader().read(path)
    assert "supported: TOY, PDF" in str(info.value)


def test_a_registered_format_is_read_inside_a_zip(toy: Format, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("kit/palette.toy", b"TOYF\ncolour=green\n")
        zf.writestr("kit/readme.txt", b"A kit of toys.")
    path = tmp_path / "kit.zip"
    path.write_bytes(buf.getvalue())
    items = Reader().read(path)
    toy_items = [i for i in items if "colour is green" in i.memory]
    assert toy_items, [i.memory for i in items]
    assert toy_items[0].metadata.sources[0].member == "kit/palette.toy"


def test_without_the_record_the_same_bytes_are_plain_text(tmp_path: Path) -> None:
    assert registry.get("toy") is None
    assert sniff(b"TOYF colour=blue\n", "anything.toy").kind == "text"


def test_two_modules_cannot_declare_the_same_format() -> None:
    twin = Format(name="pdf", display="PDF again", module="somewhere.else")
    with pytest.raises(ValueError, match="declared twice"):
        registry.register(twin)


def test_every_format_declares_how_it_is_recognised_and_read() -> None:
    for fmt in registry.formats():
        assert fmt.magic or fmt.extensions, fmt.name
        if fmt.listed:
            readable = fmt.extract or fmt.members or fmt.family != "file"
            assert readable, f"{fmt.name} is listed as supported but nothing reads it"
