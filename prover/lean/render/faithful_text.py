"""The front-end's faithful statement (kernel terms: what Lean reads) printed as Lean text.

Why: where the user's own text cannot be used verbatim (a shadowed hypothesis name, the LIPS
``sqrt`` notation, an interval after ``open Set``), the rendered theorem is ours. It must state
what the user stated, not the front-end's sympy form, which sympy simplified while building it
(``b ^ 2 / b`` is ``b``, ``(7b³)² / (4b²)³`` is ``49/64``): a file proving ``b = b`` under the
user's theorem name would claim a theorem the user did not state. Each kernel node is one Lean
operation, printed as the renderer prints it elsewhere (``Real.sqrt``, ``Real.exp``, ``|x|``,
``Real.pi``), so the meaning is the faithful term's; the proof then bridges our text to the
search's goal as it does for the user's own text.
"""

from __future__ import annotations

from fractions import Fraction

from prover.kernel import terms as T
from prover.lean.syntax import _ADD, _ATOM, _MUL, _NEG, _POW, _wrap, lean_ident
from prover.problem import FaithfulStatement

_OPS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">", "=": "=", "!=": "≠"}


def faithful_from_json(saved: dict, variables: list[str]) -> FaithfulStatement | None:
    """The faithful statement a proof file saved (``problem.statement``), read by the kernel's reader;
    None when it is malformed (our statement then prints the sympy relations, as without one)."""
    from prover.kernel.ir import IRError, read_rel

    try:
        return FaithfulStatement(tuple(read_rel(h, variables) for h in saved.get("hypotheses", ())),
                                 read_rel(saved.get("goal"), variables),
                                 tuple(read_rel(g, variables) for g in saved.get("goal_parts", ())))
    except (IRError, TypeError):
        return None


def faithful_rel_text(rel: T.Rel) -> str:
    """``rel`` as a Lean proposition over ℝ, its operator as written; a side without variables is
    ascribed ``(… : ℝ)`` (numerals alone elaborate at ℕ)."""
    left = _text(rel.lhs)[0]
    if not T.variables_of(rel.lhs) and not T.variables_of(rel.rhs):
        left = f"({left} : ℝ)"
    return f"{left} {_OPS[rel.op]} {_text(rel.rhs)[0]}"


def _number(q: Fraction) -> tuple[str, int]:
    if q.denominator == 1:
        return (str(q.numerator), _ATOM) if q >= 0 else (f"-{-q.numerator}", _NEG)
    if q < 0:
        return f"-({-q.numerator} / {q.denominator})", _NEG
    return f"{q.numerator} / {q.denominator}", _MUL


def _text(t: T.Term) -> tuple[str, int]:
    if isinstance(t, T.Num):
        return _number(t.value)
    if isinstance(t, T.Var):
        return lean_ident(t.name), _ATOM
    if isinstance(t, T.Const):
        return ("Real.pi", _ATOM) if t.name == "pi" else ("Real.exp 1", _POW)
    if isinstance(t, T.Add):
        return _sum(t.args), _ADD
    if isinstance(t, T.Mul):
        return _product(t.args)
    if isinstance(t, T.Pow):
        return _power(t.base, t.exp)
    if isinstance(t, T.Rpow):
        exponent = _text(t.exp)[0]
        return f"{_wrap(_text(t.base), _ATOM)} ^ ({exponent} : ℝ)", _POW
    if isinstance(t, T.Sqrt):
        return f"Real.sqrt {_wrap(_text(t.arg), _ATOM)}", _POW
    if t.name == "abs":
        inner = _text(t.arg)[0]
        return (f"|({inner})|" if "|" in inner else f"|{inner}|"), _ATOM
    return f"Real.{t.name} {_wrap(_text(t.arg), _ATOM)}", _POW


def _negated(t: T.Term) -> T.Term | None:
    """``u`` when ``t`` is ``-u`` as the kernel writes it (a negative numeral, or a product with a
    negative numeral first), else None."""
    if isinstance(t, T.Num) and t.value < 0:
        return T.Num(-t.value)
    if isinstance(t, T.Mul) and isinstance(t.args[0], T.Num) and t.args[0].value < 0:
        c = -t.args[0].value
        rest = t.args[1:] if c == 1 else (T.Num(c), *t.args[1:])
        return rest[0] if len(rest) == 1 else T.Mul(rest)
    return None


def _sum(args: tuple[T.Term, ...]) -> str:
    pieces = [_wrap(_text(args[0]), _ADD)]
    for a in args[1:]:
        minus = _negated(a)
        pieces.append(f"- {_wrap(_text(minus), _MUL)}" if minus is not None else f"+ {_wrap(_text(a), _MUL)}")
    return " ".join(pieces)


def _product(args: tuple[T.Term, ...]) -> tuple[str, int]:
    minus = _negated(T.Mul(args))
    if minus is not None:
        return f"-{_wrap(_text(minus), _POW)}", _NEG
    num = _factors([a for a in args if not (isinstance(a, T.Pow) and a.exp < 0)])
    den = [T.Pow(a.base, -a.exp) if a.exp != -1 else a.base for a in args if isinstance(a, T.Pow) and a.exp < 0]
    if not den:
        return num
    return f"{_wrap(num, _MUL)} / {_wrap(_factors(den), _POW)}", _MUL


def _factors(terms: list[T.Term]) -> tuple[str, int]:
    """``t₁ * t₂ * …`` (``*`` is left-associative: a later factor that is itself a product or a
    quotient is parenthesised); ``1`` for none; one factor as it is."""
    texts = [_text(t) for t in terms]
    if len(texts) <= 1:
        return texts[0] if texts else ("1", _ATOM)
    return " * ".join(_wrap(x, _MUL + 1) if i else _wrap(x, _MUL) for i, x in enumerate(texts)), _MUL


def _power(base: T.Term, n: int) -> tuple[str, int]:
    if n < 0:
        inner = _wrap(_text(base), _ATOM) if n == -1 else f"({_wrap(_text(base), _ATOM)} ^ {-n})"
        return f"{inner}⁻¹", _ATOM
    return f"{_wrap(_text(base), _ATOM)} ^ {n}", _POW
