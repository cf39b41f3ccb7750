"""Tokenizer for the part of Lean 4 syntax a theorem statement uses.

It never fails: characters it does not know become ``"?"`` tokens, so that a proof after
``:=`` (which we skip) may contain anything; the parser reports an unknown token only when
it has to read it. Comments (``--`` and nested ``/- -/``) are skipped. Numerals of any length
are tokens too; :func:`literal_problem` says which ones the parser must refuse (a proof after
``:=`` is never read, so its numerals do not matter).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prover.frontend.errors import Located


@dataclass(frozen=True)
class Token:
    kind: str       # "ident" | "num" | "op" | "?" | "eof"
    text: str
    pos: int        # character offset in the source


#: Multi-character symbols first (longest match wins).
SYMBOLS = (
    ":=", "<=", ">=", "!=", "->", "<->", "⁻¹", "..",
    "(", ")", "{", "}", "[", "]", "⦃", "⦄", ":", ",", "+", "-", "*", "/", "^", "<", ">", "=",
    "≤", "≥", "≠", "∧", "∨", "¬", "→", "↔", "∀", "∃", "√", "|", "%", "∑", "∏", "·", "•", "⟨",
    "⟩", "@", "!", "∈", "∉", "∣", "⌊", "⌋", "⌈", "⌉", "∘", "×", "λ", "π", "∞", "ℯ", "#", "$",
    "&", "'", "\"", ";", "~",
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
        if ch == "«":
            j = text.find("»", i)
            if j < 0:
                raise Located("unterminated «name»", i)
            toks.append(Token("ident", text[i + 1:j], i))
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
