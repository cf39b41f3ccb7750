"""Typed certificates: one dataclass per certificate kind, with ``to_json``/``from_json``.

Producers (solvers, rewrites, search) build these and store ``to_json()`` in a step; the kernel
reads every certificate back with ``from_json``, which checks the *shape* (types, fields) and
raises :class:`~prover.kernel.ir.IRError` on anything else. Expressions stay strings of the
term grammar (:mod:`prover.kernel.terms`): the kernel parses them itself when it checks. The
meaning of each field is the docstring of ``prover/ir.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prover.kernel.ir import IRError

Json = dict[str, Any]


def _obj(d: Any, what: str) -> Json:
    if not isinstance(d, dict):
        raise IRError(f"{what}: expected an object")
    return d


def _list(d: Any, what: str) -> list:
    if d is None:
        return []
    if not isinstance(d, list):
        raise IRError(f"{what}: expected a list")
    return d


def _expr(d: Any, what: str) -> str:
    if isinstance(d, int) and not isinstance(d, bool):
        return str(d)
    if not isinstance(d, str):
        raise IRError(f"{what}: expected an expression string, got {type(d).__name__}")
    return d


def _index(d: Any, what: str) -> int:
    if not isinstance(d, int) or isinstance(d, bool):
        raise IRError(f"{what}: expected a hypothesis index, got {d!r}")
    return d


def _relation(d: Any, what: str) -> Json:
    d = _obj(d, what)
    return {"lhs": _expr(d.get("lhs"), what), "op": d.get("op"), "rhs": _expr(d.get("rhs"), what)}


# ---------------------------------------------------------------- close


@dataclass(frozen=True)
class SosTerm:
    """``coeff · Π slack(H_k for k in mult) · poly²``."""

    coeff: str
    poly: str
    mult: tuple[int, ...] = ()

    def to_json(self) -> Json:
        return {"coeff": self.coeff, "mult": list(self.mult), "poly": self.poly}

    @staticmethod
    def from_json(d: Any, what: str = "term") -> SosTerm:
        d = _obj(d, what)
        return SosTerm(_expr(d.get("coeff"), f"{what} coeff"), _expr(d.get("poly"), f"{what} poly"),
                       tuple(_index(k, f"{what} mult") for k in _list(d.get("mult"), f"{what} mult")))


@dataclass(frozen=True)
class EqTerm:
    """``poly · eq(H_hyp)`` for an equality hypothesis ``hyp``."""

    hyp: int
    poly: str

    def to_json(self) -> Json:
        return {"hyp": self.hyp, "poly": self.poly}

    @staticmethod
    def from_json(d: Any, what: str = "eq_terms") -> EqTerm:
        d = _obj(d, what)
        return EqTerm(_index(d.get("hyp"), what), _expr(d.get("poly"), f"{what} poly"))


def _eq_terms(d: Any, what: str) -> tuple[EqTerm, ...]:
    return tuple(EqTerm.from_json(t, f"{what}[{j}]") for j, t in enumerate(_list(d, what)))


@dataclass(frozen=True)
class SosCertificate:
    """``slack(target) = Σ terms + Σ eq_terms`` exactly."""

    terms: tuple[SosTerm, ...] = ()
    eq_terms: tuple[EqTerm, ...] = ()

    def to_json(self) -> Json:
        return {"method": "sos", "terms": [t.to_json() for t in self.terms],
                "eq_terms": [t.to_json() for t in self.eq_terms]}


@dataclass(frozen=True)
class PositivityCertificate:
    """``slack(target)`` has its sign by the kernel's structural positivity rules."""

    def to_json(self) -> Json:
        return {"method": "positivity"}


CloseCertificate = SosCertificate | PositivityCertificate


def close_from_json(d: Any, what: str = "certificate") -> CloseCertificate:
    d = _obj(d, what)
    method = d.get("method")
    if method == "positivity":
        return PositivityCertificate()
    if method == "sos":
        return SosCertificate(tuple(SosTerm.from_json(t, f"term {i}") for i, t in enumerate(_list(d.get("terms"), "terms"))),
                              _eq_terms(d.get("eq_terms"), "eq_terms"))
    raise IRError(f"unknown close method {method!r} (expected 'sos' or 'positivity')")


# ---------------------------------------------------------------- new hypotheses


@dataclass(frozen=True)
class NewHypothesis:
    """Hypothesis ``index`` of the subgoal, proved by a close certificate over the goal's context."""

    index: int
    proof: CloseCertificate

    def to_json(self) -> Json:
        return {"index": self.index, "proof": self.proof.to_json()}

    @staticmethod
    def from_json(d: Any, what: str = "new_hypotheses") -> NewHypothesis:
        d = _obj(d, what)
        if not isinstance(d.get("proof"), dict):
            raise IRError(f"{what} must be {{'index': int, 'proof': {{...}}}}")
        return NewHypothesis(_index(d.get("index"), what), close_from_json(d["proof"], f"{what} proof"))


