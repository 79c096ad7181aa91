"""Shared plumbing for TweakKit's differential runners: runs `tweak eval` in batch mode
(`--contexts`) and tallies agreement by documented class."""
import collections
import json
import os
import subprocess
import tempfile


class Tally:
    """Counts cases: agreements, differences in a documented class, and unexplained differences."""

    def __init__(self, vendor):
        self.vendor = vendor
        self.cases = 0
        self.agree = 0
        self.classes = collections.Counter()
        self.failures = []

    def record(self, agree, difference_class=None, detail=None):
        self.cases += 1
        if agree:
            self.agree += 1
        elif difference_class:
            self.classes[difference_class] += 1
        else:
            self.failures.append(detail)

    def report(self, seed):
        outside = self.cases - sum(self.classes.values())
        share = 100.0 * (outside - len(self.failures)) / outside if outside else 100.0
        print(f"{self.vendor} seed {seed}: {self.cases} cases, {self.agree} identical, "
              f"{sum(self.classes.values())} in documented classes, {len(self.failures)} unexplained "
              f"-> {share:.2f}% agreement outside documented classes")
        for name, count in sorted(self.classes.items()):
            print(f"  class {name}: {count}")
        for detail in self.failures[:10]:
            shown = {key: value for key, value in detail.items() if key not in ("datafile", "template")}
            print("  DIFFERENCE " + json.dumps(shown, sort_keys=True, default=str)[:1200])
        if self.failures:
            document = {key: value for key, value in self.failures[0].items() if key in ("datafile", "template")}
            print("  FIRST DOCUMENT " + json.dumps(document, sort_keys=True, default=str))
        return not self.failures


def tweak_batch(tweak, option, document, key, contexts, extra=()):
    """Runs `tweak eval <option> <document> <key> --contexts <file>`; one parsed result per context."""
    with tempfile.TemporaryDirectory() as directory:
        document_path = os.path.join(directory, "document.json")
        contexts_path = os.path.join(directory, "contexts.jsonl")
        with open(document_path, "w") as handle:
            json.dump(document, handle)
        with open(contexts_path, "w") as handle:
            for context in contexts:
                handle.write(json.dumps(context) + "\n")
        run = subprocess.run([tweak, "eval", option, document_path, key, "--contexts", contexts_path, *extra],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, run.stderr.strip()
        lines = [line for line in run.stdout.splitlines() if line.strip()]
        return [json.loads(line) for line in lines], run.stderr.strip()
