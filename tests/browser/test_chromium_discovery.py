"""Where the browser tests find Chromium: the setting first (and only), then the system's, then Playwright's own."""

from pathlib import Path

from tests.browser.helpers import CHROMIUM_SETTING, SYSTEM_CHROMIUMS, chromium_candidates


def test_a_chosen_chromium_is_the_only_one_tried():
    assert chromium_candidates({CHROMIUM_SETTING: "/opt/my/chrome"}, "/pw/chrome") == [
        (CHROMIUM_SETTING, Path("/opt/my/chrome"))]


def test_without_a_setting_debian_s_comes_first_and_playwright_s_own_last():
    candidates = chromium_candidates({}, "/pw/chrome")
    assert candidates[0] == ("system", Path("/usr/bin/chromium"))
    assert [path for _, path in candidates[:-1]] == [Path(path) for path in SYSTEM_CHROMIUMS]
    assert candidates[-1] == ("Playwright's own", Path("/pw/chrome"))
    assert chromium_candidates({CHROMIUM_SETTING: ""}, None) == candidates[:-1]
