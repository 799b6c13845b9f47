"""The string parser: chunks with provenance, stable ids, language and time helpers."""

from __future__ import annotations

import pytest

from omnireader.errors import EmptyInputError, FineModeUnavailableError
from omnireader.ids import content_hash
from omnireader.normalize import guess_lang, normalize_time
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.string import StringParser
from omnireader.payloads import TextInput
from omnireader.text.tokens import count_tokens

PARSER = StringParser()

LONG = "\n\n".join(
    f"Paragraph {n}. The expedition reached camp {n} after walking for {n + 3} hours. "
    f"Everyone agreed that the view over valley {n} was worth the climb, and they "
    f"planned to leave at dawn for ridge {n + 1}."
    for n in range(12)
)


def fast(text: str, **opts: int) -> list:
    ctx = ParseContext(user_id="u1", options=ReadOptions(**opts))
    return PARSER.parse_fast(TextInput(text=text), ctx)


def test_a_short_string_is_one_item_that_carries_the_whole_string() -> None:
    text = "  I prefer window seats on long flights.  "
    [item] = fast(text)
    src = item.source
    assert item.memory == text.strip()
    assert item.metadata.memory_type == "LongTermMemory"
    assert (src.kind, src.chunk_index, src.chunk_total) == ("string", 0, 1)
    assert (src.char_start, src.char_end) == (0, len(text))
    assert src.content == text and src.content_hash == content_hash(text)
    assert item.metadata.user_id == "u1"


def test_a_long_string_is_chunked_with_spans_that_point_back_into_it() -> None:
    items = fast(LONG, chunk_tokens=48)
    assert len(items) > 2
    assert [i.source.chunk_index for i in items] == list(range(len(items)))
    assert {i.source.chunk_total for i in items} == {len(items)}
    assert {i.source.content_hash for i in items} == {content_hash(LONG)}
    end = 0
    for item in items:
        src = item.source
        assert LONG[src.char_start : src.char_end] == src.content
        assert src.content.strip() == item.memory
        assert src.char_start >= end  # in order, no piece read twice
        end = src.char_end
        assert count_tokens(item.memory) <= 48
    assert "ridge 12" in items[-1].memory and "Paragraph 0." in items[0].memory


def test_ids_are_the_same_on_a_second_read_and_differ_between_chunks() -> None:
    first = [i.id for i in fast(LONG, chunk_tokens=48)]
    again = [i.id for i in fast(LONG, chunk_tokens=48)]
    assert first == again
    assert len(set(first)) == len(first)


def test_different_text_or_another_user_gets_different_ids() -> None:
    [a] = fast("I like tea.")
    [b] = fast("I like coffee.")
    [c] = PARSER.parse_fast(TextInput(text="I like tea."), ParseContext(user_id="u2"))
    assert len({a.id, b.id, c.id}) == 3


@pytest.mark.parametrize("text", ["", "   ", "\n\t \n"])
def test_an_empty_or_blank_string_is_a_typed_empty_error(text: str) -> None:
    with pytest.raises(EmptyInputError) as err:
        fast(text)
    assert err.value.code == "empty" and err.value.input_name == "<string>"


def test_rebuild_from_source_gives_back_the_input() -> None:
    text = "Meeting moved to Thursday 3pm."
    [item] = fast(text)
    assert PARSER.rebuild_from_source(item.source).text == text
    assert PARSER.rebuild_from_source(PARSER.create_source(TextInput(text=text))).text == text


def test_a_rebuilt_chunk_reads_back_to_the_same_item() -> None:
    items = fast(LONG, chunk_tokens=48)
    piece = PARSER.rebuild_from_source(items[1].source)
    assert piece.text == LONG[items[1].source.char_start : items[1].source.char_end]
    [again] = fast(piece.text, chunk_tokens=48)
    assert again.memory == items[1].memory


def test_fine_mode_without_an_llm_names_the_flag_to_pass() -> None:
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        PARSER.parse(TextInput(text="hello"), ParseContext(mode="fine"))


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("我们下周三在上海开会，讨论新产品的发布计划。", "zh"),
        ("我用 Python 写了一个脚本", "zh"),
        ("The meeting is next Wednesday in Shanghai.", "en"),
        ("Meet Li Wei (李伟) at the Shanghai office tomorrow morning.", "en"),
        ("1234 5678", "und"),
        ("La réunion est reportée à jeudi après-midi.", "fr"),
        ("東京で会議があります。", "ja"),
    ],
)
def test_language_is_chinese_only_when_han_characters_dominate(text: str, lang: str) -> None:
    assert guess_lang(text) == lang


def test_the_source_language_follows_the_text() -> None:
    [zh] = fast("我们下周三在上海开会。")
    [en] = fast("We meet next Wednesday.")
    assert (zh.source.lang, en.source.lang) == ("zh", "en")


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("2025-01-15T10:00:00", "2025-01-15T10:00:00"),
        ("2025-01-15 10:00", "2025-01-15T10:00:00"),
        ("2025-01-15T10:00:00Z", "2025-01-15T10:00:00+00:00"),
        ("2025-01-15T18:00:00+08:00", "2025-01-15T18:00:00+08:00"),
        ("2025/01/15 10:00", "2025-01-15T10:00:00"),
        (1736935200, "2025-01-15T10:00:00+00:00"),
        ("1736935200", "2025-01-15T10:00:00+00:00"),
        ("1736935200000", "2025-01-15T10:00:00+00:00"),
    ],
)
def test_message_times_are_normalised_to_iso_8601(raw: str | int, iso: str) -> None:
    assert normalize_time(raw) == iso


@pytest.mark.parametrize("raw", [None, "", "yesterday", "15th of Jan", "2025-13-45"])
def test_times_that_do_not_parse_give_none(raw: str | None) -> None:
    assert normalize_time(raw) is None


def test_a_string_routes_to_the_string_parser() -> None:
    import omnireader.intake.router as router

    [task] = router.route("Remember: the wifi password is on the fridge.")
    assert task.parser == "string"
    [item] = PARSER.parse_fast(task.payload, ParseContext())
    assert item.memory == "Remember: the wifi password is on the fridge."
