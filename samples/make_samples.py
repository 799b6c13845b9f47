"""Write the small real sample files into samples/files/ (idempotent; no network).

    python samples/make_samples.py [--out DIR]

Makes a multi-page PDF (with document info), a DOCX with headings, a list and a table, a
JPEG with EXIF time and GPS, a PNG, a WAV tone, a CSV, a Markdown note, a ZIP of some of
them, and a chat log as JSON. The PDF writer below is dependency-free so benchmarks can use
it to generate large corpora too.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import struct
import wave
import zipfile
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "files"

__all__ = ["write_text_pdf", "make_all"]


def _pdf_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_text_pdf(
    path: Path,
    pages: list[list[str]],
    *,
    title: str = "",
    author: str = "",
    created: datetime | None = None,
) -> None:
    """A valid PDF with one Helvetica text line per string, one page per list."""
    objs: list[bytes] = []

    def add(body: bytes) -> int:
        objs.append(body)
        return len(objs)

    catalog = add(b"")  # filled in once the page tree's number is known
    pages_obj = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for lines in pages:
        ops = ["BT", "/F1 11 Tf", "14 TL", "56 786 Td"]
        for line in lines:
            enc = _pdf_escape(line).encode("cp1252", "replace").decode("latin-1")
            ops.append(f"({enc}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] "
                b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                % (pages_obj, font, content)
            )
        )
    objs[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objs[pages_obj - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )
    info_parts = []
    if title:
        info_parts.append(f"/Title ({_pdf_escape(title)})")
    if author:
        info_parts.append(f"/Author ({_pdf_escape(author)})")
    if created:
        info_parts.append(f"/CreationDate (D:{created.strftime('%Y%m%d%H%M%S')}Z)")
    info = add(("<< " + " ".join(info_parts) + " >>").encode("latin-1"))

    buf = io.BytesIO()
    buf.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objs, start=1):
        offsets.append(buf.tell())
        buf.write(b"%d 0 obj\n%s\nendobj\n" % (n, body))
    xref = buf.tell()
    buf.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        buf.write(b"%010d 00000 n \n" % off)
    buf.write(
        b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objs) + 1, catalog, info, xref)
    )
    path.write_bytes(buf.getvalue())


REPORT_PAGES = [
    [
        "Northwind Traders - Quarterly Report Q3 2024",
        "",
        "Quarterly revenue reached 4.2 million euros, up 12 percent on Q2.",
        "The Lisbon office opened on 2 September 2024 under Maria Santos.",
    ],
    [
        "Operations",
        "",
        "Warehouse throughput rose to 18,500 parcels per day in August.",
        "Carrier costs fell 3 percent after the contract with FastShip.",
    ],
    [
        "Outlook",
        "",
        "The board approved a budget of 1.1 million euros for Q4 hiring.",
        "Next review: 15 January 2025, chaired by Daniel Okafor.",
    ],
]


def make_pdf(out: Path) -> None:
    write_text_pdf(
        out / "quarterly_report.pdf",
        REPORT_PAGES,
        title="Quarterly Report Q3 2024",
        author="Maria Santos",
        created=datetime(2024, 10, 1, 9, 0, 0),
    )


def make_docx(out: Path) -> None:
    import docx

    d = docx.Document()
    d.core_properties.author = "Daniel Okafor"
    d.core_properties.title = "Project Falcon plan"
    d.core_properties.created = datetime(2024, 11, 4, 14, 30)
    d.add_heading("Project Falcon plan", level=1)
    d.add_paragraph("Project Falcon moves the billing system to the new platform by March 2025.")
    d.add_heading("Milestones", level=2)
    for step in ("Design review on 2 December 2024", "Pilot with 50 customers", "Full cut-over"):
        d.add_paragraph(step, style="List Bullet")
    d.add_heading("Budget", level=2)
    table = d.add_table(rows=1, cols=3)
    for cell, text in zip(table.rows[0].cells, ("Item", "Owner", "Cost (EUR)")):
        cell.text = text
    for row in (("Servers", "Ines Moreau", "120,000"), ("Licences", "Tom Becker", "45,500")):
        cells = table.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = text
    d.save(out / "project_plan.docx")


def _exif_jpeg(path: Path) -> None:
    from PIL import Image

    img = Image.new("RGB", (320, 240), (40, 120, 200))
    for x in range(0, 320, 8):  # a little structure so the JPEG is not flat
        for y in range(0, 240, 8):
            img.putpixel((x, y), (250, 220, 30))
    exif = Image.Exif()
    exif[0x010F] = "OmniCam"  # Make
    exif[0x0110] = "Sample 1"  # Model
    exif[0x0132] = "2024:06:15 18:42:07"  # DateTime
    ifd = exif.get_ifd(0x8769)
    ifd[0x9003] = "2024:06:15 18:42:07"  # DateTimeOriginal
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (48.0, 51.0, 30.132)  # 48.858370 N: the Eiffel Tower
    gps[3] = "E"
    gps[4] = (2.0, 17.0, 40.128)  # 2.294480 E
    img.save(path, "JPEG", exif=exif, quality=85)


def make_images(out: Path) -> None:
    from PIL import Image, ImageDraw

    _exif_jpeg(out / "eiffel_photo.jpg")
    img = Image.new("RGB", (400, 120), "white")
    ImageDraw.Draw(img).text((10, 50), "Whiteboard: ship v2 on Friday", fill="black")
    img.save(out / "whiteboard.png", "PNG")


def make_wav(out: Path, seconds: float = 1.5, rate: int = 16000) -> None:
    frames = bytearray()
    for n in range(int(seconds * rate)):
        frames += struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * n / rate)))
    with wave.open(str(out / "voice_note.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))


def make_text_files(out: Path) -> None:
    (out / "team_notes.md").write_text(
        "# Team notes\n\n"
        "- Ines Moreau leads the data migration.\n"
        "- The staging database moves to PostgreSQL 16 on 20 November 2024.\n\n"
        "## Decisions\n\nWe keep weekly demos on Thursdays at 16:00.\n",
        encoding="utf-8",
    )
    (out / "sales.csv").write_text(
        "region,quarter,revenue_eur\nNorth,Q3,1200000\nSouth,Q3,980000\nLisbon,Q3,310000\n",
        encoding="utf-8",
    )
    (out / "会议纪要.txt").write_text(
        "2024年11月5日会议纪要：张伟负责上海仓库的搬迁，预计12月完成。预算为80万元。\n",
        encoding="utf-8",
    )


def make_zip(out: Path) -> None:
    with zipfile.ZipFile(out / "archive.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(out / "team_notes.md", "docs/team_notes.md")
        zf.write(out / "sales.csv", "data/sales.csv")


CHAT_LOG = [
    {"role": "system", "content": "You are a helpful travel assistant.", "message_id": "m0"},
    {
        "role": "user",
        "name": "Alice",
        "content": "I'm flying to Tokyo on 3 March 2025 for a conference.",
        "chat_time": "2025-01-10T09:15:00",
        "message_id": "m1",
    },
    {
        "role": "assistant",
        "content": "Great! Do you need a hotel near Shinjuku?",
        "chat_time": "2025-01-10T09:15:05",
        "message_id": "m2",
    },
    {
        "role": "user",
        "name": "Alice",
        "content": "Yes, under 200 dollars a night. I am vegetarian, by the way.",
        "chat_time": "2025-01-10T09:16:30",
        "message_id": "m3",
    },
    {
        "role": "assistant",
        "content": "Noted: a Shinjuku hotel under 200 USD and vegetarian restaurants nearby.",
        "chat_time": "2025-01-10T09:16:40",
        "message_id": "m4",
    },
]


def make_chat(out: Path) -> None:
    (out / "chat_tokyo_trip.json").write_text(
        json.dumps(CHAT_LOG, indent=2, ensure_ascii=False), encoding="utf-8"
    )


def make_all(out: Path = OUT) -> list[Path]:
    """Write every sample into ``out``. Each file is made in a staging folder beside it and
    moved in whole (``os.replace``), so a process reading the samples while another writes
    them (the runners and the test suite's workers do) never sees a half-written file."""
    import os
    import tempfile

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".samples-") as tmp:
        staging = Path(tmp)
        for make in (
            make_pdf,
            make_docx,
            make_images,
            make_wav,
            make_text_files,
            make_zip,
            make_chat,
        ):
            make(staging)
        for made in staging.iterdir():
            os.replace(made, out / made.name)
    return sorted(p for p in out.iterdir() if p.is_file())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT, help=f"folder to write (default {OUT})")
    args = ap.parse_args()
    files = make_all(args.out)
    print(f"samples: {len(files)} files in {args.out}")


if __name__ == "__main__":
    main()
