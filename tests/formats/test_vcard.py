"""vCard files: one readable card per contact, never raw content lines or base64 photos."""

from __future__ import annotations

import base64
from pathlib import Path

from omnireader import Reader
from omnireader.formats.sniff import sniff

PHOTO = base64.b64encode(bytes(range(256)) * 40).decode()  # 10 KB of "JPEG"


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
    return path


def test_a_vcard_2_1_from_a_phone_is_decoded_and_unfolded(tmp_path: Path) -> None:
    # Quoted-printable UTF-8, a soft line break, bare 2.1 parameters (TEL;CELL), and a photo
    # whose base64 runs on unindented lines up to a blank line.
    photo_lines = "\n".join(PHOTO[i : i + 76] for i in range(0, len(PHOTO), 76))
    path = write(
        tmp_path,
        "contact.vcf",
        (
            "BEGIN:VCARD\nVERSION:2.1\n"
            "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;\n"
            "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller\n"
            "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Met at the caf=C3=A9 in K=C3=B6ln, likes=\n"
            " jazz\n"
            "TEL;CELL;VOICE:+49 170 1234567\n"
            "TEL;WORK:+49 221 555\n"
            f"PHOTO;ENCODING=BASE64;TYPE=JPEG:\n{photo_lines}\n\n"
            "END:VCARD\n"
        ),
    )
    [item] = Reader().read(path)
    assert item.memory == (
        "Name: Jürgen Müller\n"
        "Phone (cell): +49 170 1234567\n"
        "Phone (work): +49 221 555\n"
        "Note: Met at the café in Köln, likes jazz\n"
        "Photo: embedded JPEG photo (10.0 KB, not shown)"
    )
    assert item.metadata.key == "Jürgen Müller"
    assert item.metadata.tags == ["vcard"] and item.source.mime == "text/vcard"


def test_each_contact_of_an_address_book_is_its_own_item(tmp_path: Path) -> None:
    # vCard 3.0 as Apple writes it (item groups with labels, folded lines, escapes) next
    # to a vCard 4.0 one (a data: URI photo, tel: URIs, RFC 6868 ^n in a parameter).
    path = write(
        tmp_path,
        "contacts.vcf",
        (
            "BEGIN:VCARD\nVERSION:3.0\nPRODID:-//Apple Inc.//iPhone OS 17.0//EN\n"
            "N:Lee;Ann;;Dr.;\nFN:Dr. Ann Lee\nORG:Orchard Co\\, Ltd.;Harvest\nTITLE:Head grower\n"
            "EMAIL;type=INTERNET;type=WORK;type=pref:ann@orchard.example\n"
            "item1.EMAIL;type=INTERNET:ann.gym@example.org\nitem1.X-ABLabel:Gym\n"
            "item2.TEL:+1 555 0100\nitem2.X-ABLabel:_$!<Mobile>!$_\n"
            "ADR;type=HOME:;;1 Plum Lane;Springfield;IL;62701;USA\n"
            "NOTE:Prefers calls before 10\\; never on Sundays.\\nAllergic to be\n"
            " es.\nBDAY:19800412\nCATEGORIES:friends,orchard\n"
            "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;junk\n"
            f"PHOTO;ENCODING=b;TYPE=JPEG:{PHOTO[:200]}\n {PHOTO[200:400]}\n"
            "END:VCARD\n"
            'BEGIN:VCARD\nVERSION:4.0\nFN:Bo Chen\nTEL;VALUE=uri;TYPE="home,voice":tel:+1-555-0199\n'
            'ADR;LABEL="12 Main St^nSpringfield";TYPE=work:;;12 Main St;Springfield;;;\n'
            f"PHOTO:data:image/png;base64,{PHOTO[:400]}\nEND:VCARD\n"
        ),
    )
    ann, bo = Reader().read(path)
    assert ann.memory == (
        "Name: Dr. Ann Lee\n"
        "Phone (mobile): +1 555 0100\n"
        "Email (work): ann@orchard.example\n"
        "Email (gym): ann.gym@example.org\n"
        "Organization: Orchard Co, Ltd., Harvest\n"
        "Title: Head grower\n"
        "Address (home): 1 Plum Lane, 62701 Springfield, IL, USA\n"
        "Birthday: 1980-04-12\n"
        "Categories: friends, orchard\n"
        "Note: Prefers calls before 10; never on Sundays.\nAllergic to bees.\n"
        "Photo: embedded JPEG photo (300 bytes, not shown)"
    )
    assert bo.memory == (
        "Name: Bo Chen\nPhone (home): +1-555-0199\n"
        "Address (work): 12 Main St, Springfield\n"
        "Photo: embedded PNG photo (300 bytes, not shown)"
    )
    assert [i.metadata.extra["heading"] for i in (ann, bo)] == ["Dr. Ann Lee", "Bo Chen"]
    assert ann.id != bo.id and ann.metadata.key == "contacts.vcf"


