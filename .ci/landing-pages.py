#!/usr/bin/env python3
"""Every library product of Package.swift has a DocC landing page.

For each library product, each of its targets (the module an app imports) must have
`Sources/<Module>/<Module>.docc/<Module>.md` whose title is the module's symbol link, ``<Module>``:
the page that says what the module is for, what it depends on, and shows an example (see
Sources/TweakKitFlagd/TweakKitFlagd.docc/TweakKitFlagd.md). The products are read from
`swift package dump-package`, so a product added to the manifest is checked at once.

Usage: landing-pages.py ROOT   (exit 1, naming each missing or malformed page)
"""

import json
import os
import subprocess
import sys


def main(root):
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", root, "dump-package"],
        check=True, capture_output=True, text=True,
    ).stdout)
    modules = sorted({target for product in manifest["products"] if "library" in product["type"]
                      for target in product["targets"]})
    problems = []
    for module in modules:
        page = os.path.join("Sources", module, f"{module}.docc", f"{module}.md")
        try:
            with open(os.path.join(root, page), encoding="utf-8") as file:
                title = next((line.strip() for line in file if line.strip()), "")
        except FileNotFoundError:
            problems.append(f"{page}: missing: the library product's module has no DocC landing page")
            continue
        if title != f"# ``{module}``":
            problems.append(f"{page}:1: the title must be \"# ``{module}``\" (the module's landing page), not {title!r}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        print("error: every library product needs a landing page: what it is for, what it depends on, "
              "its Package.swift line and an example (as Sources/TweakKitFlagd/TweakKitFlagd.docc/TweakKitFlagd.md)",
              file=sys.stderr)
        return 1
    print(f"landing pages: {len(modules)} library modules, each with its DocC landing page")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
