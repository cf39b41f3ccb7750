"""Tokenizer for the part of Lean 4 syntax a theorem statement uses.

It reads a whole Lean file the way Lean's tokenizer does for everything that can hide or
reveal a command: comments (``--`` and nested ``/- -/``, doc comments included) are skipped,
string literals (``"…"`` with escapes, raw ``r"…"`` / ``r#"…"#``) and character literals
(``'a'``, ``'\n'``) are single tokens (``kind`` ``"str"``/``"char"``), and ``«…»`` names are
identifiers. Characters it does not know become ``"?"`` tokens, so that a proof after ``:=``
(which we skip) may contain anything; the parser reports an unknown token only when it has to
read it. An unterminated comment, string or ``«`` is an error: the rest of the file could not
be split into commands. Numerals of any length are tokens too; :func:`literal_problem` says
which ones the parser must refuse (a proof after ``:=`` is never read, so its numerals do not
matter).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prover.frontend.errors import Located


@dataclass(frozen=True)
class Token:
    kind: str       # "ident" | "num" | "op" | "str" | "char" | "?" | "eof"
    text: str
    pos: int        # character offset in the source


#: Multi-character symbols first (longest match wins).
SYMBOLS = (
    ":=", "=>", "<=", ">=", "!=", "->", "<->", "⁻¹", "..",
    "(", ")", "{", "}", "[", "]", "⦃", "⦄", ":", ",", "+", "-", "*", "/", "^", "<", ">", "=",
    "≤", "≥", "≠", "∧", "∨", "¬", "→", "↔", "∀", "∃", "√", "|", "%", "∑", "∏", "·", "•", "⟨",
    "⟩", "@", "!", "∈", "∉", "∣", "⌊", "⌋", "⌈", "⌉", "∘", "×", "λ", "π", "∞", "ℯ", "#", "$",
    "&", "'", ";", "~", "`",
)

_NUM = re.compile(r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_NUM_PARTS = re.compile(r"(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?")

#: Longest numeral (digits, before and after a decimal point) and largest scientific exponent
#: accepted: longer ones would make sympy (or Python's int conversion) stall or fail.
MAX_LITERAL_DIGITS = 1000
MAX_LITERAL_EXPONENT = 1000
_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜ"


def _ident_start(ch: str) -> bool:
    return (ch.isalpha() or ch == "_") and ch not in "λΠΣ∑∏π"


def _ident_rest(ch: str) -> bool:
    return (ch.isalnum() and ch not in "¹²³⁰⁴⁵⁶⁷⁸⁹") or ch in "_'!?" or ch in _SUBSCRIPTS


def tokenize(text: str) -> list[Token]:
    toks: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/-", i):
            i = _skip_block_comment(text, i)
            continue
        if ch == '"':
            if toks and toks[-1].kind == "ident" and toks[-1].text.endswith("!") and \
                    toks[-1].pos + len(toks[-1].text) == i:
                # `s!"{…}"`: braces hold code with strings of their own; not read, so refused
                raise Located(f"interpolated string `{toks[-1].text}\"…\"` is not supported", toks[-1].pos)
            j = _skip_string(text, i + 1, i)
            toks.append(Token("str", text[i:j], i))
            i = j
            continue
        if ch == "r" and _raw_string_start(text, i):
            j = _skip_raw_string(text, i)
            toks.append(Token("str", text[i:j], i))
            i = j
            continue
        if ch == "'" and i + 1 < n and text[i + 1] != "'":
            j = _char_literal_end(text, i)
            if j is not None:
                toks.append(Token("char", text[i:j], i))
                i = j
                continue
        if ch == "«":
            j = text.find("»", i)
            if j < 0:
                raise Located("unterminated «name»", i)
            toks.append(Token("ident", text[i:j + 1], i))   # kept quoted: «theorem» is no keyword
            i = j + 1
            continue
        if ch in "0123456789":
            m = _NUM.match(text, i)
            assert m is not None
            toks.append(Token("num", m.group(), i))
            i = m.end()
            continue
        if _ident_start(ch):
            j = i
            while True:  # dotted names: Real.sqrt
                j += 1
                while j < n and _ident_rest(text[j]):
                    j += 1
                if j + 1 < n and text[j] == "." and _ident_start(text[j + 1]):
                    continue
                break
            toks.append(Token("ident", text[i:j], i))
            i = j
            continue
        for sym in SYMBOLS:
            if text.startswith(sym, i):
                toks.append(Token("op", sym, i))
                i += len(sym)
                break
        else:
            toks.append(Token("?", ch, i))
            i += 1
    toks.append(Token("eof", "", n))
    return toks


def literal_problem(text: str) -> str | None:
    """Why the numeral ``text`` (a ``num`` token) is refused, or None when it is fine."""
    m = _NUM_PARTS.fullmatch(text)
    if m is None:  # pragma: no cover - num tokens always match
        return f"malformed number `{text[:20]}`"
    digits = len(m.group(1)) + len(m.group(2) or "")
    if digits > MAX_LITERAL_DIGITS:
        return f"numeric literal with {digits} digits is too long (at most {MAX_LITERAL_DIGITS})"
    if m.group(3) is not None:
        mag = m.group(3).lstrip("+-").lstrip("0") or "0"
        if len(mag) > len(str(MAX_LITERAL_EXPONENT)) or int(mag) > MAX_LITERAL_EXPONENT:
            return f"scientific exponent of `{text[:20]}` is too large (at most {MAX_LITERAL_EXPONENT})"
    return None


def _skip_string(text: str, i: int, start: int) -> int:
    """The offset after the string literal whose body starts at ``i`` (``\\`` escapes one character)."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    raise Located("unterminated string literal", start)


_RAW_START = re.compile(r'r(#*)"')
_CHAR_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)", re.DOTALL)


def _raw_string_start(text: str, i: int) -> bool:
    """``r"`` or ``r#…#"`` at ``i``, not inside an identifier (``for"`` is no raw string)."""
    return (i == 0 or not _ident_rest(text[i - 1])) and _RAW_START.match(text, i) is not None


def _skip_raw_string(text: str, i: int) -> int:
    m = _RAW_START.match(text, i)
    assert m is not None
    end = '"' + m.group(1)
    j = text.find(end, m.end())
    if j < 0:
        raise Located("unterminated raw string literal", i)
    return j + len(end)


def _char_literal_end(text: str, i: int) -> int | None:
    """The offset after the character literal at ``i`` (``'a'``, ``'\\n'``, ``'\\x41'``,
    ``'\\u{3b1}'``), or None when ``'`` does not start one there."""
    j = i + 1
    if j < len(text) and text[j] == "\\":
        m = _CHAR_ESCAPE.match(text, j)
        if m is None:
            return None
        j = m.end()
    else:
        j += 1
    return j + 1 if j < len(text) and text[j] == "'" else None


def _skip_block_comment(text: str, i: int) -> int:
    depth, start = 0, i
    while i < len(text):
        if text.startswith("/-", i):
            depth += 1
            i += 2
        elif text.startswith("-/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    raise Located("unterminated comment `/-`", start)
