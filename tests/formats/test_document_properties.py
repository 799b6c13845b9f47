"""A document's own properties: its date is the item's time (not the file's mtime), and its
authors are persons only when they are people. Files are built here with the libraries that
write them; the OLE summary test reads the shared real-world corpus when it is present."""

from __future__ import annotations

import io
import os
from datetime import datetime
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.office.properties import (
    core_info,
    iso_date,
    ole_info,
    package_info,
)
from omnireader.formats.people import is_person, people

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "realworld"
OLD = 946684800  # 2000-01-01: the mtime every file here is given, so a wrong source shows


def _aged(path: Path) -> Path:
    os.utime(path, (OLD, OLD))
    return path


@pytest.mark.parametrize(
    "name",
    [
        "Shay Hill",
        "Ana Lima",
        "O'Brien, Mary",
        "李小龙",
        "José García-Márquez",
        "jdoe",
        "Wordsworth",
        "Windsor Davies",
        "Dr. Ada Lovelace",
    ],
)
def test_people_are_persons(name: str) -> None:
    assert is_person(name)


@pytest.mark.parametrize(
    "name",
    [
        "python-docx",
        "openpyxl",
        "Microsoft Office User",
        "Administrator",
        "admin",
        "user",
        "User1",
        "Windows User",
        "Acme Corp",
        "Initech GmbH",
        "Apache POI",
        "LibreOffice 7.3",
        "Adobe Acrobat Pro DC",
        "Benutzer",
        "unknown",
        "",
        "   ",
        "12345",
        "Google Docs",
        "Example University",
        "ReportLab PDF Library - www.reportlab.com",
    ],
)
def test_tools_defaults_and_companies_are_not_persons(name: str) -> None:
    assert not is_person(name)


def test_people_keeps_order_and_drops_repeats() -> None:
    assert people(["Ana  Lima", None, "admin", "Ana Lima", "Bo Chen"]) == ["Ana Lima", "Bo Chen"]


def test_iso_date_reads_w3cdtf_and_drops_placeholder_dates() -> None:
    assert iso_date("2021-04-05T06:07:08Z") == "2021-04-05T06:07:08+00:00"
    assert iso_date("2019") == "2019-01-01T00:00:00+00:00"
    assert iso_date(datetime(1601, 1, 1)) is None  # FILETIME zero: no date at all
    assert iso_date("not a date") is None


def test_a_docx_is_dated_by_core_xml_and_python_docx_is_no_person(tmp_path: Path) -> None:
    import docx

    document = docx.Document()  # python-docx's template says creator "python-docx"
    document.add_paragraph("Minutes of the spring meeting.")
    document.core_properties.created = datetime(2021, 3, 4, 5, 6, 7)
    path = tmp_path / "minutes.docx"
    document.save(path)
    items = Reader().read(_aged(path))
    assert items and all(i.metadata.timestamp == "2021-03-04T05:06:07+00:00" for i in items)
    assert all(i.metadata.time_source is None for i in items)
    assert all("python-docx" not in i.metadata.persons for i in items)


