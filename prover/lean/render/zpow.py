"""Integer powers (``zpow``) of the user's statement rewritten to natural powers and inverses.

Why: ``x ^ (-(3 : ℤ))`` is ``DivInvMonoid.zpow``, which ``ring`` and ``linear_combination`` do not
read as ``(x ^ 3)⁻¹`` (the replay model takes it for an atom). Before the proof, each written
``B ^ (k : ℤ)`` / ``B ^ (-(k : ℤ))`` / ``B ^ (-k : ℤ)`` becomes ``B ^ k`` / ``(B ^ k)⁻¹`` by two
Mathlib lemmas and ``rw`` with local equations (both modelled)::

    have hzp1 : B ^ (-(3 : ℤ)) = (B ^ (3 : ℤ))⁻¹ := zpow_neg (B) 3
    have hzp2 : B ^ (3 : ℤ) = B ^ 3 := zpow_ofNat (B) 3
    rw [hzp2] at hzp1
    rw [hzp1] at h ⊢

``zpow_neg (a : α) : ∀ n : ℤ, a ^ (-n) = (a ^ n)⁻¹`` (``DivisionMonoid``) and ``zpow_ofNat (a : G)
(n : ℕ) : a ^ (OfNat.ofNat n : ℤ) = a ^ OfNat.ofNat n`` (``DivInvMonoid``; the ``(k : ℤ)`` literal
is that term). The rest of the proof reads the statement with the rewritten text
(:func:`rewrite_head`), as the goal and hypotheses then are. A base other than a parenthesised
group, a name or a numeral is refused (``RenderError``), as is a ``zpow`` the rewrite leaves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from prover.lean.render.common import RenderError

#: ``^ (-(k : ℤ))``, ``^ (-k : ℤ)``, ``^ (k : ℤ)`` (spaces free): the sign and the literal.
_EXPONENT = re.compile(r"\^\s*\(\s*(?:-\s*\(\s*(?P<a>\d+)\s*:\s*ℤ\s*\)|(?P<sign>-?)\s*(?P<b>\d+)\s*:\s*ℤ)\s*\)")
_NAME = re.compile(r"(?:[^\W\d]|[₀-₉'.])[\w₀-₉'.]*$|\d+$")


@dataclass(frozen=True)
class ZPow:
    """One written integer power: its text, its base's text, the literal and its sign."""

    text: str
    base: str
    k: int
    negative: bool

    def natural(self) -> str:
        """Its value as ``B ^ k`` or ``(B ^ k)⁻¹``."""
        return f"({self.base} ^ {self.k})⁻¹" if self.negative else f"{self.base} ^ {self.k}"


def written_zpows(text: str) -> list[ZPow]:
    """Each integer power written in ``text``, leftmost first, once per text."""
    out: dict[str, ZPow] = {}
    for m in _EXPONENT.finditer(text):
        base = _base_before(text, m.start())
        k = int(m.group("a") or m.group("b"))
        negative = m.group("a") is not None or m.group("sign") == "-"
        written = text[m.start() - len(base):m.end()].strip()
        out.setdefault(written, ZPow(written, base.strip(), k, negative))
    return list(out.values())


def _base_before(text: str, at: int) -> str:
    """The base written just before the ``^`` at ``at`` (with its leading spaces trimmed off by the
    caller): a parenthesised group or a name/numeral; RenderError for anything else."""
    end = len(text[:at].rstrip())
    if end and text[end - 1] == ")":
        depth = 0
        for i in range(end - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                return text[i:at]
        raise RenderError("zpow: unbalanced parentheses before an integer power")
    m = _NAME.search(text[:end])
    if m is None:
        raise RenderError("zpow: the base of an integer power is neither a name nor in parentheses")
    return text[m.start():at]


def rewrite_head(head: str, zpows: list[ZPow]) -> str:
    """``head`` with every written integer power replaced by its natural form."""
    for z in zpows:
        head = head.replace(z.text, z.natural())
    if _EXPONENT.search(head):
        raise RenderError("zpow: an integer power left after rewriting (a nested one?)")
    return head


def zpow_lines(zpows: list[ZPow], texts: dict[str, str], fresh: Callable[[str], str]) -> list[str]:
    """The facts and ``rw`` lines turning each integer power into its natural form wherever it is
    written: ``texts`` maps each location (a hypothesis name, ``⊢`` for the goal) to its text (a
    location without the power is not named: ``rw … at`` fails where it rewrites nothing)."""
    lines = []
    for z in zpows:
        arg = z.base if z.base.startswith("(") or _NAME.fullmatch(z.base) else f"({z.base})"
        rule = fresh("hzp")
        lines.append(f"have {rule} : {z.base} ^ ({z.k} : ℤ) = {z.base} ^ {z.k} := zpow_ofNat {arg} {z.k}")
        if z.negative:
            neg = fresh("hzp")
            lines += [f"have {neg} : {z.text} = ({z.base} ^ ({z.k} : ℤ))⁻¹ := zpow_neg {arg} {z.k}",
                      f"rw [{rule}] at {neg}"]
            rule = neg
        where = [loc for loc, text in texts.items() if z.text in text]
        if where == ["⊢"]:
            lines.append(f"rw [{rule}]")
        elif where:
            lines.append(f"rw [{rule}] at {' '.join(where)}")
    return lines
