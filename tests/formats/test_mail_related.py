"""An HTML mail's ``multipart/related`` resources: what the page shows inline (a logo, a
spacer, a saved page's seal) is its furniture and is not read as an attachment; what the
sender attached, or an image the page never shows, is.

Messages are built with the standard library's ``email`` package; the saved web page
and the GIF attachment are files of the real-world corpus.
"""

from __future__ import annotations

import io
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from PIL import Image

from omnireader import Reader


def png(colour: str, size: tuple[int, int] = (32, 32)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, "PNG")
    return buf.getvalue()


def picture(
    msg: EmailMessage,
    cid: str,
    filename: str,
    colour: str,
    size: tuple[int, int] = (32, 32),
    disposition: str = "inline",
) -> None:
    """A PNG in the message's multipart/related part, named by ``cid``."""
    msg.add_related(
        png(colour, size),
        "image",
        "png",
        cid=f"<{cid}>",
        filename=filename,
        disposition=disposition,
    )


def html_mail(markup: str) -> EmailMessage:
    msg = EmailMessage(policy=SMTP)
    msg["Subject"] = "Spring newsletter"
    msg["From"] = "News <news@example.org>"
    msg["To"] = "ann@example.org"
    msg.set_content(markup, subtype="html")
    return msg


def members(path: Path) -> set[str | None]:
    return {i.source.member for i in Reader().read(path)}


def test_an_image_the_html_shows_by_cid_is_not_an_attachment(tmp_path: Path) -> None:
    msg = html_mail('<p>Our spring plans.</p><img src="cid:logo@example.org">')
    picture(msg, "logo@example.org", "logo.png", "red")
    path = tmp_path / "news.eml"
    path.write_bytes(msg.as_bytes())
    assert members(path) == {None}  # the message's own text, and no logo item


def test_an_image_the_html_does_not_show_stays_an_attachment(tmp_path: Path) -> None:
    msg = html_mail('<p>Our spring plans.</p><img src="cid:logo@example.org">')
    picture(msg, "logo@example.org", "logo.png", "red")
    picture(msg, "chart@example.org", "chart.png", "blue")
    path = tmp_path / "news.eml"
    path.write_bytes(msg.as_bytes())
    assert members(path) == {None, "attachment/chart.png"}


def test_an_image_sent_as_an_attachment_stays_one_even_when_the_html_shows_it(
    tmp_path: Path,
) -> None:
    msg = html_mail('<p>The floor plan:</p><img src="cid:plan@example.org">')
    picture(msg, "plan@example.org", "plan.png", "green", disposition="attachment")
    path = tmp_path / "plan.eml"
    path.write_bytes(msg.as_bytes())
    assert members(path) == {None, "attachment/plan.png"}


def test_a_saved_page_names_its_images_by_content_location_relative_to_its_base(
    tmp_path: Path,
) -> None:
    msg = html_mail('<p>Permits.</p><img src="images/seal.png">')
    msg.replace_header("Subject", "Air Permit Programs")
    msg["Content-Location"] = "http://www.example.gov/air/permits.html"
    msg.add_related(png("gray"), "image", "png", disposition="inline")
    [seal] = [p for p in msg.iter_parts() if p.get_content_type() == "image/png"]
    seal["Content-Location"] = "http://www.example.gov/air/images/seal.png"
    path = tmp_path / "page.mht"
    path.write_bytes(msg.as_bytes())
    assert members(path) == {None}


def test_the_corpus_saved_page_has_no_item_for_its_seal_and_a_sent_gif_keeps_its_own(
    corpus: Path,
) -> None:
    folder = corpus / "realworld"
    page = Reader().read(folder / "testRFC822_oddfrom")
    assert {i.source.member for i in page} == {None}  # was also attachment/part-1: "PR ELUISSGIN.S"
    assert not any(i.source.kind == "image" for i in page)
    sent = Reader().read(
        folder / "testRFC822-multipart"
    )  # logo.gif: Content-Disposition attachment
    assert {i.source.member for i in sent} == {None, "attachment/logo.gif"}


def test_the_images_left_unread_are_named_on_the_message(tmp_path: Path) -> None:
    msg = html_mail('<p>Our spring plans.</p><img src="cid:logo@example.org">')
    picture(msg, "logo@example.org", "logo.png", "red")
    path = tmp_path / "news.eml"
    path.write_bytes(msg.as_bytes())
    [item] = Reader().read(path)
    assert item.metadata.extra["inline_images"] == ["logo.png"]


def test_a_screenshot_pasted_into_the_text_is_read_though_the_html_shows_it(
    tmp_path: Path,
) -> None:
    # A logo and a pasted screenshot, both shown by cid: the screenshot's size says it is
    # what the message shows.
    msg = html_mail(
        '<p>The error:</p><img src="cid:shot@example.org"><img src="cid:logo@example.org">'
    )
    picture(msg, "shot@example.org", "screenshot.png", "white", size=(800, 500))
    picture(msg, "logo@example.org", "logo.png", "red", size=(120, 40))
    path = tmp_path / "error.eml"
    path.write_bytes(msg.as_bytes())
    assert members(path) == {None, "attachment/screenshot.png"}