def _new_hyps(d: Any) -> tuple[NewHypothesis, ...]:
    return tuple(NewHypothesis.from_json(e, f"new_hypotheses[{k}]") for k, e in enumerate(_list(d, "new_hypotheses")))


# ---------------------------------------------------------------- rewrite / scale


@dataclass(frozen=True)
class LemmaApplication:
    """``coefficient · (B − A)`` for the catalogue lemma ``lemma`` instantiated with ``instance``.

    ``side_equalities`` maps the index of an equality side condition to equality terms of the
    goal: the instantiated side condition's slack equals ``Σ poly · eq(H_hyp)`` (weighted AM-GM's
    ``w₁ + … + w₄ = 1`` with the weights ``a, b, c, d`` under ``a + b + c + d = 1``); without an
    entry it must be an identity."""

    lemma: str
    instance: dict[str, str]
    coefficient: str = "1"
    side_equalities: tuple[tuple[int, tuple[EqTerm, ...]], ...] = ()

    def to_json(self) -> Json:
        d: Json = {"lemma": self.lemma, "instance": dict(self.instance), "coefficient": self.coefficient}
        if self.side_equalities:
            d["side_equalities"] = {str(i): [t.to_json() for t in ts] for i, ts in self.side_equalities}
        return d


@dataclass(frozen=True)
class HypothesisApplication:
    """``coefficient · slack(H_hypothesis)`` for an inequality hypothesis of the goal."""

    hypothesis: int
    coefficient: str = "1"

    def to_json(self) -> Json:
        return {"hypothesis": self.hypothesis, "coefficient": self.coefficient}


@dataclass(frozen=True)
class FactApplication:
    """``coefficient · slack(fact)`` for an inequality proved by its own close certificate."""

    fact: Json           # {"lhs": str, "op": str, "rhs": str}
    proof: CloseCertificate
    coefficient: str = "1"

    def to_json(self) -> Json:
        return {"fact": dict(self.fact), "proof": self.proof.to_json(), "coefficient": self.coefficient}


Application = LemmaApplication | HypothesisApplication | FactApplication


def application_from_json(d: Any, what: str) -> Application:
    d = _obj(d, what)
    coeff = _expr(d.get("coefficient", "1"), f"{what} coefficient")
    if "hypothesis" in d and "fact" in d:
        raise IRError(f"{what}: give either 'hypothesis' or 'fact', not both")
    if "hypothesis" in d:
        return HypothesisApplication(_index(d["hypothesis"], what), coeff)
    if "fact" in d:
        if not isinstance(d.get("proof"), dict):
            raise IRError(f"{what}: a fact needs a close certificate in 'proof'")
        return FactApplication(_relation(d["fact"], f"{what} fact"), close_from_json(d["proof"], f"{what} proof"), coeff)
    inst = d.get("instance")
    if not isinstance(d.get("lemma"), str) or not isinstance(inst, dict):
        raise IRError(f"{what}: expected an object with 'lemma', 'instance', 'coefficient'")
    side = d.get("side_equalities", {})
    if not isinstance(side, dict):
        raise IRError(f"{what}: 'side_equalities' must map side-condition indices to equality terms")
    eqs = tuple(sorted((_index(_int_key(k, what), what), _eq_terms(v, f"{what} side_equalities[{k}]"))
                       for k, v in side.items()))
    return LemmaApplication(d["lemma"], {str(k): _expr(v, f"{what} instance of {k}") for k, v in inst.items()},
                            coeff, eqs)


def _int_key(k: Any, what: str) -> int:
    """A JSON object key that names an index (``"8"``)."""
    if isinstance(k, str) and k.isdigit():
        return int(k)
    raise IRError(f"{what}: side-condition index {k!r} is not a nonnegative integer")


@dataclass(frozen=True)
class LinearCertificate:
    """``rewrite`` (no applications) and ``scale``:
    ``slack(G) = multiplier · slack(G') + Σ c_k (B_k − A_k) + Σ eq_terms``."""

    multiplier: str
    eq_terms: tuple[EqTerm, ...] = ()
    applications: tuple[Application, ...] = ()
    new_hypotheses: tuple[NewHypothesis, ...] = ()

    def to_json(self) -> Json:
        d: Json = {"multiplier": self.multiplier, "eq_terms": [t.to_json() for t in self.eq_terms],
                   "new_hypotheses": [h.to_json() for h in self.new_hypotheses]}
        if self.applications:
            d["applications"] = [a.to_json() for a in self.applications]
        return d

    @staticmethod
    def from_json(d: Any) -> LinearCertificate:
        d = _obj(d, "certificate")
        if "multiplier" not in d:
            raise IRError("missing 'multiplier'")
        return LinearCertificate(
            _expr(d["multiplier"], "multiplier"), _eq_terms(d.get("eq_terms"), "eq_terms"),
            tuple(application_from_json(a, f"application {k}") for k, a in enumerate(_list(d.get("applications"), "applications"))),
            _new_hyps(d.get("new_hypotheses")))


