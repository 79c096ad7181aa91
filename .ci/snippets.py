#!/usr/bin/env python3
"""Extracts TweakKit's Swift code examples into a package that compiles each one.

Every ```swift block of the README, of the DocC articles (Sources/*/*.docc/**/*.md) and of the `///`
doc comments under Sources/ becomes one file of a generated package (written to .build/snippets,
never committed), which depends on this package by path. `.ci/snippets.sh` builds it.

How a block is compiled
- Each block is one file. Its types, extensions, protocols and `@Test` functions stay at file scope
  (made `private` when they name no access level, so two examples may declare the same name); its
  other lines are the body of an `async throws` method, so a `let` or a statement is fine as is.
  `#sourceLocation` points every line back at the block's file and line: the compiler's errors name
  them.
- Imports: Foundation and every library product of TweakKit (JustTweak only in the JustTweak
  module's and catalog's examples, or where an example imports it: its names shadow TweakKit's), the
  block's own `import`s, `Testing` where a block uses `@Test` or `#expect`, and the imports of its
  scope's prelude. A doc comment on a declaration that is not `public`, or in a module that is no
  product (the `tweak` tool, the engines' and the tests' support), sees its module through
  `@testable import`.
- Context: doc examples use names from their surroundings (`manager`, `store`, `provider`…). A
  scope's prelude, `.ci/snippets/<Scope>.swift`, declares them, once, with real TweakKit types; it
  is a module of its own, so a name an example declares wins over the prelude's. The scopes are the
  module a doc comment is in; `Guides` for the README and the TweakKit catalog's articles; the
  module of any other catalog.
- `{ … }` (a placeholder for the reader's code) compiles as `{}`; a line that is only `…` is left out.

Markers, on a line of their own inside a block (readers see them as comments):
- `// Package.swift` as the first line: a fragment of a manifest; not compiled.
- `// snippet: skip <reason>`: not compiled; the reason is listed in the summary. Keep these few.
- `// snippet: requires <Module>`: compiled only where `<Module>` can be imported (SwiftUI).

Usage: snippets.py ROOT OUT  (writes OUT/Package.swift, OUT/Sources, OUT/snippets.json)
       snippets.py ROOT --list  (lists the blocks found)
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

# A library product that is not imported by default: its names shadow TweakKit's.
NOT_BY_DEFAULT = {"JustTweak"}

# Packages (and their products) the examples may import besides TweakKit's: what an app or server
# using TweakKit imports alongside it. Their versions come from this package's Package.resolved.
EXTERNAL = [
    ("https://github.com/apple/swift-configuration", "swift-configuration", ["Configuration"]),
    ("https://github.com/apple/swift-log", "swift-log", ["Logging"]),
    ("https://github.com/apple/swift-metrics", "swift-metrics", ["CoreMetrics", "Metrics"]),
    ("https://github.com/swift-server/swift-prometheus", "swift-prometheus", ["Prometheus"]),
    ("https://github.com/apple/swift-distributed-tracing", "swift-distributed-tracing", ["Tracing", "Instrumentation"]),
    ("https://github.com/hummingbird-project/hummingbird", "hummingbird", ["Hummingbird"]),
    ("https://github.com/swift-server/swift-service-lifecycle", "swift-service-lifecycle", ["ServiceLifecycle"]),
    ("https://github.com/vapor/postgres-nio", "postgres-nio", ["PostgresNIO"]),
    ("https://github.com/apple/swift-nio", "swift-nio", ["NIOCore", "NIOPosix", "NIOHTTP1"]),
    ("https://github.com/apple/swift-argument-parser", "swift-argument-parser", ["ArgumentParser"]),
]

EXECUTABLES = set()  # the executables' modules (from the manifest)

HOISTED = {"struct", "class", "enum", "actor", "protocol", "extension", "import", "typealias"}
MODIFIERS = {"private", "fileprivate", "internal", "public", "open", "package", "final", "static",
             "nonisolated", "indirect", "dynamic"}
ACCESS = {"private", "fileprivate", "internal", "public", "open", "package"}


class Snippet:
    def __init__(self, path, line, lines, offsets, scope, module=None, testable=False):
        self.path = path          # relative to the root
        self.line = line          # 1-based line of the block's first code line
        self.lines = lines        # the code, with the comment prefix and fence indentation removed
        self.offsets = offsets    # per line: the columns removed (to map a column back)
        self.scope = scope
        self.module = module      # the module of a doc comment
        self.testable = testable  # sees its module's internal declarations
        self.skip = None
        self.requires = None
        self.manifest = False
        for text in lines:
            m = re.match(r"\s*// snippet: (skip|requires)\s*(.*)$", text)
            if m and m.group(1) == "skip":
                self.skip = m.group(2).strip(" —-:") or "no reason given"
            elif m:
                self.requires = m.group(2).strip()
        first = next((t for t in lines if t.strip()), "")
        self.manifest = first.strip() == "// Package.swift"

    @property
    def source(self):
        if self.path == "README.md":
            return "README"
        if ".docc/" in self.path:
            return "DocC articles"
        return "doc comments"


# --- Collecting ------------------------------------------------------------------------------------

FENCE = re.compile(r"^(\s*)```\s*(\S*)")


def markdown_blocks(root, path, scope):
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            indent, lang = len(m.group(1)), m.group(2)
            start, body, offsets = i + 2, [], []
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                text = lines[i]
                cut = min(indent, len(text) - len(text.lstrip(" ")))
                body.append(text[cut:])
                offsets.append(cut)
                i += 1
            if lang == "swift":
                yield Snippet(path, start, body, offsets, scope)
        i += 1


def doc_comment_blocks(root, path, module, is_product):
    lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    in_string = False
    i = 0
    while i < len(lines):
        text = lines[i]
        if text.count('"""') % 2 == 1:
            in_string = not in_string
            i += 1
            continue
        m = None if in_string else re.match(r"^(\s*/// ?)(\s*)```\s*(\S*)\s*$", text)
        if not m:
            i += 1
            continue
        indent, lang = len(m.group(2)), m.group(3)
        start, body, offsets = i + 2, [], []
        i += 1
        while i < len(lines) and not re.match(r"^\s*///\s*```\s*$", lines[i]):
            p = re.match(r"^(\s*/// ?)(.*)$", lines[i])
            prefix, rest = (p.group(1), p.group(2)) if p else ("", lines[i])
            cut = min(indent, len(rest) - len(rest.lstrip(" ")))
            body.append(rest[cut:])
            offsets.append(len(prefix) + cut)
            i += 1
        # The documented declaration: the first line after the comment that is no attribute.
        j = i + 1
        while j < len(lines) and (lines[j].strip().startswith("///") or lines[j].strip().startswith("@")
                                  or not lines[j].strip()):
            j += 1
        declaration = lines[j] if j < len(lines) else ""
        public = re.search(r"\b(public|open)\b", declaration) is not None
        if lang == "swift":
            snippet = Snippet(path, start, body, offsets, module, module=module,
                              testable=not (is_product and public))
            if re.match(r"\s*(@\w+\s+)*package\b", declaration) and not snippet.skip:
                snippet.skip = "on a `package` declaration, which only TweakKit's own modules see"
            if module in EXECUTABLES and not snippet.skip:
                snippet.skip = f"in the {module} executable, whose module another package cannot import"
            yield snippet
        i += 1


