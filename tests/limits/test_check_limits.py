#!/usr/bin/env python3
"""check_limits.py on small sources whose functions and files are known: what it must find, and
what it must not mistake for a function body (literals, comments, initializers, classes)."""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_limits  # noqa: E402


def lengths(source):
    return [(name, last - first + 1) for name, first, last in
            check_limits.function_lengths(check_limits.tokenize(source))]


def body(lines):
    return "".join(f"    x += {i};\n" for i in range(lines))


class FunctionBodies(unittest.TestCase):
    def test_a_function_runs_from_its_declarator_to_its_closing_brace(self):
        self.assertEqual(lengths("int f(int x) {\n" + body(3) + "    return x;\n}\n"), [("f", 6)])

    def test_a_template_clause_line_does_not_count(self):
        self.assertEqual(lengths("template <class T>\nT g(T x) {\n    return x;\n}\n"), [("g", 3)])

    def test_a_multi_line_signature_counts(self):
        self.assertEqual(lengths("[[nodiscard]] inline int\nh(int a,\n  int b) {\n    return a;\n}\n"),
                         [("h", 5)])

    def test_qualified_names_members_and_operators(self):
        source = ("namespace kz {\nstruct World {\n    void step() {\n    }\n    bool operator==(const World&) const {\n"
                  "        return true;\n    }\n};\nvoid World::fly() {\n}\n} // namespace kz\n")
        self.assertEqual(lengths(source), [("step", 2), ("operator==", 3), ("World::fly", 2)])

    def test_braces_in_literals_and_comments_are_not_code(self):
        source = ('void f() {\n    const char* a = "}}";\n    char b = \'}\';\n    // }\n    /* } */\n'
                  '    auto c = R"x(})" )x";\n    int d = 1\'000;\n    char e = \'{\';\n}\nvoid g() {\n}\n')
        self.assertEqual(lengths(source), [("f", 9), ("g", 2)])

    def test_preprocessor_lines_are_not_code(self):
        source = "#define OPEN {\n#define BODY(x) \\\n    { x }\nvoid f() {\n}\n"
        self.assertEqual(lengths(source), [("f", 2)])

    def test_lambdas_and_local_classes_belong_to_their_function(self):
        source = "void f() {\n    auto l = [](int x) {\n        return x;\n    };\n    struct L {\n        void m() {}\n    };\n}\n"
        self.assertEqual(lengths(source), [("f", 8)])

    def test_initializers_classes_and_namespaces_are_not_functions(self):
        source = ("constexpr int kTable[] = {1, 2};\nauto kMake = [] {\n    return 1;\n}();\n"
                  "struct alignas(16) Box {\n    float lo[4]{};\n    int area() const { return 0; }\n};\n"
                  "enum class E : int { A, B };\nextern \"C\" {\nvoid c() {\n}\n}\n"
                  "MACRO(\"avx2\") namespace kz::detail {\nvoid inTarget() {\n}\n}\n")
        self.assertEqual(lengths(source), [("area", 1), ("c", 2), ("inTarget", 2)])

    def test_a_constructor_with_braced_member_initializers(self):
        source = "struct A {\n    A(int x) : a_{x}, b_(x) {\n        ++a_;\n    }\n    int a_, b_;\n};\n"
        self.assertEqual(lengths(source), [("A", 3)])

    def test_a_braced_default_argument_is_part_of_the_signature(self):
        source = "int f(const Rect& r = {},\n      std::vector<int> v = {1, 2}) {\n    return 0;\n}\n"
        self.assertEqual(lengths(source), [("f", 4)])

    def test_a_base_list_is_not_a_member_initializer_list(self):
        source = "class B final : public Base {\n    void m() {\n    }\n};\n"
        self.assertEqual(lengths(source), [("m", 2)])


class Limits(unittest.TestCase):
    def check(self, files):
        with tempfile.TemporaryDirectory() as root:
            for name, text in files.items():
                path = os.path.join(root, "src", name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_limits.py")
            run = subprocess.run([sys.executable, script, root], capture_output=True, text=True)
            return run.returncode, run.stdout

    def test_within_the_limits_prints_nothing_and_passes(self):
        code, out = self.check({"geom/a.cpp": "void f() {\n" + body(98) + "}\n" + "\n" * 900})
        self.assertEqual((code, out), (0, ""))

    def test_a_function_over_100_lines_is_one_line_naming_file_and_line(self):
        code, out = self.check({"physics/b.cpp": "\n\nvoid World::step() {\n" + body(99) + "}\n"})
        self.assertEqual(code, 1)
        self.assertEqual(out, "src/physics/b.cpp:3: function World::step is 101 lines (limit 100)\n")

    def test_a_file_over_600_non_blank_lines_is_one_line(self):
        code, out = self.check({"app/c.hpp": "int x;\n\n" * 601})
        self.assertEqual(code, 1)
        self.assertEqual(out, "src/app/c.hpp:1: 601 non-blank lines (limit 600)\n")


if __name__ == "__main__":
    unittest.main()
