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


#: Multi-character symbols first (longest match wins). The Lean tokens that start or end with a bar
#: (``||``, ``|||``, ``|>``, ``|>.``, ``<|``, ``<|>``, Mathlib's ``|ₘ``) are single tokens, as Lean's
#: maximal munch reads them: ``|x|>0`` is no ``|x| > 0`` in Lean, and ``|x - |y||`` ends in ``||``.
SYMBOLS = (
    "|||", "||", "|>.", "|>", "<|>", "<|", "|ₘ", ":=", "=>", "<=", ">=", "!=", "->", "<->", "⁻¹", "..",
    "(", ")", "{", "}", "[", "]", "⦃", "⦄", ":", ",", "+", "-", "*", "/", "^", "<", ">", "=",
    "≤", "≥", "≠", "∧", "∨", "¬", "→", "↔", "∀", "∃", "√", "|", "%", "∑", "∏", "·", "•", "⟨",
    "⟩", "@", "!", "∈", "∉", "∣", "⌊", "⌋", "⌈", "⌉", "∘", "×", "λ", "π", "∞", "ℯ", "#", "$",
    "&", "'", ";", "~", "`",
)

_NUM = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUM_PARTS = re.compile(r"([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?")

#: Longest numeral (digits, before and after a decimal point) and largest scientific exponent
#: accepted: longer ones would make sympy (or Python's int conversion) stall or fail.
MAX_LITERAL_DIGITS = 1000
MAX_LITERAL_EXPONENT = 1000


def _letter_like(c: int) -> bool:
    """Lean 4's ``isLetterLike`` (``Init/Meta``): Greek but λ, Π, Σ; Coptic; polytonic Greek;
    the letter-like block (ℝ, ℕ …); mathematical alphanumerics (𝒜, 𝔸 …)."""
    return ((0x3B1 <= c <= 0x3C9 and c != 0x3BB) or (0x391 <= c <= 0x3A9 and c not in (0x3A0, 0x3A3))
            or 0x3CA <= c <= 0x3FB or 0x1F00 <= c <= 0x1FFE or 0x2100 <= c <= 0x214F
            or 0x1D49C <= c <= 0x1D59F)


def _subscript(c: int) -> bool:
    """Lean 4's ``isSubScriptAlnum``: ₀…₉, ₐ…ₜ, ᵢ…ᵪ."""
    return 0x2080 <= c <= 0x2089 or 0x2090 <= c <= 0x209C or 0x1D62 <= c <= 0x1D6A


def _ident_start(ch: str) -> bool:
    """Lean 4's ``isIdFirst`` (ASCII letters, ``_``, letter-like), less ``π``, which we read as
    the notation token it is after ``open Real`` (refused either way)."""
    return (ch.isascii() and (ch.isalpha() or ch == "_")) or (_letter_like(ord(ch)) and ch != "π")


def _ident_rest(ch: str) -> bool:
    """Lean 4's ``isIdRest``: ASCII letters and digits, ``_ ' ! ?``, letter-like, subscripts.
    A Cyrillic ``а`` or a fullwidth digit is no identifier character (Lean stops there)."""
    c = ord(ch)
    return ((ch.isascii() and (ch.isalnum() or ch in "_'!?")) or (_letter_like(c) and ch != "π")
            or _subscript(c))


def is_identifier(text: str) -> bool:
    """``text`` is one atomic Lean identifier (``h₀``, ``x'``, ``ha``), no « » needed."""
    return bool(text) and _ident_start(text[0]) and all(_ident_rest(ch) for ch in text[1:])


def tokenize(text: str) -> list[Token]:
    toks: list[Token] = []
    i, n = 0, len(text)
    while True:
        i = _skip_blank(text, i)
        if i >= n:
            break
        i = _literal(text, i, toks) or _word(text, i, toks) or _symbol(text, i, toks)
    toks.append(Token("eof", "", n))
    return toks


def _skip_blank(text: str, i: int) -> int:
    """The offset after white space and comments (``--`` to the end of the line, nested ``/- -/``)."""
    n = len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/-", i):
            i = _skip_block_comment(text, i)
        else:
            break
    return i


def _literal(text: str, i: int, toks: list[Token]) -> int | None:
    """A string, raw string, character literal or ``«name»`` at ``i``: appended; the offset after it."""
    ch = text[i]
    if ch == '"':
        last = toks[-1] if toks else None
        if last is not None and last.kind == "ident" and last.text.endswith("!") and \
                last.pos + len(last.text) == i:
            # `s!"{…}"`: braces hold code with strings of their own; not read, so refused
            raise Located(f"interpolated string `{last.text}\"…\"` is not supported", last.pos)
        kind, j = "str", _skip_string(text, i + 1, i)
    elif ch == "r" and _raw_string_start(text, i):
        kind, j = "str", _skip_raw_string(text, i)
    elif ch == "'" and i + 1 < len(text) and text[i + 1] != "'" and _char_literal_end(text, i) is not None:
        kind, j = "char", _char_literal_end(text, i)  # type: ignore[assignment]
    elif ch == "«":
        end = text.find("»", i)
        if end < 0:
            raise Located("unterminated «name»", i)
        kind, j = "ident", end + 1   # kept quoted: «theorem» is no keyword
    else:
        return None
    toks.append(Token(kind, text[i:j], i))
    return j


def _word(text: str, i: int, toks: list[Token]) -> int | None:
    """A numeral or a (dotted) identifier at ``i``: appended; the offset after it."""
    n = len(text)
    if text[i] in "0123456789":
        m = _NUM.match(text, i)
        assert m is not None
        toks.append(Token("num", m.group(), i))
        return m.end()
    if not _ident_start(text[i]):
        return None
    j = i
    while True:  # dotted names: Real.sqrt
        j += 1
        while j < n and _ident_rest(text[j]):
            j += 1
        if j + 1 < n and text[j] == "." and _ident_start(text[j + 1]):
            continue
        break
    toks.append(Token("ident", text[i:j], i))
    return j


def _symbol(text: str, i: int, toks: list[Token]) -> int:
    """A symbol at ``i`` (longest first), else a one-character ``?`` token."""
    for sym in SYMBOLS:
        if text.startswith(sym, i):
            toks.append(Token("op", sym, i))
            return i + len(sym)
    toks.append(Token("?", text[i], i))
    return i + 1


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
