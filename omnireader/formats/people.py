"""Which document authors are people: a creator property often names a tool or a default.

Office, PDF and e-book properties carry an author, but writers fill it with whatever they
have: the library that made the file ("python-docx", "openpyxl"), the account's default
name ("Microsoft Office User", "Administrator", "user"), or the licensee company
("Acme Corp"). Those are not persons, and listing them makes every file of a tool look
written by one man. The rules are here, in one place, so every format uses the same ones.

    >>> people(["python-docx", "Ana Lima", "Administrator", "Ana Lima"])
    ['Ana Lima']

Only document properties go through these rules; an e-mail's sender is a person by what
the message says (its address can name a company domain without being a company).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["is_person", "people"]

# A whole property value that is an account's default name, a role or a placeholder
# (English and the localised defaults Windows and Office write).
_PLACEHOLDERS = frozenset(
    {
        "admin",
        "administrator",
        "administrador",
        "administrateur",
        "amministratore",
        "user",
        "users",
        "utilisateur",
        "benutzer",
        "usuario",
        "utente",
        "gebruiker",
        "owner",
        "author",
        "auteur",
        "autor",
        "unknown",
        "anonymous",
        "anon",
        "guest",
        "default",
        "standard",
        "test",
        "tester",
        "root",
        "system",
        "none",
        "null",
        "nil",
        "n/a",
        "na",
        "tbd",
        "customer",
        "client",
        "staff",
        "employee",
        "student",
        "home",
        "pc",
        "hp",
        "dell",
        "lenovo",
        "ibm",
        "asus",
        "acer",
        "me",
        "x",
        "xx",
        "xxx",
    }
)
# A placeholder with a number or separator after it: "User1", "admin_2", "Guest 3".
_NUMBERED = re.compile(
    r"^(?:user|admin|administrator|owner|guest|test|author|pc|client)[\s_.-]*\d*$"
)
# Words that make a name a program, a platform or an organisation rather than a person.
# They are matched as whole words, so "Wordsworth" or "Windsor" stay people.
_NOT_PERSON_WORDS = frozenset(
    {
        # document libraries and converters
        "python",
        "docx",
        "pptx",
        "xlsx",
        "xls",
        "doc",
        "pdf",
        "openpyxl",
        "xlsxwriter",
        "xlwt",
        "reportlab",
        "pandoc",
        "latex",
        "tex",
        "pdftex",
        "xetex",
        "luatex",
        "poi",
        "aspose",
        "docx4j",
        "itext",
        "itextsharp",
        "pdfsharp",
        "fpdf",
        "tcpdf",
        "mpdf",
        "ghostscript",
        "wkhtmltopdf",
        "weasyprint",
        "jasperreports",
        "phpword",
        "phpexcel",
        "phpspreadsheet",
        "phpoffice",
        "epplus",
        "npoi",
        "closedxml",
        "calibre",
        "sigil",
        "markdown",
        "generator",
        "converter",
        "software",
        "tool",
        "tools",
        "library",
        "script",
        "bot",
        "robot",
        "automation",
        "template",
        # office suites and platforms
        "microsoft",
        "office",
        "word",
        "excel",
        "powerpoint",
        "outlook",
        "libreoffice",
        "openoffice",
        "staroffice",
        "neooffice",
        "onlyoffice",
        "wps",
        "kingsoft",
        "calligra",
        "abiword",
        "gnumeric",
        "lotus",
        "zoho",
        "google",
        "docs",
        "sheets",
        "slides",
        "acrobat",
        "adobe",
        "distiller",
        "indesign",
        "illustrator",
        "photoshop",
        "quark",
        "apple",
        "keynote",
        "quartz",
        "macos",
        "windows",
        "linux",
        "chrome",
        "chromium",
        "mozilla",
        "firefox",
        "safari",
        "skia",
        # organisations
        "inc",
        "incorporated",
        "ltd",
        "llc",
        "llp",
        "gmbh",
        "ag",
        "kg",
        "sarl",
        "sas",
        "spa",
        "srl",
        "bv",
        "plc",
        "corp",
        "corporation",
        "company",
        "co",
        "limited",
        "group",
        "holding",
        "holdings",
        "department",
        "dept",
        "team",
        "university",
        "universidad",
        "universite",
        "universitat",
        "college",
        "institute",
        "institut",
        "council",
        "ministry",
        "agency",
        "association",
        "foundation",
        "services",
        "solutions",
        "systems",
        "technologies",
        "technology",
        "consulting",
        "labs",
        "laboratory",
        "enterprises",
        "international",
        "industries",
        "partners",
        "office365",
    }
)
_WORD = re.compile(r"[^\W_]+")
# A version number ("1.2.3", "v3") is a program's, never a person's.
_VERSION = re.compile(r"\d+\.\d+|\bv\d+\b", re.IGNORECASE)
_LONGEST = 80  # a longer value is a sentence or a list someone pasted, not one name


def is_person(name: str | None) -> bool:
    """Whether the author property ``name`` names a person (not a tool, default or company).

    >>> is_person("Shay Hill"), is_person("python-docx"), is_person("Microsoft Office User")
    (True, False, False)
    """
    if not name:
        return False
    text = " ".join(name.split())
    folded = text.casefold()
    if not text or len(text) > _LONGEST or folded in _PLACEHOLDERS:
        return False
    if _NUMBERED.match(folded) or _VERSION.search(text):
        return False
    words = _WORD.findall(folded)
    if not words or all(w.isdigit() for w in words):
        return False
    return not any(w in _NOT_PERSON_WORDS for w in words)


def people(names: Iterable[str | None]) -> list[str]:
    """The values of ``names`` that are persons, whitespace tidied, each once, in order."""
    out: dict[str, None] = {}
    for name in names:
        if name and is_person(name):
            out.setdefault(" ".join(name.split()), None)
    return list(out)
