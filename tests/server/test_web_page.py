"""The page at / in a real headless browser: Debian's Chromium driven by Selenium through
Debian's chromedriver (never a driver or browser Selenium Manager would download). Upload a
file, wait for the job, search, see the hit, open the item with its provenance, and keep a
screenshot in the test's folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import KEYS, Running

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
INSTALL = ("install Debian's chromium and chromium-driver "
           "(apt-get install -y chromium chromium-driver)")

pytestmark = pytest.mark.skipif(
    not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)),
    reason=f"no headless browser: {INSTALL}")


@pytest.fixture
def browser(tmp_path: Path):  # type: ignore[no-untyped-def]
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,900", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def test_page_uploads_waits_for_the_job_searches_and_opens_the_item(
        serve, browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
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

    box = browser.find_element(By.ID, "q")
    box.send_keys("storm ledger lighthouse")
    browser.find_element(By.CSS_SELECTOR, "#search button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hits .hit"))
    hit = browser.find_elements(By.CSS_SELECTOR, "#hits .hit")[0]
    assert "Skerry Rock" in hit.text and "lighthouse-log.txt" in hit.text

    hit.click()
    item = browser.find_element(By.ID, "item")
    wait.until(lambda d: "lighthouse-log.txt" in item.text)
    assert '"user_id": "alice"' in item.text  # stored under the key's user

    shot = tmp_path / "page.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000

    # The same store through the API: the page's upload is alice's item, exactly once.
    with running.client({"Authorization": f"Bearer {next(iter(KEYS))}"}) as c:
        assert c.get("/v1/stats").json()["items"] == 1