def collect(root, products):
    snippets = []
    if os.path.exists(os.path.join(root, "README.md")):
        snippets += markdown_blocks(root, "README.md", "Guides")
    for path in sorted(glob.glob("Sources/*/*.docc/**/*.md", root_dir=root, recursive=True)):
        module = path.split("/")[1]
        snippets += markdown_blocks(root, path, "Guides" if module == "TweakKit" else module)
    for path in sorted(glob.glob("Sources/**/*.swift", root_dir=root, recursive=True)):
        module = path.split("/")[1]
        snippets += doc_comment_blocks(root, path, module, module in products)
    return snippets


# --- Turning a block into a file --------------------------------------------------------------------

def code_depth_change(text, state):
    """The change of bracket depth over one line, outside strings and comments. `state` carries a
    multi-line string across lines."""
    depth, i, n = 0, 0, len(text)
    while i < n:
        if state.get("multiline"):
            end = text.find('"""', i)
            if end < 0:
                return depth
            state["multiline"] = False
            i = end + 3
            continue
        c = text[i]
        if text.startswith("//", i):
            break
        if text.startswith('"""', i):
            state["multiline"] = True
            i += 3
            continue
        if c == '"' or (c == "#" and text.startswith('#"', i)):
            hashes = 0
            while i < n and text[i] == "#":
                hashes += 1
                i += 1
            i += 1  # the quote
            close = '"' + "#" * hashes
            while i < n and not text.startswith(close, i):
                i += 2 if (text[i] == "\\" and hashes == 0) else 1
            i += len(close)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth


