#!/usr/bin/env python3
"""The size limits Kolize keeps: no C++ file under src/ over 600 non-blank lines, no function over
100 lines, so that a reader finds each part by its file name and reads any function in one screen.
Prints one line per offender, file:line: what, and exits 1;
prints nothing and exits 0 when every file and function is within them.

    tests/limits/check_limits.py [ROOT]        (ROOT: the source tree, default: this repository)

A function's length runs from the first line of its declarator (after any `template <...>`
line) to its closing brace, both included: the lines a reader scrolls through. Function bodies
are found by a tokenizer that skips comments, string, character and raw string literals and
preprocessor lines, and a brace matcher that tells a function body (a brace at namespace or class
scope after a parameter list) from a namespace, class, enum or initializer. Lambdas and local
classes count as part of the function they are written in.
"""

import os
import re
import sys

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 100
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".hh", ".cxx", ".inl")

IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
NUMBER = re.compile(r"\.?[0-9](?:'?[0-9A-Za-z_.]|[eEpP][+-])*")
RAW_PREFIX = re.compile(r"(?:u8|u|U|L)?R\"([^ ()\\\t\v\f\n]{0,16})\(")
PUNCT3 = ("<=>", "...", "->*", "<<=", ">>=")
PUNCT2 = ("::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
          "*=", "/=", "%=", "&=", "|=", "^=", ".*", "[[", "]]")


class Token:
    __slots__ = ("text", "line")

    def __init__(self, text, line):
        self.text = text
        self.line = line

    def __repr__(self):
        return f"{self.text}@{self.line}"


def tokenize(text):
    """C++ tokens with their line numbers (1-based); comments and preprocessor lines dropped, every
    literal one token."""
    tokens = []
    i, n, line = 0, len(text), 1
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and text[i + 1] == "\n":
            i += 2
            line += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor directive, with its continuation lines (and comments inside it).
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 2
                    continue
                if text.startswith("/*", i) or text.startswith("//", i):
                    i, line = skip_comment(text, i, line)
                    continue
                i += 1
            continue
        at_line_start = False
        if text.startswith("/*", i) or text.startswith("//", i):
            i, line = skip_comment(text, i, line)
            continue
        raw = RAW_PREFIX.match(text, i)
        if raw:
            close = ")" + raw.group(1) + '"'
            end = text.find(close, raw.end())
            end = n if end < 0 else end + len(close)
            tokens.append(Token('"raw"', line))
            line += text.count("\n", i, end)
            i = end
            continue
        if c == '"' or c == "'" or (c in "uUL" and _literal_prefix(text, i)):
            start_line = line
            j = i
            while text[j] not in "\"'":
                j += 1
            quote = text[j]
            j += 1
            while j < n and text[j] != quote:
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n":  # an unterminated literal ends at the line's end
                    break
                j += 1
            i = j + 1
            tokens.append(Token(quote + "lit" + quote, start_line))
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = NUMBER.match(text, i)  # digit separators (1'000) stay inside the number
            tokens.append(Token(m.group(0), line))
            i = m.end()
            continue
        m = IDENT.match(text, i)
        if m:
            tokens.append(Token(m.group(0), line))
            i = m.end()
            continue
        for p in PUNCT3 + PUNCT2:
            if text.startswith(p, i):
                tokens.append(Token(p, line))
                i += len(p)
                break
        else:
            tokens.append(Token(c, line))
            i += 1
    return tokens


