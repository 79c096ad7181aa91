#!/usr/bin/env python3
"""Drives the tweak editor in real headless Chromium.

Starts `tweak serve` on a free port over the bundled example (plus a tweak with a hostile title),
then loads the page, searches, flips a Bool, edits numbers (a bad value is refused), resets one
tweak, sees a change made through the API appear without a reload, resets all overrides, and
checks every result through the JSON API. Saves screenshots for people to look at.

Usage: Tests/Browser/editor_test.py [path/to/tweak] [artifact-dir]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (ElementNotInteractableException, NoAlertPresentException,
                                        StaleElementReferenceException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TWEAK = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "tweak")
ARTIFACTS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, ".build", "browser-artifacts")
TOKEN = "browser-test-token"
HOSTILE = "<script>alert(1)</script>"
# A tweak whose names need encoding in a URL: non-ASCII, a space, "/", "?" and "#".
ODD_FEATURE, ODD_VARIABLE = "café", "crème brûlée / prix?#"


def api(base, path, method="GET", body=None, token=TOKEN):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Authorization", "Bearer " + token)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def value(base, tweak):
    feature, variable = tweak.split(".", 1)
    return api(base, f"/api/tweaks/{urllib.parse.quote(feature, safe='')}/{urllib.parse.quote(variable, safe='')}")["value"]


def eventually(check, what, timeout=10):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = check()
            if last:
                return last
        except Exception as error:  # the page may be re-rendering
            last = error
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def row(driver, tweak):
    return driver.find_element(By.CSS_SELECTOR, f'[data-tweak="{tweak}"]')


def act(action, what):
    """Runs `action`, again if a live refresh replaced the element it was working on, or had not
    laid it out yet when it was reached ("element not interactable")."""
    for _ in range(20):
        try:
            return action()
        except (StaleElementReferenceException, ElementNotInteractableException):
            time.sleep(0.1)
    raise AssertionError(f"the page kept changing under {what}")


def type_into(driver, tweak, text, end):
    def enter():
        field = row(driver, tweak).find_element(By.CSS_SELECTOR, "input")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.clear()
        field.send_keys(text, end)
    act(enter, tweak)


def chromium(window_size):
    """Debian's headless Chromium through chromedriver, with a window of `window_size` ("W,H")."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={window_size}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Steps:
    """Runs each named step, prints ok or FAIL with the traceback, and counts them; `on_failure`
    (if given) runs after a failed step, for example to save a screenshot."""

    def __init__(self, on_failure=None):
        self.passed, self.failed, self.on_failure = 0, 0, on_failure

    def __call__(self, name, body):
        try:
            body()
            self.passed += 1
            print(f"ok   {name}")
        except Exception:
            self.failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
            if self.on_failure:
                self.on_failure()

    def report(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def start_serve(arguments):
    """Starts `tweak serve` on a free port; returns the process and its base URL."""
    server = subprocess.Popen([TWEAK, "serve", "--port", "0", "--token", TOKEN] + arguments,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(200):
        match = re.search(r"TweakKit editor: (http://[^/\s]+)/", server.stdout.readline())
        if match:
            return server, match.group(1)
    server.kill()
    raise SystemExit("tweak serve did not start")


def store_history(driver, work):
    """A second editor on an SQLite store: two edits through the API, the page's history lists them
    newest first, Revert writes the older value back, and a stale If-Match is refused."""
    server, base = start_serve(["--defaults", os.path.join(ROOT, "Examples", "LocalTweaks_example.json"),
                                "--store", "sqlite:" + os.path.join(work, "store.sqlite")])
    try:
        tweak = "ui_customization.label_text"
        api(base, "/api/tweaks/ui_customization/label_text", "PUT", {"value": "first"})
        api(base, "/api/tweaks/ui_customization/label_text", "PUT", {"value": "second"})
        driver.set_window_size(1200, 1600)
        driver.get(f"{base}/#token={TOKEN}")
        eventually(lambda: row(driver, tweak).find_element(By.CSS_SELECTOR, "button.history-toggle"), "the History button")

        def open_history():
            if not row(driver, tweak).find_elements(By.CSS_SELECTOR, "ol.history li"):
                act(lambda: row(driver, tweak).find_element(By.CSS_SELECTOR, "button.history-toggle").click(), "the History button")
            items = row(driver, tweak).find_elements(By.CSS_SELECTOR, "ol.history li")
            return items if len(items) == 2 else None
        items = eventually(open_history, "the history of two changes")
        assert "→ \"second\"" in items[0].text and "→ \"first\"" in items[1].text, [item.text for item in items]
        assert "v2" in items[0].text and "editor" in items[0].text, items[0].text
        act(lambda: row(driver, tweak).find_elements(By.CSS_SELECTOR, "ol.history li button.revert")[0].click(), "the Revert button")
        eventually(lambda: value(base, tweak) == "first", "the revert to write the older value back")
        history = api(base, "/api/history?feature=ui_customization&variable=label_text")
        assert [change["new"] for change in history] == ["first", "second", "first"], history
        request = urllib.request.Request(base + "/api/tweaks/ui_customization/label_text", method="PUT",
                                         data=json.dumps({"value": "stale"}).encode())
        for name, header in (("Authorization", "Bearer " + TOKEN), ("Content-Type", "application/json"), ("If-Match", '"1"')):
            request.add_header(name, header)
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("a stale If-Match was accepted")
        except urllib.error.HTTPError as error:
            assert error.code == 412, error.code
        driver.save_screenshot(os.path.join(ARTIFACTS, "editor-history.png"))
    finally:
        server.terminate()
        server.wait(timeout=20)


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tweak-editor-")
    hostile = os.path.join(work, "hostile.json")
    with open(hostile, "w") as file:
        json.dump({"security": {"hostile_title": {"Title": HOSTILE, "Description": "<img src=x onerror=alert(2)>", "Value": "safe"}},
                   ODD_FEATURE: {ODD_VARIABLE: {"Value": "oui"}}}, file, ensure_ascii=False)
    server = subprocess.Popen(
        [TWEAK, "serve", "--port", "0", "--token", TOKEN,
         "--defaults", os.path.join(ROOT, "Examples", "LocalTweaks_example.json"), "--defaults", hostile,
         "--overrides", os.path.join(work, "overrides.json")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = None
    for _ in range(200):
        line = server.stdout.readline()
        match = re.search(r"TweakKit editor: (http://[^/\s]+)/", line)
        if match:
            base = match.group(1)
            break
    if base is None:
        server.kill()
        raise SystemExit("tweak serve did not start")

    driver = chromium("1200,1600")
    step = Steps()

    try:
        driver.get(f"{base}/#token={TOKEN}")
        eventually(lambda: driver.find_elements(By.CSS_SELECTOR, ".tweak"), "the tweaks to load")

        def groups_and_sources():
            headings = [h.text.lower() for h in driver.find_elements(By.CSS_SELECTOR, "section h2")]
            assert headings == sorted(headings[:-1]) + [headings[-1]] or headings == sorted(headings), headings
            assert "ui customization" in headings and "general" in headings, headings
            source = row(driver, "ui_customization.label_text").find_element(By.CSS_SELECTOR, ".source").text
            assert source == "LocalTweaks_example.json", source
        # Retried: on a cold start the first render may still be replacing the rows it is read from.
        step("groups are shown with each value's source", lambda: eventually(lambda: groups_and_sources() or True, "the groups and sources"))

        def hostile_title_is_text():
            title = row(driver, "security.hostile_title").find_element(By.CSS_SELECTOR, ".title").text
            assert title == HOSTILE, title
            try:
                driver.switch_to.alert
                raise AssertionError("a script ran")
            except NoAlertPresentException:
                pass
            assert not driver.find_elements(By.CSS_SELECTOR, "main script, main img"), "markup was injected"
        step("a hostile title shows as text and runs nothing", hostile_title_is_text)

        def search():
            box = driver.find_element(By.ID, "search")
            box.send_keys("alpha")
            eventually(lambda: [r.get_attribute("data-tweak") for r in driver.find_elements(By.CSS_SELECTOR, ".tweak")]
                       == ["ui_customization.red_view_alpha_component"], "the search to filter")
            assert [h.text for h in driver.find_elements(By.CSS_SELECTOR, "section h2")] == ["UI CUSTOMIZATION"]
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(Keys.BACKSPACE)
            eventually(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".tweak")) > 5, "the search to clear")
        step("search keeps the groups", search)

        def flip_bool():
            act(lambda: row(driver, "ui_customization.display_red_view").find_element(By.CSS_SELECTOR, "input[type=checkbox]").click(), "the switch")
            eventually(lambda: value(base, "ui_customization.display_red_view") is True, "the Bool to be stored")
            eventually(lambda: "overridden" in row(driver, "ui_customization.display_red_view").text, "the override mark")
        step("flipping a Bool stores it", flip_bool)

        def edit_numbers():
            type_into(driver, "general.answer_to_the_universe", "abc", Keys.ENTER)
            eventually(lambda: "whole number" in row(driver, "general.answer_to_the_universe").text, "a refusal")
            assert value(base, "general.answer_to_the_universe") == 42
            type_into(driver, "general.answer_to_the_universe", "-7", Keys.ENTER)
            eventually(lambda: value(base, "general.answer_to_the_universe") == -7, "the Int to be stored")
            type_into(driver, "ui_customization.red_view_alpha_component", "-0.25", Keys.TAB)
            eventually(lambda: value(base, "ui_customization.red_view_alpha_component") == -0.25, "the Double to be stored")
        step("numbers: negative and decimal values are stored, text is refused", edit_numbers)

        def reset_one():
            eventually(lambda: row(driver, "general.answer_to_the_universe").find_element(By.CSS_SELECTOR, "button.reset"), "a reset button")
            act(lambda: row(driver, "general.answer_to_the_universe").find_element(By.CSS_SELECTOR, "button.reset").click(), "the reset button")
            eventually(lambda: value(base, "general.answer_to_the_universe") == 42, "the override to be removed")
        step("reset one tweak", reset_one)

        def live_update():
            api(base, "/api/tweaks/ui_customization/label_text", "PUT", {"value": "changed elsewhere"})
            eventually(lambda: row(driver, "ui_customization.label_text").find_element(By.CSS_SELECTOR, "input").get_attribute("value")
                       == "changed elsewhere", "the change to appear without a reload")
        step("a change made elsewhere appears without a reload", live_update)

        def odd_name():
            odd = f"{ODD_FEATURE}.{ODD_VARIABLE}"
            # Read in one go, again if a live refresh replaced the row meanwhile (a stale element).
            title = eventually(lambda: row(driver, odd).find_element(By.CSS_SELECTOR, ".title").text, "the tweak with a non-ASCII name")
            assert title == odd, title
            type_into(driver, odd, "délicieux", Keys.ENTER)
            eventually(lambda: value(base, odd) == "délicieux", "the value to be stored under the decoded name")
            eventually(lambda: "overridden" in row(driver, odd).text, "the override mark")
            eventually(lambda: row(driver, odd).find_element(By.CSS_SELECTOR, "button.reset"), "a reset button")
            act(lambda: row(driver, odd).find_element(By.CSS_SELECTOR, "button.reset").click(), "the reset button")
            eventually(lambda: value(base, odd) == "oui", "the override to be removed")
        step("a tweak named with non-ASCII, a space, / ? and # can be edited and reset", odd_name)

        def rebinding_refused():
            port = urllib.parse.urlparse(base).port
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tweaks", headers={"Host": f"attacker.example:{port}"})
            try:
                urllib.request.urlopen(request, timeout=10)
                raise AssertionError("a request for another host name was answered")
            except urllib.error.HTTPError as error:
                assert error.code == 403, error.code
                assert "DNS rebinding" in error.read().decode(), "the refusal says why"
        step("a request naming another host is refused (DNS rebinding)", rebinding_refused)

        driver.save_screenshot(os.path.join(ARTIFACTS, "editor.png"))

        def reset_all():
            driver.find_element(By.ID, "reset-all").click()
            WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert).accept()
            eventually(lambda: value(base, "ui_customization.display_red_view") is False
                       and value(base, "ui_customization.red_view_alpha_component") == 1.0
                       and value(base, "ui_customization.label_text") == "Test value", "every override to be removed")
        step("reset all overrides", reset_all)

        def writes_need_the_token():
            try:
                api(base, "/api/tweaks/general/answer_to_the_universe", "PUT", {"value": 1}, token="wrong")
                raise AssertionError("a write without the token was accepted")
            except urllib.error.HTTPError as error:
                assert error.code == 401, error.code
            assert value(base, "general.answer_to_the_universe") == 42
        step("writes without the token are refused", writes_need_the_token)

        def phone():
            driver.set_window_size(390, 844)
            time.sleep(0.3)
            width = driver.execute_script("return document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width}px wide on a 390px screen"
            driver.save_screenshot(os.path.join(ARTIFACTS, "editor-phone.png"))
        step("fits a phone screen", phone)

        step("on a shared store: the page shows a tweak's history and reverts a change", lambda: store_history(driver, work))
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            print("FAIL tweak serve did not stop on SIGTERM")
            step.failed += 1
    print(f"screenshots: {ARTIFACTS}")
    return step.report()


if __name__ == "__main__":
    sys.exit(main())