def test_a_vcard_is_told_by_its_content_and_by_its_name() -> None:
    card = b"\xef\xbb\xbf\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nEND:VCARD\r\n"
    assert sniff(card, "export.txt").kind == "vcard"
    assert sniff(card, None).mime == "text/vcard"
    assert sniff(b"begin:vcard\nfn:Ann\nend:vcard\n", None).kind == "vcard"
    assert sniff(b"just some notes", "ann.vcard").kind == "vcard"  # then read as corrupt


def test_a_card_without_a_formatted_name_is_named_from_its_parts(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "n.vcf",
        "BEGIN:VCARD\nVERSION:3.0\nN:Nowak;Jan;Maria;;Jr.\nEMAIL:jan@example.pl\nEND:VCARD\n",
    )
    [item] = Reader().read(path)
    assert item.memory == "Name: Jan Maria Nowak Jr.\nEmail: jan@example.pl"


def test_a_utf16_export_reads_like_any_other(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "outlook.vcf",
        "BEGIN:VCARD\nVERSION:2.1\nFN:Zoë Ångström\n"
        "EMAIL;PREF;INTERNET:zoe@example.se\nEND:VCARD\n",
        encoding="utf-16",
    )
    [item] = Reader().read(path)
    assert item.memory == "Name: Zoë Ångström\nEmail: zoe@example.se"


def test_malformed_files_fail_with_a_typed_error_naming_file_and_line(tmp_path: Path) -> None:
    cut = write(tmp_path, "cut.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Ann Lee\n")
    junk = write(
        tmp_path, "junk.vcf", "BEGIN:VCARD\nVERSION:3.0\nthis is not a property\nEND:VCARD\n"
    )
    crossed = write(tmp_path, "crossed.vcf", "BEGIN:VCARD\nFN:Ann\nEND:VEVENT\n")
    notes = write(tmp_path, "notes.vcf", "Ann Lee, phone 555 0100\n")
    empty = write(tmp_path, "empty.vcf", "BEGIN:VCARD\nVERSION:4.0\nUID:urn:uuid:1\nEND:VCARD\n")
    result = Reader().read_report([cut, junk, crossed, notes, empty])
    assert not result.items
    failures = {Path(f.input).name: f for f in result.failures}
    assert {name: f.error for name, f in failures.items()} == {
        "cut.vcf": "corrupt",
        "junk.vcf": "corrupt",
        "crossed.vcf": "corrupt",
        "notes.vcf": "corrupt",
        "empty.vcf": "empty",
    }
    assert "cut.vcf" in failures["cut.vcf"].message
    assert "no END:VCARD" in failures["cut.vcf"].message
    assert "line 3 is not a content line" in failures["junk.vcf"].message
    assert "END:VEVENT does not close" in failures["crossed.vcf"].message
    assert "does not start with BEGIN:VCARD" in failures["notes.vcf"].message
