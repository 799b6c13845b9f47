"""A list set with tabs (a contract's clauses, a specification's numbered paragraphs, bullets
at a tab stop) is read as text, never as a table whose rows cut its sentences."""

from __future__ import annotations

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf

_CLAUSE = [
    "Payments contemplated with respect to the Award are intended to comply with the Code,",
    "and all provisions of the Plan and these Award Terms shall be construed and interpreted",
    "in a manner consistent with the requirements for avoiding taxes or penalties.",
]


def _page_text(items: list[Text]) -> str:
    with extract_pdf(Blob(data=build_pdf([items])), layout=True) as doc:
        (page,) = [s.text for s in doc.sections if s.part is None]
    return page


def test_numbered_clauses_at_tab_stops_are_text_not_a_table() -> None:
    page = [
        Text(72, 120, "14.", 10),
        Text(130, 120, "Section 409A.", 10),
        Text(100, 140, "(a)", 10),
        *(Text(130, 140 + 12 * i, line, 10) for i, line in enumerate(_CLAUSE)),
    ]
    text = _page_text(page)

    assert "|" not in text
    assert "(a) " + " ".join(_CLAUSE) in text  # the clause whole, after its label


def test_bullets_at_a_tab_stop_are_list_items() -> None:
    risks = [
        "material adverse changes in labor matters and any resulting financial impact;",
        "changes in the regulatory environment in which we operate our networks;",
        "our high level of indebtedness;",
    ]
    page = [
        t
        for i, r in enumerate(risks)
        for t in (Text(72, 120 + 16 * i, "\u2022", 10), Text(110, 120 + 16 * i, r, 10))
    ]
    text = _page_text(page)

    assert "|" not in text
    assert all(r in text for r in risks)


def test_a_table_with_a_numbered_column_and_a_header_stays_a_table() -> None:
    rows = [
        ("No.", "Item", "Amount"),
        ("1.", "Parts and labour", "2,100"),
        ("2.", "Paint supplies", "60"),
        ("3.", "Other charges", "15"),
    ]
    page = [
        t
        for i, (a, b, c) in enumerate(rows)
        for t in (
            Text(72, 120 + 14 * i, a, 10),
            Text(130, 120 + 14 * i, b, 10),
            Text(400, 120 + 14 * i, c, 10),
        )
    ]
    assert "| 1. | Parts and labour | 2,100 |" in _page_text(page)


_EXHIBITS = [
    (
        "3.1",
        [
            "Certificate of Incorporation of the Company, including Amendment of Certificate",
            "of Incorporation, dated July 27, 2012.",
        ],
    ),
    ("3.2", ["By-Laws of the Company, as amended and restated through September 2, 2015."]),
    (
        "10.1*",
        [
            "1997 Stock Incentive Plan (amended and restated), incorporated by reference",
            "to the Quarterly Report on Form 10-Q.",
        ],
    ),
    ("10.2\u2020", ["Form of Indemnification Agreement between the Company and its Directors."]),
]


def test_an_exhibit_index_reads_each_number_with_its_exhibit() -> None:
    # Coca-Cola's and General Mills' exhibit indexes: the numbers in a column at the left
    # margin, each exhibit's text 9 em to the right of it, farther than a tab stop. Each
    # number stood alone, all of them before (or after) the exhibits they name.
    page, y = [], 100.0
    for number, lines in _EXHIBITS:
        page.append(Text(25.5, y, number, 7.5))
        for line in lines:
            page.append(Text(102.3, y, line, 7.5))
            y += 9
        y += 3
    text = _page_text(page)
    assert [text.find(f"{number} {' '.join(lines)}") for number, lines in _EXHIBITS] == sorted(
        text.find(number) for number, _ in _EXHIBITS
    )
