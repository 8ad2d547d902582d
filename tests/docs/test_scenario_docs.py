#!/usr/bin/env python3
"""scripts/scenario_docs.py on a small tree of its own: it writes both lists from the scenario
files, --check passes on what it wrote and fails, naming the page and line, once a description
changes; a scenario without a description and a page without its markers are errors."""

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "scenario_docs.py"

PAGE = "# Title\n\nBefore.\n\n<!-- scenarios:begin -->\nold text\n<!-- scenarios:end -->\n\nAfter.\n"


def run(root, *args):
    done = subprocess.run([sys.executable, str(SCRIPT), *args, str(root)], capture_output=True, text=True,
                          check=False)
    return done.returncode, done.stdout


class ScenarioDocs(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        (self.root / "assets" / "scenarios").mkdir(parents=True)
        (self.root / "docs").mkdir()
        (self.root / "README.md").write_text(PAGE, encoding="utf-8")
        (self.root / "docs" / "scenarios.md").write_text(PAGE, encoding="utf-8")
        self.scenario("zeta", "Zeta", "Two balls meet. Then they part.")
        self.scenario("alpha", "Alpha", "A long description whose words run on and on " * 3 + "to the end. And more.")

    def tearDown(self):
        self.dir.cleanup()

    def scenario(self, name, title, description):
        doc = {"name": title, "size": [1, 1, 1]}
        if description is not None:
            doc["description"] = description
        (self.root / "assets" / "scenarios" / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")

    def page(self, name):
        return (self.root / name).read_text(encoding="utf-8")

    def test_writes_the_first_sentences_in_the_readme_and_the_whole_text_in_the_scenarios_page(self):
        self.assertEqual(run(self.root)[0], 0)
        readme = self.page("README.md")
        self.assertIn("Before.\n\n<!-- scenarios:begin -->\n- `alpha` (Alpha): A long description", readme)
        self.assertIn("to the end.\n- `zeta` (Zeta): Two balls meet.\n<!-- scenarios:end -->\n\nAfter.\n", readme)
        self.assertNotIn("And more.", readme)
        self.assertNotIn("old text", readme)
        full = self.page("docs/scenarios.md")
        self.assertIn("to the end. And more.\n- `zeta` (Zeta): Two balls meet. Then they part.\n", full)
        for page in (readme, full):
            for line in page.split("\n"):
                self.assertLessEqual(len(line), 100, line)

    def test_check_passes_on_what_it_wrote_and_names_each_stale_page_after_a_change(self):
        run(self.root)
        self.assertEqual(run(self.root, "--check"), (0, "scenario_docs: 2 scenarios, README.md and "
                                                        "docs/scenarios.md up to date\n"))
        self.scenario("zeta", "Zeta", "Two balls meet. Then they stop.")
        code, out = run(self.root, "--check")
        self.assertEqual(code, 1)
        self.assertEqual(out, "docs/scenarios.md:5: the list of built-in scenarios is not the scenario "
                              "files' (run scripts/scenario_docs.py)\n")
        self.assertIn("Then they part.", self.page("docs/scenarios.md"))  # --check writes nothing
        self.scenario("beta", "Beta", "New here. Watch it.")
        code, out = run(self.root, "--check")
        self.assertEqual(code, 1)
        self.assertEqual([line.split(":")[0] for line in out.splitlines()], ["README.md", "docs/scenarios.md"])

    def test_a_scenario_without_a_description_is_an_error_naming_its_file(self):
        self.scenario("zeta", "Zeta", None)
        for args in ((), ("--check",)):
            code, out = run(self.root, *args)
            self.assertEqual(code, 1)
            self.assertEqual(out, "assets/scenarios/zeta.json:1: no \"description\" (what to watch, for the "
                                  "lists of scenarios)\n")
        self.assertIn("old text", self.page("README.md"))

    def test_a_page_without_its_markers_is_an_error(self):
        (self.root / "README.md").write_text("# Title\n\nNo list.\n", encoding="utf-8")
        code, out = run(self.root, "--check")
        self.assertEqual(code, 1)
        self.assertEqual(out, "README.md:1: expected one <!-- scenarios:begin --> line, then one "
                              "<!-- scenarios:end --> line\n")


if __name__ == "__main__":
    unittest.main()
