"""The offline language identifier: accuracy on short samples in ten languages, declared
languages winning, and the language reaching each item's source through the real reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown
from omnireader.text.language import UNDETERMINED, detect_language, guess_language, language_tag
from tests.support.language_samples import SAMPLES


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_short_samples_are_identified(lang: str) -> None:
    got = [detect_language(s) for s in SAMPLES[lang]]
    right = sum(1 for g in got if g == lang)
    # At most one miss a language (a kanji-only Japanese title reads as Chinese).
    assert right >= len(got) - 1, list(zip(SAMPLES[lang], got))


def test_overall_accuracy_on_the_samples_is_at_least_95_percent() -> None:
    pairs = [(lang, s) for lang, samples in SAMPLES.items() for s in samples]
    right = sum(1 for lang, s in pairs if detect_language(s) == lang)
    assert right >= 0.95 * len(pairs), right


@pytest.mark.parametrize("text", ["", "12 345,00 €", "-- ** --", "Hello", "Lisbon Oslo"])
def test_text_too_short_or_without_words_is_undetermined(text: str) -> None:
    assert detect_language(text) == UNDETERMINED


@pytest.mark.parametrize(
    "tag,base",
    [
        ("fr-CA", "fr"),
        ("EN_us", "en"),
        ("zh-Hant-TW", "zh"),
        ("yue", "zh"),
        ("x-default", None),
        ("und", None),
        ("", None),
        ("not a tag", None),
    ],
)
def test_language_tags_give_their_primary_language(tag: str, base: str | None) -> None:
    assert language_tag(tag) == base


def test_a_declared_language_wins() -> None:
    assert detect_language("The meeting is moved to Thursday afternoon.", "de-AT") == "de"
    assert detect_language("The meeting is moved to Thursday afternoon.", "x-default") == "en"


def test_an_html_page_reports_the_language_it_declares() -> None:
    assert html_markdown('<html lang="fr-CA"><body><p>Hi</p></body></html>').lang == "fr-CA"
    assert (
        html_markdown(
            '<html><head><meta http-equiv="Content-Language" content="es">'
            "</head><body><p>Hola</p></body></html>"
        ).lang
        == "es"
    )
    assert html_markdown("<p>No declaration</p>").lang is None


def test_items_carry_the_language_of_their_text(tmp_path: Path) -> None:
    for lang in ("de", "ru", "ko", "he"):
        path = tmp_path / f"{lang}.txt"
        path.write_text(" ".join(SAMPLES[lang]), encoding="utf-8")
        [item] = Reader().read_report(path).items
        assert [s.lang for s in item.metadata.sources] == [lang]


def test_a_mail_content_language_header_wins_over_the_guess(tmp_path: Path) -> None:
    path = tmp_path / "note.eml"
    path.write_bytes(
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: Hallo\r\n"
        b"Content-Language: de-DE\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Okay, see you at the station then, with the tickets.\r\n"
    )
    [item] = Reader().read_report(path).items
    assert item.metadata.sources[0].lang == "de"


def test_the_model_is_unpacked_once_into_the_cache_and_mapped_from_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    from omnireader.text.language_model import load_identifier

    monkeypatch.setenv("OMNIREADER_CACHE_DIR", str(tmp_path / "cache"))
    first = load_identifier()
    [folder] = (tmp_path / "cache").iterdir()
    assert folder.name.startswith("py3langid-") and (folder / "classes.json").is_file()
    stamp = (folder / "ptc.npy").stat().st_mtime_ns
    again = load_identifier()
    assert (folder / "ptc.npy").stat().st_mtime_ns == stamp  # mapped, not unpacked again
    reference = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    for lang in ("fr", "ru", "ar"):
        for text in SAMPLES[lang][:2]:
            want = reference.classify(text)
            assert first.classify(text)[0] == again.classify(text)[0] == want[0]
            assert abs(again.classify(text)[1] - want[1]) < 1e-6


def test_an_unwritable_cache_falls_back_to_unpacking_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omnireader.text.language_model import load_identifier

    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("OMNIREADER_CACHE_DIR", str(blocked / "cache"))
    assert load_identifier().classify(SAMPLES["de"][0])[0] == "de"


@pytest.mark.parametrize(
    "text,lang",
    [
        ("Die Besprechung wird auf Donnerstagnachmittag verschoben.", "de"),
        ("Het is mooi weer vandaag, we gaan naar het strand.", "nl"),
        ("Nous partons demain matin pour Lyon avec les enfants.", "fr"),
        ("We meet next Wednesday with them.", "en"),
    ],
)
def test_plain_ascii_sentences_are_not_taken_for_english(text: str, lang: str) -> None:
    # Accents dropped (or none needed): the English shortcut must not catch these.
    assert detect_language(text) == lang


MIXED = (
    "Source: Q2 Tel. https://t.me/boris_rozhin Telegram Board Montant Ltd Oxford Summe pp. "
    "33-41 Figure www.bbc.co.uk/news Annex University Committee Report et al. Betrag Q1 Summe "
    "Annex pp. 33-41 Press Datum Press Adresse No. 2 USD Ltd Nom [12] +44 20 7946 0958"
)


def test_a_rare_language_needs_strong_evidence() -> None:
    from omnireader.text.language import guess_language

    # the model's best reading of this jumble of names, links and figures is Luxembourgish
    assert detect_language(MIXED) != "lb"
    assert not guess_language(MIXED).sure
    # real sentences in rarely met languages are still told
    assert (
        detect_language("Dëst ass e klengen Text op Lëtzebuergesch, fir ze kucken ob et geet.")
        == "lb"
    )
    assert (
        detect_language(
            "Wetin dey happen for dis side? Make una no vex, we go reach there soon soon."
        )
        == "pcm"
    )


@pytest.mark.parametrize(
    "text",
    [
        "https://example.org/a https://example.org/b www.example.com/c info@example.com",
        "Page 4 | Annual Report 2021 | ACME Corp. | www.acme-corp.com",
        "| 2021 | 12.3 | 4.5 |\n| 2022 | 13.1 | 4.9 |",
        "Hello there",
    ],
)
def test_short_or_symbol_heavy_text_is_not_a_sure_guess(text: str) -> None:
    from omnireader.text.language import guess_language

    assert not guess_language(text).sure


def test_plain_prose_is_a_sure_guess() -> None:
    from omnireader.text.language import guess_language

    assert guess_language("The committee met on Monday and agreed to the new budget.").sure
    assert guess_language("La réunion est reportée à jeudi après-midi, salle trois.") == (
        "fr",
        True,
    )


def _docx(path: Path, blocks: list[tuple[str, str]]) -> Path:
    import docx

    document = docx.Document()
    for heading, body in blocks:
        document.add_heading(heading, level=1)
        for line in body.split("\n"):
            document.add_paragraph(line)
    document.save(path)
    return path


def test_a_pictures_alt_text_does_not_decide_the_language() -> None:
    # Word writes generated alt text in its user's language ("graphical user interface,
    # text, application; AI-generated content may be incorrect"), not the document's.
    alt = "[image: 图形用户界面, 文本, 应用程序, 信件 AI 生成的内容可能不正确。]"
    assert detect_language(f"| 1 | 2 | 3 |\n| --- | --- | --- |\n\n{alt}") == UNDETERMINED
    text = f"The committee met on Monday and agreed to the new budget. {alt}"
    assert detect_language(text) == "en"
    assert detect_language(alt) == "zh"  # a picture alone: its alt text is all there is


def test_references_and_links_take_the_documents_language(tmp_path: Path) -> None:
    prose = (
        "The harbour authority expects the new berths to open next spring, and the works "
        "have kept to the budget the board approved in March."
    )
    path = _docx(
        tmp_path / "report.docx",
        [
            ("Summary", prose),
            ("References", MIXED),
            ("Links", "https://t.me/boris_rozhin\nhttps://t.me/rybar\nwww.bbc.co.uk/news"),
            ("Outlook", prose),
        ],
    )
    items = Reader().read(path)
    assert len(items) >= 4
    assert {i.metadata.sources[0].lang for i in items} == {"en"}


def test_a_table_of_figures_in_a_french_report_is_french(tmp_path: Path) -> None:
    prose = (
        "Le conseil a approuvé le budget de l'année prochaine, et les travaux du port "
        "avancent comme prévu depuis le mois de mars."
    )
    path = _docx(
        tmp_path / "rapport.docx",
        [("Résumé", prose), ("Chiffres", "Q1 12,3 M EUR\nQ2 13,1 M EUR"), ("Suite", prose)],
    )
    langs = [i.metadata.sources[0].lang for i in Reader().read(path)]
    assert langs and set(langs) == {"fr"}


def test_a_text_that_opens_with_a_table_is_read_by_its_sentences() -> None:
    # The model reads a text's opening; here that is a table of figures, and the
    # sentences under it are what says the language.
    rows = "".join(f"| R{n} | {n * 3},5 | {n * 4},1 |\n" for n in range(1, 15))
    text = (
        f"Rapport 2023\n\n| Zone | 2022 | 2023 |\n| --- | --- | --- |\n{rows}\n"
        "Les ventes ont progressé dans toutes les régions grâce à une demande soutenue et "
        "à la baisse des coûts de transport.\nNous prévoyons une croissance plus modérée "
        "l'année prochaine, car les marchés restent incertains.\n"
    )
    assert guess_language(text) == ("fr", True)
    # A table alone still says nothing.
    assert guess_language(f"| Zone | 2022 | 2023 |\n| --- | --- | --- |\n{rows}").lang == "und"