def items(lines):
    """Splits a block into top-level items: (first index, last index) each."""
    result, state, depth, start = [], {}, 0, None
    for index, text in enumerate(lines):
        if start is None:
            if not text.strip() or (text.strip().startswith("//") and depth == 0):
                result.append((index, index))
                continue
            start = index
        depth += code_depth_change(text, state)
        if depth <= 0 and not state.get("multiline"):
            result.append((start, index))
            start, depth = None, 0
    if start is not None:
        result.append((start, len(lines) - 1))
    return result


def declaration_words(text):
    """The words of a declaration's head, attributes and their arguments left out."""
    text = re.sub(r"@\w+(\([^)]*\))?", " ", text)
    return text.split()


def is_hoisted(lines, first, last):
    head = " ".join(lines[first:last + 1])
    if re.match(r"\s*@(Test|main)\b", head):
        return True
    words = declaration_words(lines[first])
    for word in words:
        if word in MODIFIERS:
            continue
        return word in HOISTED
    return False


def only_attributes(text):
    return re.fullmatch(r"\s*(@\w+(\(.*\))?\s*)+", text) is not None


def privatized(text):
    """Makes a file-scope declaration private when it names no access level."""
    words = declaration_words(text)
    if any(word in ACCESS for word in words) or (words and words[0] == "import"):
        return text
    m = re.match(r"^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)(.*)$", text)
    return m.group(1) + "private " + m.group(2)


def cleaned(text):
    text = re.sub(r"\{\s*…\s*\}", "{}", text)
    return "" if text.strip() == "…" else text


def swift_file(snippet, imports):
    lines = [cleaned(t) for t in snippet.lines]
    parts = items(lines)
    # An attribute on a line of its own belongs to the item after it.
    merged = []
    for first, last in parts:
        if merged and merged[-1][2] and only_attributes(" ".join(lines[merged[-1][0]:merged[-1][1] + 1])):
            merged[-1] = (merged[-1][0], last, True)
        else:
            merged.append((first, last, bool(lines[first].strip()) and not lines[first].strip().startswith("//")))
    hoisted, body, own_imports = [], [], []
    for first, last, is_code in merged:
        if is_code and re.match(r"\s*(@testable\s+)?import\s+\w+", lines[first]) and first == last:
            own_imports.append(lines[first].strip())
            continue
        (hoisted if is_code and is_hoisted(lines, first, last) else body).append((first, last))
    location = lambda index: f'#sourceLocation(file: "{snippet.path}", line: {snippet.line + index})'
    out = [f"// {snippet.path}:{snippet.line} (generated by .ci/snippets.py)"]
    if snippet.requires:
        out.append(f"#if canImport({snippet.requires})")
    wanted = list(imports)
    if any("@Test" in t or "#expect" in t for t in lines):
        wanted.append("import Testing")
    for line in own_imports:
        module = line.split()[-1]
        if f"@testable import {module}" not in wanted:
            wanted.append(line)
    seen = set()
    for line in wanted:
        if line not in seen:
            out.append(line)
            seen.add(line)
    for first, last in hoisted:
        out.append(location(first))
        out.append(privatized(lines[first]))
        out.extend(lines[first + 1:last + 1])
    if hoisted:
        out.append("#sourceLocation()")
    out.append("private final class Example: Sendable {")
    out.append("    func run() async throws {")
    following = None
    for first, last in body:
        if any(t.strip() for t in lines[first:last + 1]):
            if first != following:
                out.append(location(first))
            out.extend(lines[first:last + 1])
            following = last + 1
    if following is not None:
        out.append("#sourceLocation()")
    out.append("    }")
    out.append("}")
    if snippet.requires:
        out.append("#endif")
    return "\n".join(out) + "\n"


