"""Text boxes that tile a rectangle edge to edge are the table they draw (a legacy .ppt
stores its tables so); boxes with space between them stay text."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader


def _slide(path: Path) -> str:
    return next(i.memory for i in Reader().read(path) if "notes" not in i.metadata.tags)


def test_a_legacy_decks_table_of_boxes_is_a_table(corpus: Path) -> None:
    # Tika's testPPT_various.ppt: a 2 x 3 table, six boxes once converted
    text = _slide(corpus / "realworld/testPPT_various.ppt")
    assert (
        "| Row 1 Col 1 | Row 1 Col 2 | Row 1 Col 3 |\n| --- | --- | --- |\n"
        "| Row 2 Col 1 | Row 2 Col 2 | Row 2 Col 3 |"
    ) in text
    assert "\n\nRow 1 Col 1\n\n" not in text


def _deck(path: Path, cells: list[tuple[int, int, str]], gap: int = 0) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    slide.shapes.title.text = "Berth fees"
    width, height = Inches(2), Inches(0.4)
    for row, col, text in cells:
        box = slide.shapes.add_textbox(
            Inches(1) + col * (width + gap), Inches(2) + row * (height + gap), width, height
        )
        box.text_frame.text = text
    slide.shapes.add_textbox(
        Inches(1), Inches(5), Inches(6), Inches(0.5)
    ).text_frame.text = "Fees are per day."
    deck.save(path)
    return path


def test_boxes_drawn_edge_to_edge_are_a_table_in_reading_order(tmp_path: Path) -> None:
    cells = [(0, 0, "Ship"), (0, 1, "Fee"), (1, 0, "Ferry"), (1, 1, "120 EUR")]
    cells += [(2, 0, "Tanker"), (2, 1, "")]  # an empty cell is still a cell
    text = _slide(_deck(tmp_path / "fees.pptx", cells))
    assert text == (
        "# Berth fees\n\n| Ship | Fee |\n| --- | --- |\n| Ferry | 120 EUR |\n| Tanker |  |"
        "\n\nFees are per day."
    )


def test_boxes_with_space_between_them_stay_text(tmp_path: Path) -> None:
    from pptx.util import Inches

    cells = [(0, 0, "Strengths"), (0, 1, "Weaknesses"), (1, 0, "Chances"), (1, 1, "Risks")]
    text = _slide(_deck(tmp_path / "swot.pptx", cells, gap=Inches(0.5)))
    assert "|" not in text
    assert "Strengths\n\nWeaknesses\n\nChances\n\nRisks" in text
