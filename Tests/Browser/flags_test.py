#!/usr/bin/env python3
"""Drives the editor's Flags view in real headless Chromium.

Starts `tweak serve` on a fresh SQLite store, then, through the page only: creates a flag, sets a
30/70 split, adds a rule, tries a context, refuses an invalid JSON definition, flips the kill
switch, opens the history and reverts to the version before the kill switch. After each step it
checks what the page shows and what the API answers. Saves screenshots for people to look at.

Usage: Tests/Browser/flags_test.py [path/to/tweak] [artifact-dir]
"""
import os
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_test import ARTIFACTS, TOKEN, Steps, act, api, chromium, eventually, start_serve  # noqa: E402

KEY = "new-checkout"
SPLIT = {"on": 30, "off": 70}
RULE = {"ends_with": [{"var": "email"}, "@example.com"]}


def split_of(targeting):
    """The weights of a top-level `fractional` split bucketed by targetingKey, by variant (the
    buckets' order follows the variants' order, which the server keeps sorted)."""
    if not isinstance(targeting, dict) or list(targeting) != ["fractional"]:
        return None
    buckets = targeting["fractional"]
    return {bucket[0]: bucket[1] for bucket in buckets} if all(isinstance(b, list) for b in buckets) else None


def ruled(targeting):
    """The rule and the split after it, for targeting {"if": [RULE, "on", SPLIT]}."""
    parts = targeting.get("if") if isinstance(targeting, dict) else None
    return parts is not None and len(parts) == 3 and parts[0] == RULE and parts[1] == "on" and split_of(parts[2]) == SPLIT


def card(driver):
    return driver.find_element(By.CSS_SELECTOR, f'[data-flag="{KEY}"]')


def flag(base):
    return api(base, f"/api/flags/{KEY}")


def in_card(driver, selector):
    return card(driver).find_element(By.CSS_SELECTOR, selector)


