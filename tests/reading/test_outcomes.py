"""A failure is typed by what went wrong: a broken input under its code, a bug as
``internal`` with its traceback kept, never blamed on the input as ``corrupt``."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from omnireader import InternalError, Reader, ReadFailure
from omnireader.batch.workers import Job, WorkerPool
from omnireader.errors import error_for_code
from omnireader.reading.outcomes import ReadOutcome, captured, log_internal
from tests.faultkit.jobs import run_job


def test_an_unexpected_exception_is_internal_with_its_traceback_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    out = ReadOutcome(input="report.pdf")
    with caplog.at_level(logging.ERROR, logger="omnireader"), captured(out, "report.pdf"):
        {}.missing_method()  # type: ignore[attr-defined]  # a bug, not a broken file

    [failure] = out.failures
    assert failure.error == "internal"
    assert failure.input == "report.pdf"
    assert "AttributeError" in failure.message and "report it" in failure.message
    assert failure.detail is not None and "Traceback" in failure.detail
    assert "missing_method" in failure.detail
    assert "report.pdf" in caplog.text and "AttributeError" in caplog.text


def test_a_broken_file_keeps_its_format_code(sample_files: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.pdf"
    cut.write_bytes((sample_files / "quarterly_report.pdf").read_bytes()[:400])

    [failure] = Reader().read_report(cut).failures

    assert failure.error == "corrupt" and failure.detail is None


def test_an_internal_failure_raises_as_internal_error() -> None:
    err = error_for_code("internal", "x.pdf", "internal error (KeyError: 'a')")
    assert isinstance(err, InternalError) and err.code == "internal"


def test_a_job_that_raises_in_a_worker_is_internal_and_the_worker_reads_on() -> None:
    jobs = [Job(key="bug", args={"kind": "bug"}), Job(key="next", args={"kind": "ok", "n": 1})]

    got = {r.key: r for r in WorkerPool(run_job, 1, timeout=60, memory_mb=None).run(jobs)}

    assert got["bug"].error == "internal" and "AttributeError" in (got["bug"].message or "")
    assert "Traceback" in (got["bug"].detail or "")
    assert got["next"].ok and got["next"].value == "result 1"


def test_internal_failures_from_a_worker_are_logged_with_their_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures = [
        ReadFailure(
            input="a.pdf",
            error="internal",
            message="a.pdf: internal error",
            detail="Traceback (most recent call last): ...",
        ),
        ReadFailure(input="b.pdf", error="corrupt", message="b.pdf: damaged"),
    ]
    with caplog.at_level(logging.ERROR, logger="omnireader"):
        log_internal(failures)
    assert "a.pdf: internal error" in caplog.text and "Traceback" in caplog.text
    assert "b.pdf" not in caplog.text


def _damage_member(data: bytes, member: str) -> bytes:
    """``data`` (a ZIP) with ``member``'s compressed bytes overwritten by garbage."""
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        info = zf.getinfo(member)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    out = bytearray(data)
    out[start : start + info.compress_size] = b"\xff" * info.compress_size
    return bytes(out)


def _odt_like() -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.text" * 4)
        zf.writestr("content.xml", "<office:document-content/>")
    return buf.getvalue()


@pytest.mark.parametrize("name, member", [("plan.docx", "_rels/.rels"), ("notes.odt", "mimetype")])
def test_a_package_with_damaged_compressed_data_is_corrupt_not_internal(
    sample_files: Path, tmp_path: Path, name: str, member: str
) -> None:
    whole = (
        (sample_files / "project_plan.docx").read_bytes() if name.endswith("docx") else _odt_like()
    )
    path = tmp_path / name
    path.write_bytes(_damage_member(whole, member))

    failures = Reader().read_report(path).failures

    # (An ODT is read as the ZIP it is: its damaged member is corrupt, the rest as it is.)
    assert failures[0].error == "corrupt", failures[0].message
    assert "internal" not in {f.error for f in failures}


def test_result_reprs_stay_short_however_many_items():
    """asyncio.run formats its result's repr; a read's result must not repr every item."""
    from omnireader import Reader
    from omnireader.reading.outcomes import ReadResult

    text = "\n\n".join(f"Paragraph {n} about the quarterly budget review." * 20 for n in range(200))
    result = Reader().read_report([text])
    assert len(result.items) > 1
    assert repr(result) == (
        f"ReadResult(inputs=1, items={len(result.items)}, failures=0, lost=0, refine_failed=0)"
    )
    assert len(repr(ReadResult(items=result.items * 50))) < 200
