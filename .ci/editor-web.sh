#!/usr/bin/env bash
# Lints the editor page's web files (Sources/TweakKitServer/Editor) as web code: the script must
# parse (node --check), the HTML's elements must be balanced and keep the placeholders the server
# fills in, and no file may load anything from outside. Runs in about a second.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=Sources/TweakKitServer/Editor

if ! command -v node >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs
fi
for script in "$dir"/*.js; do node --check "$script"; done

python3 - "$dir" <<'PY'
import sys
from html.parser import HTMLParser

directory = sys.argv[1]
VOID = {"meta", "input", "br", "img", "link", "hr"}

class Balance(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open = []

    def handle_starttag(self, tag, attributes):
        if tag not in VOID:
            self.open.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if not self.open or self.open[-1][0] != tag:
            sys.exit(f"{directory}/editor.html:{self.getpos()[0]}: </{tag}> closes {self.open[-1] if self.open else 'nothing'}")
        self.open.pop()

html = open(f"{directory}/editor.html", encoding="utf-8").read()
checker = Balance()
checker.feed(html)
if checker.open:
    sys.exit(f"{directory}/editor.html: unclosed {checker.open}")
for placeholder in ("{{nonce}}", "{{style}}", "{{script}}"):
    if placeholder not in html:
        sys.exit(f"{directory}/editor.html: the placeholder {placeholder} is missing")
for name in ("editor.html", "editor.css", "editor.js", "flags.js"):
    text = open(f"{directory}/{name}", encoding="utf-8").read()
    for external in ("http://", "https://", "@import", "innerHTML"):
        if external in text:
            sys.exit(f"{directory}/{name}: contains {external!r} (the page loads nothing from outside and sets text only)")
css = open(f"{directory}/editor.css", encoding="utf-8").read()
if css.count("{") != css.count("}"):
    sys.exit(f"{directory}/editor.css: {css.count('{')} '{{' but {css.count('}')} '}}'")
print("editor web files: ok")
PY