# ---------------------------------------------------------------- split


@dataclass(frozen=True)
class SignSplit:
    """Cases ``G + [expr >= 0]`` and ``G + [expr <= 0]``."""

    expr: str

    def to_json(self) -> Json:
        return {"cases": "sign", "expr": self.expr}


@dataclass(frozen=True)
class OrderSplit:
    """One case per ordering of ``variables`` (modulo ``symmetry``), each adding its chain."""

    variables: tuple[str, ...]
    symmetry: str = "none"
    orderings: tuple[tuple[str, ...], ...] | None = None

    def to_json(self) -> Json:
        d: Json = {"cases": "order", "variables": list(self.variables), "symmetry": self.symmetry}
        if self.orderings is not None:
            d["orderings"] = [list(o) for o in self.orderings]
        return d


def split_from_json(d: Any) -> SignSplit | OrderSplit:
    d = _obj(d, "certificate")
    cases = d.get("cases")
    if cases == "sign":
        return SignSplit(_expr(d.get("expr"), "expr"))
    if cases != "order":
        raise IRError(f"unknown split {cases!r} (expected 'sign' or 'order')")
    names = d.get("variables")
    if not isinstance(names, list) or not all(isinstance(v, str) for v in names):
        raise IRError("'variables' must list at least two distinct variables of the goal")
    orderings = d.get("orderings")
    if orderings is not None:
        if not isinstance(orderings, list) or not all(isinstance(o, list) and all(isinstance(v, str) for v in o)
                                                      for o in orderings):
            raise IRError("'orderings' must be lists of variable names")
        orderings = tuple(tuple(o) for o in orderings)
    symmetry = d.get("symmetry") or "none"
    if symmetry not in ("none", "full", "cyclic"):
        raise IRError(f"unknown symmetry {symmetry!r}")
    return OrderSplit(tuple(names), symmetry, orderings)


# ---------------------------------------------------------------- introduce / substitute


def _str_map(d: Any, what: str) -> dict[str, str]:
    if not isinstance(d, dict) or not all(isinstance(k, str) for k in d):
        raise IRError(f"{what} must map variable names to expressions")
    return {k: _expr(v, f"{what} of {k}") for k, v in d.items()}


@dataclass(frozen=True)
class IntroduceCertificate:
    """New variables ``v := definitions[v]``; ``new_hypotheses`` prove the subgoal's new facts."""

    definitions: dict[str, str]
    new_hypotheses: tuple[NewHypothesis, ...] = ()

    def to_json(self) -> Json:
        return {"definitions": dict(self.definitions), "new_hypotheses": [h.to_json() for h in self.new_hypotheses]}

    @staticmethod
    def from_json(d: Any) -> IntroduceCertificate:
        d = _obj(d, "certificate")
        defs = _str_map(d.get("definitions"), "'definitions'")
        if not defs:
            raise IRError("'definitions' must map new variables to expressions")
        return IntroduceCertificate(defs, _new_hyps(d.get("new_hypotheses")))


@dataclass(frozen=True)
class SubstituteCertificate:
    """``x = substitution[x](y)``, ``y = inverse[y](x)``; ``eq_terms[x]`` certify ``f(g(x)) = x``
    modulo the equality hypotheses."""

    substitution: dict[str, str]
    inverse: dict[str, str]
    eq_terms: dict[str, tuple[EqTerm, ...]] = field(default_factory=dict)
    new_hypotheses: tuple[NewHypothesis, ...] = ()

    def to_json(self) -> Json:
        return {"substitution": dict(self.substitution), "inverse": dict(self.inverse),
                "eq_terms": {x: [t.to_json() for t in ts] for x, ts in self.eq_terms.items()},
                "new_hypotheses": [h.to_json() for h in self.new_hypotheses]}

    @staticmethod
    def from_json(d: Any) -> SubstituteCertificate:
        d = _obj(d, "certificate")
        if not isinstance(d.get("substitution"), dict) or not isinstance(d.get("inverse"), dict):
            raise IRError("'substitution' and 'inverse' must be objects")
        eq = d.get("eq_terms") or {}
        if not isinstance(eq, dict):
            raise IRError("'eq_terms' must map variables of the goal to lists of equality terms")
        return SubstituteCertificate(_str_map(d["substitution"], "'substitution'"), _str_map(d["inverse"], "'inverse'"),
                                     {str(x): _eq_terms(v, f"eq_terms of {x}") for x, v in eq.items()},
                                     _new_hyps(d.get("new_hypotheses")))


