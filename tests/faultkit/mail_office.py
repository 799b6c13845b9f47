"""File cases for e-mail, RTF and OpenDocument: MIME bombs, hostile attachment names, an
RTF drowned in control words and an ODT bomb, each read in a folder next to the controls
(same frame and checks as :mod:`tests.faultkit.files`; they join its builders, so
``all-files-one-ingest`` reads them too)."""

from __future__ import annotations

from pathlib import Path

from tests.faultkit import fault_formats as gen
from tests.faultkit.fault_cases import Sizes

from .checks import Readable
from .files import Build, Spec, builder, run_folder
from .harness import Outcome, RunEnv, fault

__all__ = ["CASES"]

CASES: list[tuple[str, str, str, Build]] = []


def case(id: str, title: str, expected: str):  # noqa: ANN201 - a decorator
    def register(fn: Build) -> Build:
        CASES.append((id, title, expected, fn))
        return builder(id, title, expected)(fn)

    return register


@case(
    "mime-bomb",
    "e-mails with 5000 nested multiparts and with 100000 parts",
    "too_large ×2, refused before parsing",
)
def _mime_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    deep = gen.write_mime_bomb_nested(folder / "deep.eml", 5000)
    wide = gen.write_mime_bomb_wide(folder / "wide.eml", 100_000)
    return Spec(bad={deep: "too_large", wide: "too_large"})


CLIMBING = (
    "../../etc/omnireader-fault-mail.txt",
    "/tmp/omnireader-fault-mail-abs.txt",
    "..\\..\\omnireader-fault-mail-win.txt",
)


@case(
    "mail-climbing-attachment",
    "e-mails whose attachments are named ../../etc/x, /tmp/x, ..\\..\\x",
    "read under the name's last part; nothing written",
)
def _climbing(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    text = "Attached note: the cellar holds forty jars of plum jam.\n"
    twin = twins / "note.txt"
    twin.write_text(text)
    spec = Spec()
    for n, name in enumerate(CLIMBING):
        mail = gen.write_climbing_attachment(folder / f"climb{n}.eml", name, text)
        last = name.replace("\\", "/").rsplit("/", 1)[-1]
        spec.readable += [
            Readable(f"{mail}!attachment/{last}", twin=twin),
            Readable(mail, exact_items=1, contains=("The note is attached.",)),
        ]
    escaped = [
        Path("/etc/omnireader-fault-mail.txt"),
        Path("/tmp/omnireader-fault-mail-abs.txt"),
        folder.parent / "omnireader-fault-mail-win.txt",
        folder / "omnireader-fault-mail.txt",
    ]

    def nothing_written() -> list[str]:
        return [f"{p} was written" for p in escaped if p.exists()]

    spec.after = nothing_written
    return spec


@case(
    "mail-header-injection",
    "an attachment whose file name carries CR LF and a Bcc header",
    "read; the name stays one line, no header injected",
)
def _injection(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    text = "Attached notes: prune the quince trees in February.\n"
    twin = twins / "notes.txt"
    twin.write_text(text)
    mail = gen.write_injected_attachment_name(folder / "injected.eml", text)
    member = f"attachment/notes.txt {gen.INJECTED}"

    def not_injected() -> list[str]:
        from omnireader import Reader

        problems = []
        for item in Reader().read(mail):
            if "victim@attacker.example" in item.metadata.persons:
                problems.append(f"the injected address became a person of {item.id}")
            if any(c in (item.source.member or "") for c in "\r\n"):
                problems.append(f"a member name holds a line break: {item.source.member!r}")
            if "\nBcc:" in item.memory:
                problems.append("a Bcc header line appears in the message's text")
        return problems

    return Spec(
        readable=[
            Readable(f"{mail}!{member}", twin=twin),
            Readable(mail, exact_items=1, contains=("The notes are attached.",)),
        ],
        after=not_injected,
    )


@case(
    "rtf-control-words",
    "an RTF whose text is split by 8 MB of control words (1 MB in tests)",
    "read: the text on both sides, no control words",
)
def _rtf_run(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    size = min(sizes.one_line, 8 << 20)
    path = gen.write_rtf_control_run(
        folder / "formatting.rtf", size, "Before the run: apricots.", "After the run: medlars."
    )
    return Spec(
        readable=[
            Readable(
                path,
                exact_items=1,
                max_chars=200,
                absent=("\\b", "\\ul"),
                contains=("Before the run: apricots.", "After the run: medlars."),
            )
        ]
    )


@case("odt-bomb", "an ODT whose content.xml unpacks to 2 GiB (128 MiB in tests)", "too_large")
def _odt_bomb(folder: Path, twins: Path, sizes: Sizes) -> Spec:
    return Spec(bad={gen.write_odt_bomb(folder / "bomb.odt", sizes.docx_bomb): "too_large"})


def _register() -> None:
    for id, title, expected, build in CASES:

        def run(env: RunEnv, build: Build = build, id: str = id) -> Outcome:
            return run_folder(env, build, id)

        fault("files", id, title, expected)(run)


_register()
