"""PPTX tables and charts as Markdown tables (a table's first row its header, a chart's
categories by its series)."""

from __future__ import annotations

from typing import Any

__all__ = ["table_markdown", "markdown_rows", "chart_markdown"]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def table_markdown(table: Any) -> str:
    """A slide's table as a Markdown table, its first row the header; "" when it is empty."""
    return markdown_rows([[cell.text for cell in row.cells] for row in table.rows])


def markdown_rows(texts: list[list[str]]) -> str:
    """Rows of cell texts as a Markdown table, the first row the header, empty rows left
    out; "" when every row is empty."""
    rows = [[_cell(text) for text in row] for row in texts]
    rows = [r for r in rows if any(r)]
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    lines = [_row(rows[0], width), _row(["---"] * width, width)]
    lines.extend(_row(r, width) for r in rows[1:])
    return "\n".join(lines)


def _row(cells: list[str], width: int) -> str:
    return "| " + " | ".join(cells + [""] * (width - len(cells))) + " |"


def chart_markdown(chart: Any) -> str:
    """A chart as its title and a table of its categories and series values."""
    try:
        title = chart.chart_title.text_frame.text if chart.has_title else ""
        plot = chart.plots[0]
        categories = [str(c) for c in plot.categories]
        series = [(s.name or "", list(s.values)) for s in plot.series]
    except Exception:  # noqa: BLE001 - an unsupported plot type: its title is still text
        return f"Chart: {title}" if (title := _safe_title(chart)) else ""
    head = f"Chart: {' '.join(title.split())}" if title.strip() else "Chart"
    rows = [["Category", *(_cell(name) for name, _ in series)]]
    for i, category in enumerate(categories):
        values = [_number(v[i]) if i < len(v) else "" for _, v in series]
        rows.append([_cell(category), *values])
    width = len(rows[0])
    lines = [_row(rows[0], width), _row(["---"] * width, width)]
    lines.extend(_row(r, width) for r in rows[1:])
    return head + "\n\n" + "\n".join(lines)


def _safe_title(chart: Any) -> str:
    try:
        return chart.chart_title.text_frame.text if chart.has_title else ""
    except Exception:  # noqa: BLE001
        return ""


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
