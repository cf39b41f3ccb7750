"""Typed certificates (``prover/kernel/certificates.py``): every dataclass survives
``from_json(to_json(x))``, and no producer outside the kernel builds a certificate as a dict literal."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from prover.kernel.certificates import (
    EqTerm,
    FactApplication,
    HypothesisApplication,
    IntroduceCertificate,
    LemmaApplication,
    LinearCertificate,
    NewHypothesis,
    OrderSplit,
    PositivityCertificate,
    SignSplit,
    SosCertificate,
    SosTerm,
    SubstituteCertificate,
    application_from_json,
    close_from_json,
    split_from_json,
)

SOS = SosCertificate((SosTerm("1/2", "x - y", (0, 0)), SosTerm("3", "1")), (EqTerm(1, "x*y - 1"),))
FACT = FactApplication({"lhs": "x**2", "op": ">=", "rhs": "2*x - 1"}, SosCertificate((SosTerm("1", "x - 1"),)), "2")

CASES = [
    (SosTerm("2/3", "x**2 - y", (1, 2)), SosTerm.from_json),
    (SosTerm("1", "x"), SosTerm.from_json),
    (EqTerm(0, "x + 1/y"), EqTerm.from_json),
    (SOS, close_from_json),
    (SosCertificate(), close_from_json),
    (PositivityCertificate(), close_from_json),
    (NewHypothesis(3, SOS), NewHypothesis.from_json),
    (NewHypothesis(0, PositivityCertificate()), NewHypothesis.from_json),
    (LemmaApplication("amgm2", {"a": "x", "b": "y**2"}, "1/2"), lambda d: application_from_json(d, "app")),
    (HypothesisApplication(2, "x + 1"), lambda d: application_from_json(d, "app")),
    (FACT, lambda d: application_from_json(d, "app")),
    (LinearCertificate("1"), LinearCertificate.from_json),
    (LinearCertificate("1/(x + y)**2", (EqTerm(0, "x"),), (), (NewHypothesis(2, PositivityCertificate()),)),
     LinearCertificate.from_json),
    (LinearCertificate("2", applications=(LemmaApplication("amgm2", {"a": "x", "b": "y"}),
                                          HypothesisApplication(1), FACT)),
     LinearCertificate.from_json),
    (SignSplit("x - y"), split_from_json),
    (OrderSplit(("a", "b")), split_from_json),
    (OrderSplit(("a", "b", "c"), "cyclic", (("a", "b", "c"), ("a", "c", "b"))), split_from_json),
    (IntroduceCertificate({"t": "sqrt(x)"}), IntroduceCertificate.from_json),
    (IntroduceCertificate({"t": "x**(1/3)", "s": "x*y"}, (NewHypothesis(2, SOS),)), IntroduceCertificate.from_json),
    (SubstituteCertificate({"x": "y + 1"}, {"y": "x - 1"}), SubstituteCertificate.from_json),
    (SubstituteCertificate({"x": "3*x/(x + y)", "y": "3*y/(x + y)"}, {"x": "x", "y": "y"},
                           {"x": (EqTerm(0, "-x/(x + y)"),)}, (NewHypothesis(0, PositivityCertificate()),)),
     SubstituteCertificate.from_json),
]


@pytest.mark.parametrize("cert,read", CASES, ids=[f"{type(c).__name__}-{i}" for i, (c, _) in enumerate(CASES)])
def test_round_trip(cert, read):
    d = cert.to_json()
    assert read(d) == cert
    # what a proof file stores: plain JSON, read back the same
    assert read(json.loads(json.dumps(d))) == cert


# ------------------------------------------------------------------ no hand-built certificates

ROOT = Path(__file__).resolve().parent.parent / "prover"
#: ``prover/kernel`` defines and reads the certificates; ``prover/fuzz`` builds raw (and deliberately
#: damaged) certificate JSON to fuzz the kernel's reader, so it must not go through the types.
EXCLUDED = ("kernel", "fuzz")


def _const_keys(node: ast.Dict) -> dict[str, ast.expr]:
    return {k.value: v for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def certificate_literal(node: ast.Dict) -> str | None:
    """Why the dict literal looks like a hand-built certificate (None when it does not)."""
    keys = _const_keys(node)
    method = keys.get("method")
    if isinstance(method, ast.Constant) and method.value in ("sos", "positivity"):
        return f"close certificate (method {method.value!r})"
    for key in ("multiplier", "definitions", "cases"):
        if key in keys:
            return f"certificate with {key!r}"
    if {"substitution", "inverse"} <= keys.keys():
        return "substitute certificate"
    return None


def hand_built_certificates() -> list[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in EXCLUDED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                why = certificate_literal(node)
                if why:
                    out.append(f"prover/{rel}:{node.lineno}: {why}")
    return out


def test_the_scan_sees_hand_built_certificates():
    def found(src: str) -> str | None:
        node = ast.parse(src, mode="eval").body
        assert isinstance(node, ast.Dict)
        return certificate_literal(node)

    assert found('{"method": "sos", "terms": [], "eq_terms": []}')
    assert found('{"method": "positivity"}')
    assert found('{"multiplier": "1", "eq_terms": [], "new_hypotheses": []}')
    assert found('{"definitions": {"t": "sqrt(x)"}}')
    assert found('{"substitution": {}, "inverse": {}}')
    assert found('{"cases": "order", "variables": ["a", "b"]}')
    assert found('{"method": "coherent", "tau": 1}') is None      # a conformal calibration, not a certificate
    assert found('{"substitution": "x"}') is None


def test_no_hand_built_certificates_outside_the_kernel():
    assert hand_built_certificates() == []
