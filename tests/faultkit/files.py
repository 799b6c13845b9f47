"""File cases: broken, disguised and hostile files, each read in a folder next to controls.

Every case writes its bad file(s) and three ordinary control files into one folder and
reads the folder as users do (``ingest`` into a store, or ``Reader().read_report(folder)``).
The bad inputs must be reported under their error code; the controls and every readable
input must give all their items, holding their text; no item may hold error text.

Adding a file case is one function here (other engineers' formats drop in the same way)::

    @builder("eml-bomb", "an e-mail whose attachment unpacks to 3 GiB", "too_large")
    def _eml_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
        path = gen.write_eml_bomb(folder / "bomb.eml", sizes.zip_bomb)  # in fault_cases.py
        return Spec(bad={path: "too_large"})

The builder writes its inputs into ``folder`` (the controls are added for it) and says what
they must give: ``bad`` maps each bad input (a path, or ``"file!member"``) to its error
code; ``readable`` lists what must be read (:class:`~.checks.Readable`: a twin to compare
with, words it must hold, an exact item count, flags…); ``options`` are Reader options;
``after`` runs extra checks. A case that needs ``../shared`` calls ``need_shared``; it is
the only reason a case may skip. The case is then in ``python3 dev.py faults``, in
``tests/faults/test_files.py`` and in ``all-files-one-ingest``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.faultkit import fault_cases as gen
from tests.faultkit.fault_cases import Sizes

from .checks import Readable, check_batch, control_readables
from .harness import Outcome, RunEnv, fault, need_shared
from .reading import read_batch

__all__ = ["Spec", "BUILDERS", "CORPUS"]

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
USER_PASSWORD = "asdfzxcv"  # the user password of ../shared/corpus/pypdf/encryption


@dataclass
class Spec:
    """What a folder of inputs should give."""

    bad: dict[Path | str, str] = field(default_factory=dict)  # input -> error code
    readable: list[Readable] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # Reader options for this case
    after: Callable[[], list[str]] | None = None  # extra checks once read (problems)


Build = Callable[[Path, Path, Sizes], Spec]  # (folder, twins folder, sizes) -> Spec


@dataclass(frozen=True)
class Builder:
    id: str
    title: str
    expected: str
    build: Build


BUILDERS: list[Builder] = []


def builder(id: str, title: str, expected: str) -> Callable[[Build], Build]:
    """Register a file case: ``fn(folder, twins, sizes)`` writes its inputs, says what
    they should give."""

    def register(fn: Build) -> Build:
        BUILDERS.append(Builder(id, title, expected, fn))
        return fn

    return register


def run_folder(env: RunEnv, build: Build, name: str) -> Outcome:
    """Build one case's folder next to the controls, read it, check it."""
    folder, twins = env.folder(name), env.folder(f"{name}-twins")
    controls = gen.write_controls(folder)
    spec = build(folder, twins, env.sizes)
    spec.readable += control_readables(controls)
    batch = read_batch(env, folder, options=spec.options)
    out = check_batch(batch, bad=spec.bad, readable=spec.readable, options=spec.options)
    if spec.after is not None:
        out.problems.extend(spec.after())
    return out


# ----------------------------------------------------------------------------- cases


@builder("zero-byte", "a zero-byte file", "empty")
def _zero(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    (folder / "nothing.txt").write_bytes(b"")
    return Spec(bad={folder / "nothing.txt": "empty"})


@builder("truncated-pdf", "a PDF cut off at 40 % of its bytes", "corrupt")
def _truncated(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_truncated_pdf(folder / "truncated.pdf"): "corrupt"})