# --- The package ------------------------------------------------------------------------------------

def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        if open(path, encoding="utf-8").read() == text:
            return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def package_info(root):
    dump = json.loads(subprocess.run(["swift", "package", "--package-path", root, "dump-package"],
                                     check=True, capture_output=True, text=True).stdout)
    libraries = [p["name"] for p in dump["products"] if "library" in p["type"]]
    global EXECUTABLES
    EXECUTABLES = {t for p in dump["products"] if "executable" in p["type"] for t in p["targets"]}
    traits = [t["name"] for t in dump.get("traits") or [] if t["name"] != "default"]
    return libraries, traits


def scope_target(scope):
    return re.sub(r"\W", "", scope) + "Examples"


def generate(root, out):
    libraries, traits = package_info(root)
    snippets = collect(root, set(libraries))
    preludes_dir = os.path.join(root, ".ci", "snippets")
    compiled = [s for s in snippets if not s.skip and not s.manifest]
    scopes = sorted({s.scope for s in compiled})

    products = [f'.product(name: "{name}", package: "TweakKit")' for name in libraries]
    products += [f'.product(name: "{p}", package: "{package}")' for _, package, names in EXTERNAL for p in names]
    dependencies = [f'.package(name: "TweakKit", path: {json.dumps(os.path.abspath(root))}'
                    + (f", traits: {json.dumps(traits)}" if traits else "") + ")"]
    # The versions this package resolved: nothing new to fetch, the same builds in the scratch path.
    pins = {}
    resolved = os.path.join(root, "Package.resolved")
    if os.path.exists(resolved):
        for pin in json.load(open(resolved, encoding="utf-8")).get("pins", []):
            if pin.get("state", {}).get("version"):
                pins[pin["identity"]] = pin["state"]["version"]
    for url, package, _ in EXTERNAL:
        if package not in pins:
            sys.exit(f"error: {package} is not in Package.resolved: run `swift package resolve` first")
        dependencies.append(f'.package(url: "{url}", exact: "{pins[package]}")')
    targets, expected = [], set()
    for scope in scopes:
        name = scope_target(scope)
        # The scope's prelude: Common.swift, and <Scope>.swift where there is one.
        prelude_imports = []
        for part in ("Common", scope):
            prelude_path = os.path.join(preludes_dir, f"{part}.swift")
            prelude_file = f"Sources/{name}Prelude/{part}.swift"
            if not os.path.exists(prelude_path):
                continue
            prelude = open(prelude_path, encoding="utf-8").read()
            prelude_imports += [l.strip() for l in prelude.split("\n")
                                if re.match(r"\s*(@testable\s+)?import\s+\w+", l)]
            relative = os.path.relpath(prelude_path, root)
            write_if_changed(os.path.join(out, prelude_file),
                             f'#sourceLocation(file: "{relative}", line: 1)\n' + prelude)
            expected.add(prelude_file)
        targets.append(f'.target(name: "{name}Prelude", dependencies: everything)')
        targets.append(f'.target(name: "{name}", dependencies: ["{name}Prelude"] + everything, '
                       f'resources: [.copy("Tweaks.json")])')
        resource = f"Sources/{name}/Tweaks.json"
        write_if_changed(os.path.join(out, resource), "{}\n")
        expected.add(resource)
        names = set()
        for snippet in (s for s in compiled if s.scope == scope):
            imports = ["import Foundation"]
            use_just_tweak = scope == "JustTweak" or any(
                re.match(r"\s*import\s+JustTweak\b", t) for t in snippet.lines)
            for library in libraries:
                if library in NOT_BY_DEFAULT and not use_just_tweak:
                    continue
                if snippet.testable and library == snippet.module:
                    continue
                imports.append(f"import {library}")
            if snippet.testable and snippet.module:
                imports.append(f"@testable import {snippet.module}")
            imports += prelude_imports
            imports.append(f"@testable import {name}Prelude")
            stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(snippet.path))[0])
            file = f"Sources/{name}/{stem}_{snippet.line}.swift"
            while file in names:
                file = file[:-len(".swift")] + "_.swift"
            names.add(file)
            write_if_changed(os.path.join(out, file), swift_file(snippet, imports))
            expected.add(file)
    # Files of blocks that are gone, and targets of scopes that are.
    targets_now = {path.split("/")[1] for path in expected}
    for path in glob.glob("Sources/*", root_dir=out):
        if path.split("/")[1] not in targets_now:
            shutil.rmtree(os.path.join(out, path))
    for path in glob.glob("Sources/**/*", root_dir=out, recursive=True):
        if os.path.isfile(os.path.join(out, path)) and path not in expected:
            os.remove(os.path.join(out, path))

    manifest = "\n".join([
        "// swift-tools-version: " + ("6.1" if traits else "6.0"),
        "// Generated by .ci/snippets.py. Do not edit.",
        "import PackageDescription",
        "",
        "// Every library of TweakKit, and the packages an example may import beside it.",
        "let everything: [Target.Dependency] = [",
        *[f"    {p}," for p in products],
        "]",
        "",
        "let package = Package(",
        '    name: "TweakKitExamples",',
        "    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],",
        "    dependencies: [",
        *[f"        {d}," for d in dependencies],
        "    ],",
        "    targets: [",
        *[f"        {t}," for t in targets],
        "    ],",
        "    swiftLanguageModes: [.v6]",
        ")",
        "",
    ])
    write_if_changed(os.path.join(out, "Package.swift"), manifest)
    resolved = os.path.join(root, "Package.resolved")
    if os.path.exists(resolved):
        write_if_changed(os.path.join(out, "Package.resolved"), open(resolved, encoding="utf-8").read())

    summary = {
        "snippets": [{"path": s.path, "line": s.line, "scope": s.scope, "source": s.source,
                      "offsets": s.offsets, "skip": s.skip, "manifest": s.manifest,
                      "requires": s.requires} for s in snippets],
    }
    write_if_changed(os.path.join(out, "snippets.json"), json.dumps(summary, indent=1) + "\n")
    return snippets


