"""What is not content is not stored as text: PGP ciphertext (as an attachment or a file),
and an XSLT stylesheet, which is code with HTML templates in it, not a page."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import EncryptedError

ARMOUR = (
    "-----BEGIN PGP MESSAGE-----\n\nhQEMA8K9kz0ZxJ2oAQf/Xq3vYb2mQ1pX0a9Lw7cZr4uJd8kT0nVb6sG2yH5eW1fR\n"
    "=Zx9Q\n-----END PGP MESSAGE-----\n"
)


def test_pgp_ciphertext_attached_as_text_is_not_stored(tmp_path: Path) -> None:
    # Outlook keeps a PGP/MIME message's ciphertext as a plain attachment, "encrypted.asc"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ann@example.org", "bo@example.org", "Contract"
    msg["Date"] = "Fri, 23 Dec 2022 09:30:00 +0000"
    msg.set_content("The signed contract is attached, encrypted.")
    msg.add_attachment(ARMOUR.encode(), "text", "plain", filename="encrypted.asc")
    path = tmp_path / "contract.eml"
    path.write_bytes(msg.as_bytes())
    result = Reader().read_report(path)
    texts = "\n".join(i.memory for i in result.items)
    assert "signed contract is attached" in texts
    assert "BEGIN PGP" not in texts and "hQEMA8K9" not in texts
    assert [(f.error, f.input.rsplit("!", 1)[-1]) for f in result.failures] == [
        ("encrypted", "attachment/encrypted.asc")
    ]


def test_an_armoured_pgp_file_is_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "message.asc"
    path.write_text(ARMOUR, encoding="ascii")
    with pytest.raises(EncryptedError):
        Reader().read(path)


XSLT = b"""<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="/">
    <html><body>
      <table>
        <tr><th>Name</th><th>Total</th></tr>
        <xsl:for-each select="orders/order">
          <tr><td><xsl:value-of select="name"/></td><td><xsl:value-of select="total"/></td></tr>
        </xsl:for-each>
      </table>
    </body></html>
  </xsl:template>
</xsl:stylesheet>
"""


@pytest.mark.parametrize("name", ["orders.xsl", "orders.html", "orders"])
def test_an_xslt_stylesheet_is_code_not_a_page(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(XSLT)
    [item] = Reader().read(path)
    assert item.metadata.extra["format"] == "xml"
    assert item.memory.startswith("```xml\n<?xml") and item.memory.endswith("```")
    assert "| Name | Total |" not in item.memory  # its template is not a table of the page
