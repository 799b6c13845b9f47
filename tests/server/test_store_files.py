"""``GET /v1/files``: what the store holds per file (items, pages, last ingest), each user's
own, and gone after ``DELETE /v1/items?path=``. Real uploads into a real store."""

from __future__ import annotations

import time
from datetime import datetime

from .conftest import ALICE, BOB, KEYS, Running, wait_job


def two_page_pdf(first: str, second: str) -> bytes:
    """A valid two-page PDF (Helvetica text), written by hand."""
    pages = [f"BT /F1 12 Tf 72 720 Td ({t}) Tj ET".encode() for t in (first, second)]
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, content in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents "
            f"{5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def upload(client, files: list[tuple[str, bytes, str]]) -> dict:  # type: ignore[no-untyped-def]
    r = client.post("/v1/ingest", files=[("files", f) for f in files])
    assert r.status_code == 202, r.text
    job = wait_job(client, r.json()["job_id"])
    assert job["status"] == "done" and not job["failures"], job
    return job


def test_the_listing_counts_items_and_pages_per_file_for_its_user(serve) -> None:  # type: ignore[no-untyped-def]
    running: Running = serve(keys=KEYS)
    before = time.time()
    pdf = two_page_pdf(
        "Tide tables for the harbour in March.", "Tide tables for the harbour in April."
    )
    with running.client(ALICE) as alice, running.client(BOB) as bob:
        upload(
            alice,
            [
                ("tides.pdf", pdf, "application/pdf"),
                ("notes.txt", b"Buy rope and a new lantern wick.", "text/plain"),
            ],
        )
        upload(bob, [("bob.txt", b"Bob's list: paint the shed.", "text/plain")])

        listing = alice.get("/v1/files").json()
        assert listing["total"] == 2
        by_name = {f["name"]: f for f in listing["files"]}
        assert set(by_name) == {"tides.pdf", "notes.txt"}
        assert by_name["tides.pdf"]["pages"] == 2 and by_name["tides.pdf"]["items"] >= 2
        assert by_name["notes.txt"]["pages"] == 0 and by_name["notes.txt"]["items"] == 1
        assert sum(f["items"] for f in listing["files"]) == alice.get("/v1/stats").json()["items"]
        for f in listing["files"]:
            when = datetime.fromisoformat(f["last_ingested"])
            assert before - 5 <= when.timestamp() <= time.time() + 5
            assert f["path"].endswith("/" + f["name"])
        assert [f["name"] for f in bob.get("/v1/files").json()["files"]] == ["bob.txt"]

        assert alice.get("/v1/files", params={"limit": 1}).json()["total"] == 2
        assert len(alice.get("/v1/files", params={"limit": 1}).json()["files"]) == 1

        # A listed path is what delete takes; bob's file stays.
        gone = alice.delete("/v1/items", params={"path": by_name["tides.pdf"]["path"]}).json()
        assert gone["deleted"] == by_name["tides.pdf"]["items"]
        assert [f["name"] for f in alice.get("/v1/files").json()["files"]] == ["notes.txt"]
        assert bob.get("/v1/files").json()["total"] == 1

    with running.client() as nobody:
        assert nobody.get("/v1/files").status_code == 401