def test_a_docx_author_who_is_a_person_is_kept(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Budget notes.")
    document.core_properties.author = "Ana Lima"
    document.core_properties.last_modified_by = "Microsoft Office User"
    path = tmp_path / "notes.docx"
    document.save(path)
    assert Reader().read(path)[0].metadata.persons == ["Ana Lima"]


def test_a_directory_qualifier_after_an_authors_name_is_no_part_of_it(corpus: Path) -> None:
    # markitdown's test.docx was last saved by "Yuzhong Zhang (SSE,123090848)"
    items = Reader().read(corpus / "markitdown/test.docx")
    assert items[0].metadata.persons == ["Adam Fourney", "Yuzhong Zhang"]


def test_a_department_or_staff_number_after_a_name_is_dropped(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Budget notes.")
    document.core_properties.author = "Ana Lima [EXT]"
    document.core_properties.last_modified_by = "Bo Chen (Finance, 40211)"
    path = tmp_path / "notes.docx"
    document.save(path)
    assert Reader().read(path)[0].metadata.persons == ["Ana Lima", "Bo Chen"]
    # a nickname inside the name stays; a qualifier alone names nobody
    assert people(["Robert (Bob) Smith", "(Contractor)"]) == ["Robert (Bob) Smith"]


def _set_modified(path: Path, when: str) -> None:
    import re
    import zipfile

    with zipfile.ZipFile(path) as src:
        members = [(i, src.read(i)) for i in src.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info, data in members:
            if info.filename == "docProps/core.xml":
                data = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                    rb"\g<1>" + when.encode() + rb"\g<2>",
                    data,
                )
            dst.writestr(info, data)


def test_an_xlsx_is_dated_by_its_properties_not_its_mtime(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Item", "Amount"])
    book.active.append(["Rent", 900])
    book.properties.creator = "Bo Chen"
    book.properties.created = datetime(2018, 7, 1, 12, 0)
    path = tmp_path / "budget.xlsx"
    book.save(path)
    # openpyxl stamps "modified" with the time it saves: put back the day it was written
    _set_modified(path, "2018-07-02T09:00:00Z")
    item = Reader().read(_aged(path))[0]
    assert item.metadata.timestamp == "2018-07-01T12:00:00+00:00"
    assert item.metadata.time_source is None
    assert item.metadata.persons == ["Bo Chen"]


def test_an_xlsx_without_a_created_date_falls_back_to_the_mtime(tmp_path: Path) -> None:
    import zipfile

    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["a", "b"])
    buf = io.BytesIO()
    book.save(buf)
    # Rewrite the package without docProps/core.xml: openpyxl itself would invent "now".
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.infolist():
            if member.filename != "docProps/core.xml":
                dst.writestr(member, src.read(member))
    assert package_info(out.getvalue()).created is None
    path = tmp_path / "plain.xlsx"
    path.write_bytes(out.getvalue())
    item = Reader().read(_aged(path))[0]
    assert item.metadata.time_source == "mtime"
    assert item.metadata.timestamp == "2000-01-01T00:00:00+00:00"


def test_an_odt_is_dated_by_meta_xml(tmp_path: Path) -> None:
    from odfdo import Document, Paragraph

    doc = Document("text")
    doc.body.append(Paragraph("Field notes from the river."))
    doc.meta.creation_date = datetime(2017, 5, 6, 7, 8, 9)
    doc.meta.initial_creator = "Ana Lima"
    doc.meta.creator = "LibreOffice"
    path = tmp_path / "notes.odt"
    doc.save(path)
    item = Reader().read(_aged(path))[0]
    assert item.metadata.timestamp == "2017-05-06T07:08:09+00:00"
    assert item.metadata.persons == ["Ana Lima"]


def test_core_info_keeps_a_tool_creator_as_a_fact_not_a_person() -> None:
    core = (
        b'<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
        b'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        b'xmlns:dcterms="http://purl.org/dc/terms/"><dc:creator>python-pptx</dc:creator>'
        b"<dc:language>fr-FR</dc:language><dcterms:modified>2022-02-02T02:02:02Z"
        b"</dcterms:modified></cp:coreProperties>"
    )
    info = core_info(core)
    assert info.authors == [] and info.extra["creator"] == "python-pptx"
    assert info.modified == "2022-02-02T02:02:02+00:00" and info.extra["language"] == "fr-FR"
    assert core_info(b"<broken").authors == []


def test_ole_summary_information_of_a_word_97_file() -> None:
    path = CORPUS / "testWORD.doc"
    if not path.is_file():
        pytest.skip("the shared real-world corpus is absent")
    info = ole_info(path.read_bytes())
    assert info.created is not None and info.created.startswith("20")
    assert info.authors  # Word 97 files name their author in SummaryInformation
    assert ole_info(b"not an OLE file").created is None


def test_an_xls_is_dated_by_its_summary_information() -> None:
    corpora = (CORPUS, CORPUS.parent / "markitdown")
    candidates = sorted(p for c in corpora if c.is_dir() for p in c.glob("*.xls"))
    dated = [p for p in candidates if ole_info(p.read_bytes()).created]
    if not dated:
        pytest.skip("no dated .xls in the shared corpora")
    item = Reader().read(dated[0])[0]
    assert item.metadata.time_source is None
    # created, or last saved when the creation date is a template's (years before)
    assert item.metadata.timestamp == ole_info(dated[0].read_bytes()).time


def test_an_rtf_is_dated_by_its_info_group(tmp_path: Path) -> None:
    path = tmp_path / "plan.rtf"
    path.write_bytes(
        rb"{\rtf1\ansi{\info{\title Plan}{\author Ana Lima}{\operator Administrator}"
        rb"{\creatim\yr2004\mo3\dy5\hr10\min30}{\revtim\yr2005\mo1\dy2}}"
        rb"Hello world\par}"
    )
    item = Reader().read(_aged(path))[0]
    assert item.metadata.timestamp == "2004-03-05T10:30:00+00:00"
    assert item.metadata.persons == ["Ana Lima"]


def test_a_converted_package_gets_the_originals_dates_when_the_converter_dropped_them() -> None:
    import zipfile

    from omnireader.formats.office.properties import with_ole_dates

    path = CORPUS / "testWORD.doc"
    if not path.is_file():
        pytest.skip("the shared real-world corpus is absent")
    import docx

    buf = io.BytesIO()
    docx.Document().save(buf)
    bare = io.BytesIO()  # a package as a converter might write it: no core.xml at all
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(bare, "w") as dst:
        for member in src.infolist():
            if member.filename != "docProps/core.xml":
                dst.writestr(member, src.read(member))
    patched = with_ole_dates(bare.getvalue(), path.read_bytes())
    info, original = package_info(patched), ole_info(path.read_bytes())
    assert info.created == original.created and info.title == original.title
    assert with_ole_dates(patched, path.read_bytes()) == patched  # nothing missing: as is


def _docx_dated(tmp_path: Path, author: str, created: datetime, modified: datetime) -> Path:
    import docx

    document = docx.Document()
    document.add_paragraph("Minutes of the 2019 planning meeting.")
    document.core_properties.author = author
    document.core_properties.created = created
    document.core_properties.modified = modified
    path = tmp_path / "minutes.docx"
    document.save(path)
    return _aged(path)


def test_a_document_saved_years_after_its_template_was_made_is_dated_by_the_save(
    tmp_path: Path,
) -> None:
    # made from a 2011 template, written and saved in 2019: the content is 2019's
    path = _docx_dated(tmp_path, "Ann Lee", datetime(2011, 2, 3), datetime(2019, 9, 10, 11))
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2019-09-10T11:00:00+00:00"


def test_a_document_edited_months_later_keeps_its_creation_date(tmp_path: Path) -> None:
    path = _docx_dated(tmp_path, "Ann Lee", datetime(2019, 2, 3), datetime(2019, 9, 10))
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2019-02-03T00:00:00+00:00"


def test_a_tool_made_template_dates_nothing_once_a_person_saves_it(tmp_path: Path) -> None:
    path = _docx_dated(tmp_path, "python-docx", datetime(2019, 2, 3), datetime(2019, 9, 10))
    [item] = Reader().read(path)
    assert item.metadata.timestamp == "2019-09-10T00:00:00+00:00"


def test_an_odt_made_from_an_old_template_is_dated_by_its_last_save(tmp_path: Path) -> None:
    from odfdo import Document, Paragraph

    doc = Document("text")
    doc.body.append(Paragraph("Field notes from the 2020 survey."))
    doc.meta.creation_date = datetime(2012, 5, 6, 7, 8, 9)
    doc.meta.date = datetime(2020, 8, 1, 12, 0, 0)
    doc.meta.initial_creator = "Ana Lima"
    path = tmp_path / "survey.odt"
    doc.save(path)
    [item] = Reader().read(_aged(path))
    assert item.metadata.timestamp == "2020-08-01T12:00:00+00:00"
