"""Lean tokens: the lexer of the rendered subset (identifiers, numerals, symbols, ``|abs`` bars)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tok:
    kind: str      # ident | num | sym | eof
    text: str
    line: int
    col: int


_SYMBOLS = sorted([":=", "<;>", "=>", "->", "<=", ">=", "!=", "⁻¹", "?_", "..", "<|", "|>",
                   "(", ")", "[", "]", "{", "}", "⟨", "⟩", ",", ":", ";", "+", "-", "*", "/", "^",
                   "<", ">", "=", "≤", "≥", "≠", "→", "↔", "∧", "∨", "¬", "∀", "∃", "√", "·", "←",
                   "|", "%", "•", "$", "@", "!", "#", "λ", "ℝ", "ℕ", "ℤ", "ℚ", "∣", "×", "∑", "∏",
                   "'", "`", "&", "~", "\\", ".", "∈", "↑"], key=len, reverse=True)
_SUBSCRIPTS = set("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ")
_NOT_LETTERS = set("λΠΣℝℕℤℚ∑∏")


def _id_start(ch: str) -> bool:
    return ch == "_" or (ch.isalpha() and ch not in _NOT_LETTERS)


def _id_rest(ch: str) -> bool:
    return ch.isalnum() and ch not in _NOT_LETTERS or ch in "_'!?" or ch in _SUBSCRIPTS


def _ident_end(text: str, i: int) -> int:
    """End of the (possibly dotted) identifier starting at ``text[i]``."""
    n = len(text)
    j = i + 1
    while j < n:
        if _id_rest(text[j]) or (text[j] == "." and j + 1 < n
                                 and (_id_start(text[j + 1]) or text[j + 1].isdigit())):
            j += 1
        else:
            break
    return j


def _digits_end(text: str, j: int) -> int:
    while j < len(text) and text[j].isdigit():
        j += 1
    return j


def _number_end(text: str, i: int) -> int:
    """End of the numeral (``12`` or ``1.5``) starting at ``text[i]``."""
    j = _digits_end(text, i)
    if j + 1 < len(text) and text[j] == "." and text[j + 1].isdigit():
        j = _digits_end(text, j + 1)
    return j


def _symbol_at(text: str, i: int) -> str:
    for s in _SYMBOLS:
        if text.startswith(s, i):
            return s
    return text[i]


#: The token of a ``|`` of Mathlib's ``|a|`` notation (``atomic("|" noWs) term noWs "|"``): a bar
#: with no space on at least one side. A bar with spaces on both sides separates alternatives
#: (``first | … | …``, ``h | h``); ``| a |`` is no absolute value (the model rejects it).
ABS_BAR = "|abs"


def _lex_token(text: str, i: int, out: list[Tok], line: int, col: int) -> int:
    """Append the token(s) starting at ``text[i]`` to ``out``; return the index after them."""
    ch, n = text[i], len(text)
    if ch == "«":
        j = text.index("»", i)
        out.append(Tok("ident", text[i + 1:j], line, col))
        return j + 1
    if ch == "?" and text.startswith("?_", i):
        out.append(Tok("sym", "?_", line, col))
        return i + 2
    if ch == "_" and not (i + 1 < n and _id_rest(text[i + 1])):
        out.append(Tok("sym", "_", line, col))
        return i + 1
    if _id_start(ch):
        j = _ident_end(text, i)
        out.append(Tok("ident", text[i:j], line, col))
        return j
    if ch.isdigit():
        j = _number_end(text, i)
        out.append(Tok("num", text[i:j], line, col))
        return j
    if ch == "." and out and out[-1].text in (")", "⟩") and i + 1 < n and (
            _id_start(text[i + 1]) or text[i + 1].isdigit()):
        j = i + 1
        while j < n and (_id_rest(text[j]) or text[j] == "."):
            j += 1
        for part in text[i + 1:j].split("."):
            out.append(Tok("proj", part, line, col))
        return j
    s = _symbol_at(text, i)
    if s == "|" and not (_space_at(text, i - 1) and _space_at(text, i + 1)):
        s = ABS_BAR
    out.append(Tok("sym", s, line, col))
    return i + 1 if s == ABS_BAR else i + len(s)


def _space_at(text: str, i: int) -> bool:
    return i < 0 or i >= len(text) or text[i].isspace()


def lex(text: str, line: int = 1) -> list[Tok]:
    """Tokens of a Lean fragment (comments must already be removed)."""
    out: list[Tok] = []
    i, n, col0 = 0, len(text), 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
            col0 = i
            continue
        if ch.isspace():
            i += 1
            continue
        i = _lex_token(text, i, out, line, i - col0)
    return out