def skip_comment(text, i, line):
    """Past the comment that starts at text[i] (a line comment up to its newline): (index, line)."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return (len(text) if end < 0 else end), line
    end = text.find("*/", i + 2)
    end = len(text) if end < 0 else end + 2
    return end, line + text.count("\n", i, end)


def _literal_prefix(text, i):
    """Whether an encoding prefix (u8, u, U, L) starts a string or character literal at i."""
    for prefix in ("u8", "u", "U", "L"):
        if text.startswith(prefix, i):
            j = i + len(prefix)
            if j < len(text) and text[j] in "\"'":
                return i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
    return False


CLASS_KEYS = {"class", "struct", "union", "enum", "namespace"}
NOT_A_NAME = {"alignas", "decltype", "__attribute__", "noexcept", "requires", "sizeof", "alignof",
              "static_assert", "__declspec", "throw"}


def strip_template_prefix(head):
    """The head without its leading `template <...>` clauses (several for a member template of a
    class template)."""
    while head and head[0].text == "template" and len(head) > 1 and head[1].text == "<":
        depth, k = 0, 1
        while k < len(head):
            t = head[k].text
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
            elif t == ">>":
                depth -= 2
            elif t in ("(", "["):
                k = skip_group([h.text for h in head], k)
                continue
            k += 1
            if depth <= 0:
                break
        head = head[k:]
    return head


def skip_group(words, k):
    """Index just past the bracketed group ((), [], {} or [[ ]]) that opens at words[k] (token
    texts)."""
    pairs = {"(": ")", "[": "]", "{": "}", "[[": "]]"}
    opening, closing = words[k], pairs[words[k]]
    depth = 0
    while k < len(words):
        if words[k] == opening:
            depth += 1
        elif words[k] == closing:
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k


def declares_scope(words):
    """Whether a head (without its template clauses) opens a namespace, class, union or enum, or an
    extern "C" block: a class key at the top level with no parameter list after it (`struct
    alignas(16) X`, `MACRO(x) namespace kz`, but not `struct X make(int)`), or a linkage string."""
    k = 0
    while k < len(words) and words[k] in ("extern", "export", "inline", "typedef"):
        k += 1
    if k < len(words) and words[k].startswith('"'):
        return True
    key = -1
    k = 0
    while k < len(words):
        w = words[k]
        if w in ("(", "[", "{"):
            k = skip_group(words, k)
            continue
        if w in CLASS_KEYS:
            key = k
        k += 1
    if key < 0 or "=" in words[key:]:
        return False
    k = key + 1
    while k < len(words):
        w = words[k]
        if w == "[[" or (w in ("alignas", "__attribute__", "__declspec") and words[k + 1:k + 2] == ["("]):
            k = skip_group(words, k if w == "[[" else k + 1)  # an attribute
            continue
        if w == "(":
            return False
        k += 1
    return True


def function_name(head):
    """The declared name of a function head (its tokens before the body's brace), or None when the
    head declares no function (a class, a namespace, an initializer...)."""
    head = strip_template_prefix(head)
    if not head:
        return None
    words = [t.text for t in head]
    if declares_scope(words):
        return None  # a class, namespace or enum (its body holds declarations); extern "C" {
    depth = 0
    for k, w in enumerate(words):
        if w in ("(", "[", "[["):
            depth += 1
        elif w in (")", "]", "]]"):
            depth -= 1
        elif w == "=" and depth == 0 and not (k > 0 and words[k - 1] == "operator"):
            return None  # an initializer: `T x = {`, `auto f = [] {`
    k = 0
    while k < len(words):
        w = words[k]
        if w == "[[":
            k = skip_group(words, k)
            continue
        if w == "(":
            prev = words[k - 1] if k > 0 else ""
            if prev in NOT_A_NAME:
                k = skip_group(words, k)
                continue
            if prev == "]":  # a lambda's parameters
                return None
            return qualified_name(words, k)
        if w in ("[", "{"):
            k = skip_group(words, k)
            continue
        k += 1
    return None


def before_template_arguments(words, k):
    """Index of the token before the template argument list whose `>` is words[k]."""
    depth = 0
    while k >= 0:
        if words[k] == ">":
            depth += 1
        elif words[k] == "<":
            depth -= 1
            if depth == 0:
                break
        k -= 1
    return k - 1


def qualified_name(words, paren):
    """The (qualified) name just before the parameter list at words[paren]."""
    k = paren - 1
    parts = []
    if k >= 0 and not (IDENT.fullmatch(words[k]) or words[k] == ">"):
        # operator(), operator==, operator<< ...
        j = k
        while j >= 0 and words[j] != "operator":
            j -= 1
        if j < 0:
            return None
        parts = words[j:paren]
        k = j - 1
    elif k >= 0 and words[k] == ">":  # a specialisation: f<int>(
        k = before_template_arguments(words, k)
    if not parts:
        if k < 0 or not IDENT.fullmatch(words[k]):
            return None
        parts = [words[k]]
        k -= 1
    while k >= 1 and words[k] == "::":
        j = k - 1
        if words[j] == ">":  # a class template's arguments: Box<T>::
            j = before_template_arguments(words, j)
        if j < 0 or not IDENT.fullmatch(words[j]):
            break
        parts = [words[j], "::"] + parts
        k = j - 1
    if k >= 0 and words[k] == "~":
        parts = ["~"] + parts
    return "".join(parts)


def function_lengths(tokens):
    """(name, first line, last line) of every function body at namespace or class scope."""
    found = []
    texts = [t.text for t in tokens]
    # Each open brace: whether declarations follow inside it (namespace, class, extern block).
    scopes = [True]
    head = []
    k = 0
    while k < len(tokens):
        t = tokens[k]
        text = t.text
        if not scopes[-1]:
            # Inside a function or an initializer: only the braces matter here.
            if text == "{":
                scopes.append(False)
            elif text == "}":
                scopes.pop()
            k += 1
            continue
        if text in (";",):
            head = []
        elif text == "}":
            scopes.pop()
            head = []
        elif text == ":" and head and head[-1].text in ("public", "private", "protected"):
            head = []
        elif text == "{":
            if open_parens(head) > 0 or is_init_list_brace(head):
                # A braced default argument (`const Rect& r = {}`) or member initializer: still head.
                end = skip_group(texts, k)
                head.extend(tokens[k:end])
                k = end
                continue
            name = function_name(head)
            if name is not None:
                end = skip_group(texts, k)
                start = strip_template_prefix(head)
                first = start[0].line if start else t.line
                found.append((name, first, tokens[end - 1].line))
                head = []
                k = end
                continue
            declarations = declares_scope([h.text for h in strip_template_prefix(head)])
            scopes.append(declarations)
            head = []
        else:
            head.append(t)
        k += 1
    return found


def open_parens(head):
    """How many of the head's parentheses are still open."""
    return sum(1 if t.text == "(" else -1 if t.text == ")" else 0 for t in head)


def is_init_list_brace(head):
    """Whether a brace in a function head belongs to a constructor's member initializer list
    (`: a_{x}`): after `) :` at the top level, just after a member or base name."""
    stripped = strip_template_prefix(head)
    if not stripped or declares_scope([t.text for t in stripped]):
        return False
    depth = 0
    seen_colon = False
    for k, t in enumerate(head):
        if t.text in ("(", "[", "{"):
            depth += 1
        elif t.text in (")", "]", "}"):
            depth -= 1
        elif t.text == ":" and depth == 0 and k > 0 and head[k - 1].text in (")", "noexcept", "const",
                                                                               "override", "final"):
            seen_colon = True
    last = head[-1].text
    return seen_colon and (bool(IDENT.fullmatch(last)) or last == ">")


def check_file(path, shown):
    """The offences of one file, as printed lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    problems = []
    non_blank = sum(1 for line in text.splitlines() if line.strip())
    if non_blank > MAX_FILE_LINES:
        problems.append(f"{shown}:1: {non_blank} non-blank lines (limit {MAX_FILE_LINES})")
    for name, first, last in function_lengths(tokenize(text)):
        lines = last - first + 1
        if lines > MAX_FUNCTION_LINES:
            problems.append(f"{shown}:{first}: function {name} is {lines} lines (limit {MAX_FUNCTION_LINES})")
    return problems


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    src = os.path.join(root, "src")
    if not os.path.isdir(src):
        print(f"check_limits: no src/ folder under {root}", file=sys.stderr)
        return 2
    problems = []
    for folder, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(folder, name)
                problems += check_file(path, os.path.relpath(path, root))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