def report_errors(out, log):
    """Prints the compiler's errors, the first broken example's first, with the example's own file,
    line and column (the generated file's column less what the doc comment's prefix took)."""
    snippets = json.load(open(os.path.join(out, "snippets.json"), encoding="utf-8"))["snippets"]
    def original(path, line, column):
        for s in snippets:
            if s["path"] == path and s["line"] <= line < s["line"] + len(s["offsets"]):
                return s, column + s["offsets"][line - s["line"]]
        return None, column
    text = open(log, encoding="utf-8", errors="replace").read().split("\n")
    errors, first = [], None
    for index, line in enumerate(text):
        m = re.match(r"^(\S+?):(\d+):(\d+): error: (.*)$", line)
        if not m:
            continue
        path, number, column, message = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        snippet, column = original(path, number, column)
        entry = f"{path}:{number}:{column}: error: {message}"
        if entry not in errors:
            errors.append(entry)
        if first is None:
            first = (snippet, index)
    if not errors:
        return False
    snippet, index = first
    where = f"{snippet['path']}:{snippet['line']}" if snippet else errors[0].split(": error:")[0]
    print(f"error: an example does not compile: {where}")
    print("\n".join(text[index:index + 12]))
    print(f"\nevery error ({len(errors)}):")
    print("\n".join(errors))
    return True


def main():
    root = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--errors":
        sys.exit(0 if report_errors(sys.argv[3], sys.argv[4]) else 1)
    if len(sys.argv) > 2 and sys.argv[2] == "--list":
        libraries, _ = package_info(root)
        for s in collect(root, set(libraries)):
            state = "skip: " + s.skip if s.skip else "manifest" if s.manifest else "compiled"
            print(f"{s.path}:{s.line}\t{s.scope}\t{state}")
        return
    snippets = generate(root, sys.argv[2])
    counts = {}
    for s in snippets:
        key = s.source
        c = counts.setdefault(key, [0, 0])
        c[0 if not (s.skip or s.manifest) else 1] += 1
    for source in ("README", "DocC articles", "doc comments"):
        compiled, exempt = counts.get(source, [0, 0])
        print(f"snippets: {source}: {compiled} compiled, {exempt} exempt")


if __name__ == "__main__":
    main()