@builder(
    "broken-xref-pdf",
    "a PDF whose xref table points to the wrong offsets",
    "read: xref rebuilt, same text as intact",
)
def _xref(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    broken = gen.write_broken_xref_pdf(folder / "broken_xref.pdf")
    intact = twins / "intact.pdf"
    gen.write_text_pdf(intact, gen.pdf_pages_text(3), title="Fault report")
    return Spec(readable=[Readable(broken, twin=intact, contains=("Marker page-3-end",))])


def _encryption() -> Path:
    folder = CORPUS / "pypdf" / "encryption"
    need_shared(folder / "unencrypted.pdf", "the encrypted PDFs of pypdf's tests")
    return folder


@builder(
    "encrypted-pdf-no-password",
    "encrypted PDFs (RC4, AES-128, AES-256), no password",
    "encrypted; the empty-password one read",
)
def _locked(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    src = _encryption()
    spec = Spec()
    for name in ("r4-user-password.pdf", "r4-aes-user-password.pdf", "r6-user-password.pdf"):
        spec.bad[Path(shutil.copy(src / name, folder / name))] = "encrypted"
    opens = Path(shutil.copy(src / "r2-empty-password.pdf", folder / "r2-empty-password.pdf"))
    spec.readable.append(Readable(opens, twin=src / "unencrypted.pdf"))
    return spec


@builder(
    "encrypted-pdf-with-password",
    "the same PDFs with the password for the batch",
    "read, same text as unencrypted; wrong one: encrypted",
)
def _unlocked(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    src = _encryption()
    spec = Spec(options={"password": USER_PASSWORD})
    for name in (
        "r4-user-password.pdf",
        "r4-aes-user-password.pdf",
        "r6-user-password.pdf",
        "r2-empty-password.pdf",
    ):
        copy = Path(shutil.copy(src / name, folder / name))
        spec.readable.append(Readable(copy, twin=src / "unencrypted.pdf"))
    # Its user password is "foo": the batch's password is wrong for it.
    spec.bad[Path(shutil.copy(src / "r6-both-passwords.pdf", folder / "other-password.pdf"))] = (
        "encrypted"
    )
    return spec


@builder("pdf-600-pages", "a PDF of 650 pages (120 in tests)", "read: one item per page")
def _long_pdf(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    path = folder / "long.pdf"
    gen.write_text_pdf(path, gen.pdf_pages_text(sizes.pdf_pages), title="Long report")
    last = f"Marker page-{sizes.pdf_pages}-end"
    return Spec(
        readable=[Readable(path, exact_items=sizes.pdf_pages, contains=("Marker page-1-end", last))]
    )


@builder(
    "image-only-pdf",
    "a 2-page PDF of images, no text layer",
    "needs_ocr (its pages reported, no placeholder item)",
)
def _scan(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    path = gen.write_image_only_pdf(folder / "scan.pdf", pages=2)
    return Spec(bad={path: "needs_ocr"})


@builder(
    "wrong-extension",
    "a DOCX named .pdf, a PDF named .txt, text named .png",
    "read by content, same text as correctly named",
)
def _disguised(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    paragraphs = ["Quarterly plan for the orchard.", "Plant 40 plum trees in March."]
    docx_twin = gen.write_docx(twins / "plan.docx", paragraphs)
    shutil.copy(docx_twin, folder / "plan.pdf")
    pdf_twin = twins / "report.pdf"
    gen.write_text_pdf(pdf_twin, gen.pdf_pages_text(2))
    shutil.copy(pdf_twin, folder / "report.txt")
    text_twin = twins / "notes.txt"
    text_twin.write_text("Notes: the greenhouse needs a new door.\n")
    shutil.copy(text_twin, folder / "notes.png")
    return Spec(
        readable=[
            Readable(folder / "plan.pdf", twin=docx_twin),
            Readable(folder / "report.txt", twin=pdf_twin),
            Readable(folder / "notes.png", twin=text_twin),
        ]
    )


@builder("zip-bomb", "a ZIP of 3 MB that unpacks to 3 GiB (256 MiB in tests)", "too_large")
def _zip_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_zip_bomb(folder / "bomb.zip", sizes.zip_bomb): "too_large"})


@builder("docx-bomb", "a DOCX whose document.xml unpacks to 2 GiB (128 MiB in tests)", "too_large")
def _docx_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_docx_bomb(folder / "bomb.docx", sizes.docx_bomb): "too_large"})


@builder(
    "zip-climbing-names",
    "a ZIP with members ../../etc/x, /tmp/x, docs/../../../x",
    "corrupt ×3, nothing written; the good member read",
)
def _climbing(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    text = "Readme: the climbing archive also holds this harmless note about figs.\n"
    archive = gen.write_climbing_zip(folder / "climb.zip", text)
    twin = twins / "readme.txt"
    twin.write_text(text)
    escaped = [
        Path("/etc/omnireader-fault-x"),
        Path("/tmp/omnireader-fault-abs"),
        folder.parent / "escape.txt",
        folder / "escape.txt",
    ]

    def nothing_written() -> list[str]:
        return [f"{p} was written" for p in escaped if p.exists()]

    return Spec(
        bad={
            f"{archive}!{name}": "corrupt"
            for name in (
                "../../etc/omnireader-fault-x",
                "/tmp/omnireader-fault-abs",
                "docs/../../../escape.txt",
            )
        },
        readable=[Readable(f"{archive}!docs/readme.txt", twin=twin)],
        after=nothing_written,
    )


@builder("png-bomb", "a 3 MB PNG of 60000 × 60000 pixels (20000² in tests)", "too_large")
def _png_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_png_bomb(folder / "bomb.png", sizes.png_side): "too_large"})


@builder(
    "invalid-utf8",
    "UTF-8 text with bytes valid in no encoding (0xFF 0xFE 0xC0)",
    "read: the valid text intact",
)
def _invalid_utf8(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    path = gen.write_invalid_utf8_text(folder / "stray_bytes.txt")
    words = ("café", "Straße", "Köln", "東京の会議")
    return Spec(readable=[Readable(path, contains=words)])


@builder(
    "mixed-encoding-csv", "a CSV with UTF-8 rows and a Windows-1252 row", "read: every row readable"
)
def _mixed_csv(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    path = gen.write_mixed_encoding_csv(folder / "people.csv")
    words = ("José", "São Paulo", "Zoë", "Köln", "Grüße", "田中", "東京", "Montréal", "déjà vu")
    return Spec(readable=[Readable(path, contains=words)])


@builder(
    "one-line-text",
    "a 50 MB text file on one line (1 MB in tests)",
    "read: chunks cover the whole line",
)
def _one_line(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    path = gen.write_one_line_text(folder / "one_line.txt", sizes.one_line)
    line = 'alpha, bravo; charlie (delta) echo-foxtrot 12.5% golf "hotel" india/juliet'
    return Spec(readable=[Readable(path, min_items=2, contains=(line,), covers=sizes.one_line)])


@builder("deep-json", "JSON nested 100000 levels deep", "too_large")
def _deep_json(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_nested_json(folder / "deep.json", sizes.json_depth): "too_large"})


@builder(
    "billion-laughs",
    "XML and RSS with entity expansion (10^9 'lol's)",
    "read: entities left unexpanded",
)
def _laughs(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    xml = gen.write_billion_laughs(folder / "laughs.xml")
    rss = gen.write_billion_laughs(folder / "laughs.rss", root="rss")
    keep = dict(absent=("lollol",), max_chars=2000)
    return Spec(
        readable=[
            Readable(xml, contains=("Laughs",), **keep),
            Readable(rss, contains=("Laughs",), **keep),
        ]
    )


@builder(
    "link-maze",
    "a folder with link loops, a dangling link, a link to its parent, a chmod 000 file",
    "loops/dangling: unreadable; every file read once",
)
def _maze(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    paths = gen.write_link_maze(folder / "maze", "The maze holds one real note about dates.\n")
    spec = Spec(readable=[Readable(paths["readable"], exact_items=1, contains=("dates",))])
    for role in ("loop_a", "loop_b", "self", "dangling"):
        spec.bad[paths[role]] = "unreadable"
    if _can_read(paths["locked"]):  # root: permissions do not apply, so it is read
        spec.readable.append(Readable(paths["locked"], exact_items=1, contains=("apricots",)))
    else:
        spec.bad[paths["locked"]] = "unreadable"
    return spec


@builder(
    "special-files",
    "a named pipe (FIFO) with no writer and a Unix socket in the folder",
    "unsupported ×2, never opened; the rest read",
)
def _special(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    import socket

    pipe = folder / "pipe"
    os.mkfifo(pipe)  # opening it to read would block for ever: it must never be opened
    sock_path = folder / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
    return Spec(bad={pipe: "unsupported", sock_path: "unsupported"})


def _can_read(path: Path) -> bool:
    try:
        with path.open("rb"):
            return True
    except PermissionError:
        return False


def _register() -> None:
    for b in BUILDERS:

        def run(env: RunEnv, b: Builder = b) -> Outcome:
            return run_folder(env, b.build, b.id)

        fault("files", b.id, b.title, b.expected)(run)


_register()