def click(driver, selector, what):
    def press():
        element = in_card(driver, selector)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
    act(press, what)


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tweak-flags-")
    server, base = start_serve(["--store", "sqlite:" + os.path.join(work, "store.sqlite")])
    driver = chromium("1200,1800")
    step = Steps(on_failure=lambda: driver.save_screenshot(os.path.join(ARTIFACTS, "flags-failure.png")))

    try:
        driver.get(f"{base}/#token={TOKEN}&flags")
        eventually(lambda: driver.find_element(By.ID, "flags").is_displayed(), "the Flags view")

        def create():
            field = driver.find_element(By.ID, "new-flag-key")
            field.send_keys(KEY, Keys.ENTER)  # the keyboard alone creates it
            eventually(lambda: card(driver), "the new flag's card")
            definition = flag(base)
            assert definition["state"] == "ENABLED" and definition["defaultVariant"] == "off", definition
            assert definition["variants"] == {"on": True, "off": False}, definition
            eventually(lambda: in_card(driver, "input.kill-switch").is_selected(), "the kill switch on")
            eventually(lambda: in_card(driver, "select.default-variant").get_attribute("value") == "off", "the default variant off")
        step("a flag is created from the page", create)

        def split():
            def set_on_weight():
                weight = in_card(driver, 'input.weight[data-variant="on"]')
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", weight)
                weight.clear()
                weight.send_keys("30", Keys.TAB)
            act(set_on_weight, "the weight of on")
            eventually(lambda: in_card(driver, 'input.weight[data-variant="off"]').get_attribute("value") == "70",
                       "the other weight to follow (70)")
            eventually(lambda: "Total 100 %" in in_card(driver, ".sum").text, "the total at 100 %")
            click(driver, "button.apply-rollout", "Start rollout")
            eventually(lambda: split_of(flag(base).get("targeting")) == SPLIT, "the 30/70 split to be stored")
            eventually(lambda: in_card(driver, "button.apply-rollout").text == "Save rollout", "the page to show the rollout")
            # The live stream re-renders the card after the save: read it again until it settles.
            eventually(lambda: in_card(driver, 'input.weight[data-variant="on"]').get_attribute("value") == "30", "the on weight (30)")
            eventually(lambda: in_card(driver, "input.bucket-by").get_attribute("value") == "targetingKey", "bucketing by targetingKey")
        step("a 30/70 split is set and kept summing to 100", split)

        def rule():
            def fill():
                in_card(driver, "input.rule-attribute").send_keys("email")
                in_card(driver, "select.rule-operator").send_keys("ends with")
                in_card(driver, "input.rule-value").send_keys("@example.com")
                in_card(driver, "select.rule-variant").send_keys("on")
            act(fill, "the new rule's fields")
            click(driver, "button.add-rule", "Add rule")
            eventually(lambda: ruled(flag(base).get("targeting")), "the rule to be stored before the split")
            eventually(lambda: "If email ends with @example.com → on" in in_card(driver, ".rule-list li").text, "the rule on the page")
        step("a rule is added and written as JsonLogic", rule)

        def try_context():
            click(driver, "details.try summary", "Try a context")
            field = in_card(driver, "textarea.try-context")
            field.clear()
            field.send_keys('{"targetingKey": "user-1", "email": "ada@example.com"}')
            click(driver, "button.try-run", "Evaluate")
            text = eventually(lambda: in_card(driver, "output.try-result").text or None, "the evaluation")
            assert "variant on" in text and "TARGETING_MATCH" in text and "value true" in text, text
        step("try a context shows value, variant and reason", try_context)

        def invalid_json():
            before = flag(base)
            click(driver, "details.json-view summary", "the JSON view")
            text = in_card(driver, "textarea.flag-json")
            driver.execute_script("arguments[0].value = arguments[1]", text,
                                  '{"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on", "targeting": {"if": [{"bogus": [1]}, "on"]}}')
            click(driver, "button.save-json", "Save JSON")
            error = eventually(lambda: in_card(driver, ".error").text or None, "the validation error inline")
            assert "targeting.if[0]" in error and "bogus" in error, error
            after = flag(base)
            assert after["targeting"] == before["targeting"] and after["variants"] == before["variants"], after
        step("an invalid definition is refused inline and nothing changes", invalid_json)

        def kill_switch():
            driver.refresh()
            eventually(lambda: card(driver), "the card after a reload")
            click(driver, "input.kill-switch", "the kill switch")
            eventually(lambda: flag(base)["state"] == "DISABLED", "the flag to be disabled")
            eventually(lambda: not in_card(driver, "input.kill-switch").is_selected(), "the switch to show off")
            eventually(lambda: "kill switch on" in card(driver).text, "the card to say the kill switch is on")
            assert ruled(flag(base)["targeting"]), "the kill switch must keep the targeting"
        step("the kill switch disables the flag and keeps its targeting", kill_switch)

        def history_and_revert():
            click(driver, "button.history-toggle", "History")
            texts = eventually(lambda: (lambda found: found if len(found) == 4 else None)(
                [item.text for item in card(driver).find_elements(By.CSS_SELECTOR, "ol.history li")]), "four versions in the history")
            assert "state ENABLED → DISABLED" in texts[0], texts
            assert "created" in texts[-1], texts

            def revert_to_the_rule():
                revert = card(driver).find_elements(By.CSS_SELECTOR, "ol.history li")[1].find_element(By.CSS_SELECTOR, "button.revert")
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", revert)
                revert.click()
            act(revert_to_the_rule, "Revert to this")
            eventually(lambda: flag(base)["state"] == "ENABLED", "the revert to enable the flag again")
            assert ruled(flag(base)["targeting"]), flag(base)
            eventually(lambda: in_card(driver, "input.kill-switch").is_selected(), "the switch to show on")
            history = api(base, f"/api/flags/{KEY}/history")
            versions = history if isinstance(history, list) else history.get("history") or history.get("versions")
            assert len(versions) == 5, versions
            assert all(change["by"] for change in versions), versions
            driver.save_screenshot(os.path.join(ARTIFACTS, "flags-history.png"))
        step("the history lists each change and a revert restores the earlier version", history_and_revert)

        def ofrep_answers():
            answer = api(base, f"/ofrep/v1/evaluate/flags/{KEY}", "POST", {"context": {"targetingKey": "user-1", "email": "ada@example.com"}})
            assert answer["value"] is True and answer["variant"] == "on", answer
        step("OFREP answers from the same flag", ofrep_answers)
        driver.save_screenshot(os.path.join(ARTIFACTS, "flags.png"))
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
    return step.report()


if __name__ == "__main__":
    sys.exit(main())
