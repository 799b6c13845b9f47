"""Generators for the fault matrix's hostile and broken inputs (nothing large is committed).

Each function writes one kind of bad input into a folder and returns its path. Sizes come
from :class:`Sizes`: ``Sizes.full()`` for ``python3 dev.py faults``, ``Sizes.test()`` for
the test suite. Bombs are built from a deflate block repeated after a full flush, so a
file that unpacks to gigabytes is written in milliseconds and never exists unpacked.

    write_zip_bomb(folder / "bomb.zip", Sizes.full().zip_bomb)   # 3 GiB of text in ~3 MB
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from samples.make_samples import write_text_pdf
from tests.faultkit.zipbuild import deflated_member as _deflated
from tests.faultkit.zipbuild import zip_of as _zip
from tests.support.text_files import write_one_line_text

__all__ = [
    "Sizes",
    "write_controls",
    "write_text_pdf",
    "write_truncated_pdf",
    "write_broken_xref_pdf",
    "write_image_only_pdf",
    "write_docx",
    "write_zip_bomb",
    "write_docx_bomb",
    "write_climbing_zip",
    "write_png_bomb",
    "write_invalid_utf8_text",
    "write_mixed_encoding_csv",
    "write_one_line_text",
    "write_nested_json",
    "write_billion_laughs",
    "write_link_maze",
    "CONTROL_WORDS",
    "CONTROL_TEXT",
]

MiB = 1 << 20


@dataclass(frozen=True)
class Sizes:
    """How big the big cases are."""

    pdf_pages: int
    zip_bomb: int  # bytes a ZIP bomb member unpacks to
    docx_bomb: int  # bytes a DOCX bomb's document.xml unpacks to
    png_side: int  # pixels per side of the decompression-bomb PNG
    one_line: int  # bytes of the single-line text file
    json_depth: int

    @classmethod
    def full(cls) -> Sizes:
        return cls(650, 3 << 30, 2 << 30, 60_000, 50 * MiB, 100_000)

    @classmethod
    def test(cls) -> Sizes:
        return cls(120, 256 * MiB, 128 * MiB, 20_000, 1 * MiB, 100_000)


# Words only the control files hold: finding them proves the controls were read.
CONTROL_WORDS = ("kiwifruit", "pomegranate", "quince")

# What each control file's items must hold between them: its text, not just its count.
# The PDF's words sit past the first 10 characters of each page, so a reader that loses
# the end of a page's text loses them.
CONTROL_TEXT: dict[str, tuple[str, ...]] = {
    "control_note.md": (f"The {CONTROL_WORDS[0]} harvest starts in May.",),
    "control_report.pdf": (
        f"Page one: {CONTROL_WORDS[1]} sales rose.",
        f"Page two: {CONTROL_WORDS[2]} stock.",
    ),
    "control_table.csv": (CONTROL_WORDS[0], "120", CONTROL_WORDS[2], "40"),
}


def write_controls(folder: Path) -> list[Path]:
    """Three ordinary files every file case is read next to: none of them may be lost, and
    their items must hold their text (:data:`CONTROL_TEXT`)."""
    folder.mkdir(parents=True, exist_ok=True)
    note = folder / "control_note.md"
    note.write_text(f"# Market notes\n\nThe {CONTROL_WORDS[0]} harvest starts in May.\n")
    report = folder / "control_report.pdf"
    write_text_pdf(
        report,
        [[f"Page one: {CONTROL_WORDS[1]} sales rose."], [f"Page two: {CONTROL_WORDS[2]} stock."]],
        title="Control report",
    )
    table = folder / "control_table.csv"
    table.write_text(f"fruit,kg\n{CONTROL_WORDS[0]},120\n{CONTROL_WORDS[2]},40\n")
    return [note, report, table]


# ----------------------------------------------------------------------------- PDF


def write_truncated_pdf(path: Path, pages: int = 3) -> Path:
    """A PDF cut off after 40 % of its bytes: no page tree, no xref, no trailer."""
    whole = _pdf_bytes(pages)
    path.write_bytes(whole[: len(whole) * 2 // 5])
    return path


def write_broken_xref_pdf(path: Path, pages: int = 3) -> Path:
    """A PDF whose xref offsets all point 7 bytes off and whose startxref is wrong.

    The objects themselves are intact, so a reader that rebuilds the xref recovers the text.
    """
    whole = _pdf_bytes(pages)
    at = whole.rfind(b"xref\n")
    head, tail = whole[:at], whole[at:]
    lines = tail.split(b"\n")
    for i, line in enumerate(lines):
        if line.endswith(b" 00000 n "):
            lines[i] = b"%010d 00000 n " % (int(line[:10]) + 7)
    fixed = b"\n".join(lines).replace(b"startxref\n", b"startxref\n1")
    path.write_bytes(head + fixed)
    return path


def pdf_pages_text(pages: int) -> list[list[str]]:
    """The lines of the generated test PDFs: page N says its number twice."""
    return [
        [f"Page {n} of the fault report.", f"Marker page-{n}-end."] for n in range(1, pages + 1)
    ]


def _pdf_bytes(pages: int) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:  # write_text_pdf writes to a path
        out = Path(tmp) / "x.pdf"
        write_text_pdf(out, pdf_pages_text(pages), title="Fault report")
        return out.read_bytes()


def write_image_only_pdf(path: Path, pages: int = 2) -> Path:
    """A PDF of scanned-looking pages: images only, no text layer."""
    from PIL import Image, ImageDraw

    images = []
    for n in range(pages):
        im = Image.new("RGB", (600, 800), "white")
        ImageDraw.Draw(im).rectangle((50, 50 + n * 10, 550, 300), fill=(30, 30, 30))
        images.append(im)
    images[0].save(path, "PDF", save_all=True, append_images=images[1:])
    return path


# ---------------------------------------------------------------------------- DOCX


def write_docx(path: Path, paragraphs: list[str]) -> Path:
    path.write_bytes(_docx_bytes(paragraphs))
    return path


def _docx_bytes(paragraphs: list[str]) -> bytes:
    import docx

    doc = docx.Document()
    for text in paragraphs:
        doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def write_docx_bomb(path: Path, unpacked: int) -> Path:
    """A real DOCX whose word/document.xml unpacks to ``unpacked`` bytes of paragraphs."""
    members = []
    with zipfile.ZipFile(io.BytesIO(_docx_bytes(["Bomb"]))) as src:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":
                xml = data.decode()
                cut = xml.index("<w:body>") + len("<w:body>")
                para = b"<w:p><w:r><w:t>" + b"ha " * 300 + b"</w:t></w:r></w:p>"
                block = para * (MiB // len(para))
                head, tail = xml[:cut].encode(), xml[cut:].encode()
                members.append(_deflated(info.filename, head, block, unpacked, tail))
            else:
                members.append(_deflated(info.filename, b"", data, len(data), b""))
    path.write_bytes(_zip(members))
    return path


# ----------------------------------------------------------------------------- ZIP


def write_zip_bomb(path: Path, unpacked: int) -> Path:
    """A ZIP with one text member of ``unpacked`` bytes ("AAAA..."), packed about 1000:1."""
    block = b"A" * MiB
    path.write_bytes(_zip([_deflated("bomb/payload.txt", b"", block, unpacked, b"")]))
    return path


def write_climbing_zip(path: Path, readable: str) -> Path:
    """A ZIP whose member names climb out of any folder it is unpacked to, and one good one."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("../../etc/omnireader-fault-x", "overwritten!")
        zf.writestr("/tmp/omnireader-fault-abs", "absolute!")
        zf.writestr("docs/../../../escape.txt", "escaped!")
        zf.writestr("docs/readme.txt", readable)
    return path


