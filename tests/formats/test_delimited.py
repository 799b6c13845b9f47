"""Delimited text: the delimiter and quoting are sniffed, cells keep their text as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.plain.delimited import delimited_markdown, sniff_delimiter

DIALECTS = [
    (
        ",",
        'name,city,amount\nAnn,Oslo,12.5\nBo,"Paris, TX",7\nCy,Rome,3\n',
        ["| Bo | Paris, TX | 7 |"],
    ),
    (
        ";",
        "Jahr;Wert;Anteil\n2019;0,25;1,5\n2020;1,53e4;-0,75\n2021;3;4\n",
        ["| 2019 | 0,25 | 1,5 |", "| 2020 | 1,53e4 | -0,75 |"],
    ),
    (
        "\t",
        "gene\tsample\tvalue\nTP53\tA1\t0.5\nBRCA1\tA2\t1.5\nEGFR\tA3\t2\n",
        ["| BRCA1 | A2 | 1.5 |"],
    ),
    (
        "|",
        "venueid|venuename|venuecity\n1|Toyota Park|Bridgeview\n2|RFK Stadium|Washington\n",
        ["| 2 | RFK Stadium | Washington |"],
    ),
]


@pytest.mark.parametrize(
    "delimiter, text, rows", DIALECTS, ids=["comma", "semicolon", "tab", "pipe"]
)
def test_each_dialect_is_split_on_its_delimiter(delimiter: str, text: str, rows: list[str]) -> None:
    assert sniff_delimiter(text)[0] == delimiter
    table = delimited_markdown(text)
    assert table.splitlines()[1].count("---") == 3
    for row in rows:
        assert row in table


def test_decimal_commas_in_a_semicolon_file_stay_in_their_cell() -> None:
    text = "Occupancy rate;Average Price\n0,634968923;104,6976059\n0,7;99,5\n"
    table = delimited_markdown(text)
    assert "| 0,634968923 | 104,6976059 |" in table


def test_quoted_cells_lose_their_quotes_and_keep_their_commas() -> None:
    text = '"id","amount"\n"1","80000000,00"\n"2","0,00"\n'
    assert sniff_delimiter(text) == (",", '"')
    table = delimited_markdown(text)
    assert "| 1 | 80000000,00 |" in table and '"' not in table


def test_a_trailing_delimiter_adds_no_empty_column() -> None:
    table = delimited_markdown("Zeit;Wasserstand;\n09.07.2013 12:00:00;1,2;\n10.07.2013;1,3;\n")
    assert table.splitlines()[0] == "| Zeit | Wasserstand |"


def test_one_column_is_one_column() -> None:
    table = delimited_markdown("word\nalpha\nbeta\n")
    assert table.splitlines() == ["| word |", "| --- |", "| alpha |", "| beta |"]


def test_a_pipe_inside_a_cell_is_escaped() -> None:
    assert "| a \\| b | c |" in delimited_markdown('x,y\n"a | b",c\n')


def test_a_tab_table_named_txt_is_read_as_a_table(tmp_path: Path) -> None:
    path = tmp_path / "assay.txt"
    path.write_text(
        '"Sample Name"\t"Protocol REF"\n"s1"\t"protein extraction"\n'
        '"s2"\t"labeling"\n"s3"\t"labeling"\n'
    )
    [item] = Reader().read(path)
    assert "| s1 | protein extraction |" in item.memory
    assert item.metadata.tags == ["csv"]


def test_prose_with_a_stray_tab_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Dear Ann,\n\tthe plums arrive Monday.\nThanks, Bo\nPS: bring boxes\n")
    [item] = Reader().read(path)
    assert item.metadata.tags == ["text"]


def test_a_database_exports_null_marker_is_an_empty_cell(corpus: Path) -> None:
    # frictionless-py's venue_pipe.csv, a Redshift/MySQL unload: "\N" where a venue has no
    # seat count
    items = Reader().read(corpus / "realworld/venue_pipe.csv")
    text = "\n".join(i.memory for i in items)
    assert "| 250 | Sahara Hotel | Las Vegas | NV |  |" in text
    assert "\\N" not in text
    # only a whole cell is the marker: a backslash-N inside a value stays
    assert "| C:\\New |" in delimited_markdown("path,n\nC:\\New,\\N\n")
