"""A form's questions end at their check boxes: "… Act. Yes ☒ No ☐" closes a question as a
full stop would, so the next question is a paragraph of its own, not run into this one."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

_QUESTIONS = [
    "Indicate by check mark if the registrant is a well-known seasoned issuer. Yes \u2612 No \u2610",
    "Indicate by check mark if the registrant is not required to file reports. Yes \u2610 No \u2612",
    "Indicate by check mark whether the registrant has filed all reports required to be filed",
    "by Section 13 or 15(d) of the Exchange Act during the preceding 12 months. Yes \u2612 No \u2610",
]


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans is not installed")
def test_each_question_of_a_form_is_its_own_paragraph() -> None:
    lines = [Text(40, 100 + 12 * i, text, 9) for i, text in enumerate(_QUESTIONS)]
    pdf = build_pdf([lines], font_file=DEJAVU.read_bytes())
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        (page,) = [s.text for s in doc.sections if s.part is None]

    assert page.split("\n\n") == [_QUESTIONS[0], _QUESTIONS[1], " ".join(_QUESTIONS[2:])]