# ---------------------------------------------------------------------------- image


def write_png_bomb(path: Path, side: int) -> Path:
    """A valid grey PNG of ``side`` x ``side`` pixels (gigapixels) in a few megabytes."""
    row = b"\x00" + bytes(side)  # filter byte, then one byte per pixel
    rows_per_block = max(1, MiB // len(row))
    co = zlib.compressobj(9)
    once = co.compress(row * rows_per_block) + co.flush(zlib.Z_FULL_FLUSH)
    blocks, rest = divmod(side, rows_per_block)
    idat = once * blocks + co.compress(row * rest) + co.flush(zlib.Z_FINISH)

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )
    return path


# ----------------------------------------------------------------------------- text


def write_invalid_utf8_text(path: Path) -> Path:
    """UTF-8 prose with stray bytes that are valid in no encoding (0xFF, 0xFE, 0xC0)."""
    lines = [
        "Le café de la gare ouvre à sept heures.",
        "Die Straße nach Köln ist gesperrt.",
        "東京の会議は三月三日です。",
    ]
    data = "\n".join(lines).encode() + b"\nstray bytes: \xff\xfe and \xc0 end\n"
    path.write_bytes(data * 3)
    return path


def write_mixed_encoding_csv(path: Path) -> Path:
    """A CSV whose rows came from two systems: UTF-8 rows and a Windows-1252 row."""
    data = (
        b"name,city,note\n"
        + "José,São Paulo,naïve café\n".encode()
        + "Zoë,Köln,Grüße\n".encode("cp1252")
        + "田中,東京,会議\n".encode()
        + "Renée,Montréal,déjà vu\n".encode()
    )
    path.write_bytes(data)
    return path


def write_nested_json(path: Path, depth: int) -> Path:
    """``depth`` levels of objects in arrays: valid JSON that breaks recursive parsers."""
    path.write_text('{"a": [' * depth + "1" + "]}" * depth)
    return path


def write_billion_laughs(path: Path, root: str = "lolz") -> Path:
    """The classic XML entity bomb: ten levels of ten references, 10^9 "lol"s if expanded."""
    lines = ['<?xml version="1.0"?>', f"<!DOCTYPE {root} [", ' <!ENTITY lol0 "lol">']
    for n in range(1, 10):
        lines.append(f' <!ENTITY lol{n} "' + f"&lol{n - 1};" * 10 + '">')
    lines += ["]>", f"<{root}><title>Laughs</title><body>&lol9;</body></{root}>"]
    path.write_text("\n".join(lines) + "\n")
    return path


# --------------------------------------------------------------------------- folders


def write_link_maze(folder: Path, readable: str) -> dict[str, Path]:
    """A folder with link loops, a dangling link, a link to its parent, a locked file.

    Returns the interesting paths by role: ``readable`` (the one real text file),
    ``locked`` (mode 000), ``loops`` (two links pointing at each other, one at itself),
    ``dangling``.
    """
    sub = folder / "sub"
    sub.mkdir(parents=True, exist_ok=True)
    real = sub / "real.txt"
    real.write_text(readable)
    (sub / "up").symlink_to("..")  # a folder link back to the top: never followed
    (folder / "again").symlink_to("sub")  # the same folder twice: read once
    (folder / "loop_a").symlink_to("loop_b")
    (folder / "loop_b").symlink_to("loop_a")
    (folder / "self").symlink_to("self")
    (folder / "dangling").symlink_to("no-such-file.txt")
    locked = folder / "locked.txt"
    locked.write_text("A locked file about apricots.\n")
    locked.chmod(0)
    return {
        "readable": real,
        "locked": locked,
        "loop_a": folder / "loop_a",
        "loop_b": folder / "loop_b",
        "self": folder / "self",
        "dangling": folder / "dangling",
    }