# ---------------------------------------------------------------- combine


#: At most this many factors in one product term of a combine certificate.
MAX_COMBINE_FACTORS = 8


@dataclass(frozen=True)
class CombineTerm:
    """``coeff · Π slack(subgoal i for i in factors)``; without factors, the constant ``coeff``."""

    coeff: str
    factors: tuple[int, ...] = ()

    def to_json(self) -> Json:
        return {"coeff": self.coeff, "factors": list(self.factors)}

    @staticmethod
    def from_json(d: Any, what: str = "term") -> CombineTerm:
        d = _obj(d, what)
        factors = tuple(_index(k, f"{what} factors") for k in _list(d.get("factors"), f"{what} factors"))
        if len(factors) > MAX_COMBINE_FACTORS:
            raise IRError(f"{what}: more than {MAX_COMBINE_FACTORS} factors")
        return CombineTerm(_expr(d.get("coeff"), f"{what} coeff"), factors)


@dataclass(frozen=True)
class CombineCertificate:
    """``combine``: ``slack(G) = Σ_j coeff_j · Π_{i ∈ factors_j} slack(G_i)`` exactly."""

    terms: tuple[CombineTerm, ...]

    def to_json(self) -> Json:
        return {"terms": [t.to_json() for t in self.terms]}

    @staticmethod
    def from_json(d: Any) -> CombineCertificate:
        d = _obj(d, "certificate")
        terms = tuple(CombineTerm.from_json(t, f"term {j}") for j, t in enumerate(_list(d.get("terms"), "terms")))
        if not terms:
            raise IRError("a combine certificate needs at least one term")
        return CombineCertificate(terms)


# ---------------------------------------------------------------- square


@dataclass(frozen=True)
class SquareCertificate:
    """``square``: no fields; the subgoals ``0 <= L`` and ``S² <= L²`` are checked against the goal
    ``S <= L`` (``prover/ir.py``). Any field is refused, so that nothing is silently ignored."""

    def to_json(self) -> Json:
        return {}

    @staticmethod
    def from_json(d: Any) -> SquareCertificate:
        d = _obj(d, "certificate")
        if d:
            raise IRError(f"a square certificate has no fields, found {sorted(map(str, d))[:5]}")
        return SquareCertificate()


#: The monotone functions of a ``monotone`` step: ``Real.sqrt`` and ``Real.rpow`` with a rational
#: exponent ``r > 0`` that is not an integer.
MONOTONE_FUNCTIONS = ("sqrt", "rpow", "exp", "log")


@dataclass(frozen=True)
class MonotoneCertificate:
    """``monotone``: the goal ``f(a) <= f(b)`` (``f(b) >= f(a)``, strict ``<``/``>``) with ``f`` one of
    :data:`MONOTONE_FUNCTIONS`; ``small``/``big`` are ``a``/``b``, ``exponent`` the rational
    ``r`` of ``rpow`` (absent otherwise). The subgoals ``a <= b`` and, where Mathlib's lemma
    needs it, ``0 <= a`` (``0 < a`` for ``log``) are checked against them (``prover/ir.py``)."""

    function: str
    small: str
    big: str
    exponent: str | None = None

    def to_json(self) -> Json:
        d: Json = {"function": self.function, "small": self.small, "big": self.big}
        if self.exponent is not None:
            d["exponent"] = self.exponent
        return d

    @staticmethod
    def from_json(d: Any) -> MonotoneCertificate:
        d = _obj(d, "certificate")
        extra = sorted(set(map(str, d)) - {"function", "small", "big", "exponent"})
        if extra:
            raise IRError(f"a monotone certificate has no fields {extra[:5]}")
        f = d.get("function")
        if f not in MONOTONE_FUNCTIONS:
            raise IRError(f"monotone: function must be one of {MONOTONE_FUNCTIONS}, got {f!r}")
        exp = d.get("exponent")
        if f == "sqrt" and exp is not None:
            raise IRError("monotone: sqrt has no exponent")
        if f == "rpow" and exp is None:
            raise IRError("monotone: rpow needs an exponent")
        return MonotoneCertificate(f, _expr(d.get("small"), "small"), _expr(d.get("big"), "big"),
                                   None if exp is None else _expr(exp, "exponent"))
