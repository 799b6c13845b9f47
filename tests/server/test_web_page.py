"""The page at / in a real headless browser: Debian's Chromium driven by Selenium through
Debian's chromedriver (never a driver or browser Selenium Manager would download). Upload a
file and watch its progress bar, see it in the stored files, search, see the hit with its
origin and the matched words marked, open the item from the keyboard, delete the file (after
saying no once), and show a hostile file name and item text as text, never as markup."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from omnireader import ingest

from .conftest import KEYS, Running

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
INSTALL = (
    "install Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
)

pytestmark = pytest.mark.skipif(
    not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)),
    reason=f"no headless browser: {INSTALL}",
)


@pytest.fixture
def browser(tmp_path: Path):  # type: ignore[no-untyped-def]
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'"
    )
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1100,900",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def test_page_uploads_waits_for_the_job_searches_and_opens_the_item(
    serve, browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    running: Running = serve(keys=KEYS)
    doc = tmp_path / "lighthouse-log.txt"
    doc.write_text("The lighthouse keeper on Skerry Rock logs every storm in a blue ledger.")

    browser.get(running.url + "/")
    assert browser.title == "omnireader"
    browser.find_element(By.ID, "key").send_keys(next(iter(KEYS)))  # alice's key
    browser.find_element(By.ID, "files").send_keys(str(doc))
    wait = WebDriverWait(browser, 120, poll_frequency=0.2)
    job = browser.find_element(By.ID, "job")
    wait.until(lambda d: job.get_attribute("data-status") in ("done", "failed", "error"))
    assert job.get_attribute("data-status") == "done", job.text
    assert "1/1 files" in job.text and "1 items" in job.text

    # The upload's own row: its progress bar is full and says done.
    row = browser.find_element(By.CSS_SELECTOR, "#uploads .upload")
    assert row.get_attribute("data-status") == "done"
    bar = row.find_element(By.TAG_NAME, "progress")
    assert bar.get_attribute("value") == bar.get_attribute("max")
    assert "lighthouse-log.txt" in row.text
    # It was fed by the job's event stream, not by polling the job.
    fetched = browser.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
    )
    assert any(u.endswith("/events") for u in fetched), fetched
    assert not any("/v1/jobs/" in u and not u.endswith("/events") for u in fetched), fetched

    # The stored files list has it, with its items.
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#stored tr.file"))
    stored = browser.find_element(By.CSS_SELECTOR, "#stored tr.file")
    assert stored.find_element(By.CSS_SELECTOR, "td.name").text == "lighthouse-log.txt"
    assert stored.find_element(By.CSS_SELECTOR, "td.items").text == "1"

    box = browser.find_element(By.ID, "q")
    box.send_keys("storms ledger lighthouse")
    box.send_keys(Keys.ENTER)  # the form submits from the keyboard
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hits .hit"))
    hit = browser.find_elements(By.CSS_SELECTOR, "#hits .hit")[0]
    assert "Skerry Rock" in hit.text and "lighthouse-log.txt" in hit.text
    marked = [m.text.lower() for m in hit.find_elements(By.TAG_NAME, "mark")]
    assert {"storm", "ledger", "lighthouse"} <= set(marked), marked

    # Tab reaches the hit; Enter opens it.
    browser.execute_script("document.getElementById('q').focus()")
    active = browser.switch_to.active_element
    for _ in range(3):
        active.send_keys(Keys.TAB)
        active = browser.switch_to.active_element
        if active.get_attribute("class") == "hit":
            break
    assert active.get_attribute("data-id") == hit.get_attribute("data-id")
    active.send_keys(Keys.ENTER)
    item = browser.find_element(By.ID, "item")
    wait.until(lambda d: "lighthouse-log.txt" in item.text)
    assert '"user_id": "alice"' in item.text  # stored under the key's user

    shot = Path(os.environ.get("OMNIREADER_PAGE_SHOT", tmp_path / "page.png"))
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000

    # The same store through the API: the page's upload is alice's item, exactly once.
    headers = {"Authorization": f"Bearer {next(iter(KEYS))}"}
    with running.client(headers) as c:
        assert c.get("/v1/stats").json()["items"] == 1

    # Delete asks first: "no" keeps the file, "yes" removes it.
    # (found again: the list is redrawn whenever it is loaded)
    delete = browser.find_element(By.CSS_SELECTOR, "#stored tr.file button.delete")
    delete.click()
    wait.until(EC.alert_is_present())
    assert "lighthouse-log.txt" in browser.switch_to.alert.text
    browser.switch_to.alert.dismiss()
    with running.client(headers) as c:
        assert c.get("/v1/stats").json()["items"] == 1
    delete.send_keys(Keys.ENTER)  # the button works from the keyboard too
    wait.until(EC.alert_is_present())
    browser.switch_to.alert.accept()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#stored tr.file"))
    assert "deleted 1 items" in browser.find_element(By.ID, "stored-note").text
    with running.client(headers) as c:
        assert c.get("/v1/stats").json()["items"] == 0


HOSTILE_NAME = "<img src=x onerror=alert(1)>.txt"
HOSTILE_TEXT = (
    "Harbour log <b>bold claim</b> <script>window.pwned = 1</script> "
    '<img src=y onerror="window.pwned = 2"> the storm broke the pier.'
)


def test_page_shows_file_names_and_item_text_as_text(serve, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from omnireader import Store

    # A store written by the library (as `omnireader ingest` does) from a real file whose
    # name and text are markup, then served: uploads get a safe name, a file on disk need not.
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / HOSTILE_NAME).write_text(HOSTILE_TEXT)
    store = Store.open(tmp_path / "db.lance", create=True)
    report = ingest([folder / HOSTILE_NAME], store)
    assert report.items_inserted == 1
    del store
    running: Running = serve("db")

    browser.get(running.url + "/")
    wait = WebDriverWait(browser, 60, poll_frequency=0.2)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#stored tr.file"))
    name = browser.find_element(By.CSS_SELECTOR, "#stored tr.file td.name")
    assert name.text == HOSTILE_NAME

    browser.find_element(By.ID, "q").send_keys("storm pier harbour")
    browser.find_element(By.CSS_SELECTOR, "#search button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hits .hit"))
    hit = browser.find_element(By.CSS_SELECTOR, "#hits .hit")
    assert "<b>bold claim</b>" in hit.text and "<script>" in hit.text
    assert HOSTILE_NAME in hit.text
    hit.click()
    wait.until(lambda d: HOSTILE_NAME in d.find_element(By.ID, "item").text)

    # Nothing of it became an element, ran, or raised a dialog.
    made = browser.execute_script(
        "return [document.querySelectorAll('img, b').length, document.scripts.length]"
    )
    assert made == [0, 1]  # no image or bold element; the page's own script only
    assert browser.execute_script("return typeof window.pwned") == "undefined"
    try:
        text = browser.switch_to.alert.text
        raise AssertionError(f"the page raised a dialog: {text!r}")
    except NoAlertPresentException:
        pass
    assert [m.text.lower() for m in hit.find_elements(By.TAG_NAME, "mark")] == [
        "harbour",
        "storm",
        "pier",
    ]
