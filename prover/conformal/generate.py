"""Calibration data of our own: rendered kernel proofs plus corrupted variants, labelled exactly.

* :func:`textbook_proofs` builds proofs programmatically (no search needed): a textbook
  inequality closed by an exact sum-of-squares certificate, under a random chain of exact rewrites
  (scale by a positive constant or by a positive variable, move a term across, flip the sides). Each
  is checked by the kernel when it is available.
* :func:`corrupt` injects ONE wrong step into any proof: a coefficient of a close certificate or
  the multiplier of a rewrite is perturbed, so that step's identity is false; the claims resting on
  it become unsupported.
* :func:`build_set` renders proofs (clean, or corrupted with probability ``corrupt_fraction``) into
  claim graphs; :func:`proofs_from_run` reads ``<run>/proofs/*.json`` of ``prover eval``.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import sympy as sp

from prover.conformal.claims import ClaimGraph
from prover.conformal.io import DataError
from prover.conformal.proof_claims import render_proof
from prover.ir import Goal, IRError, Proof, Step, expr_to_str
from prover.kernel.certificates import LinearCertificate, SosCertificate, SosTerm
from prover.problem import Hypothesis, Problem, Relation, var

# (name, variables, slack-sos terms [(coeff, q)], goal lhs, goal rhs) with slack = lhs - rhs
_R = sp.Rational


def _templates(rng: random.Random) -> list[tuple[str, list[str], list[tuple[sp.Rational, str]], str, str]]:
    k = rng.randint(2, 5)
    return [
        ("two squares", ["x", "y"], [(_R(1), "x - y")], "x**2 + y**2", "2*x*y"),
        ("square of a sum", ["x", "y"], [(_R(1), "x - y")], "(x + y)**2", "4*x*y"),
        ("three squares", ["x", "y", "z"], [(_R(1, 2), "x - y"), (_R(1, 2), "y - z"), (_R(1, 2), "z - x")],
         "x**2 + y**2 + z**2", "x*y + y*z + z*x"),
        ("weighted square", ["x", "y"], [(_R(1), f"x - {k}*y")], f"x**2 + {k * k}*y**2", f"{2 * k}*x*y"),
        ("quadratic mean", ["x", "y"], [(_R(1), "x - y")], "2*(x**2 + y**2)", "(x + y)**2"),
        ("quartic", ["x", "y"], [(_R(1), "(x - y)*(x + y/2)"), (_R(3, 4), "(x - y)*y")],
         "x**4 + y**4", "x**3*y + x*y**3"),
        ("three-variable mean", ["x", "y", "z"], [(_R(1), "x - y"), (_R(1), "y - z"), (_R(1), "z - x")],
         "3*(x**2 + y**2 + z**2)", "(x + y + z)**2"),
        ("tangent line", ["x"], [(_R(1), f"x - {k}")], f"x**2 + {k * k}", f"{2 * k}*x"),
        ("product", ["x", "y"], [(_R(1), "x*y - 1")], "x**2*y**2 + 1", "2*x*y"),
    ]


def _goal(names: list[str], hyps: tuple[Relation, ...], lhs: sp.Expr, op: str, rhs: sp.Expr) -> Goal:
    return Goal(tuple(names), hyps, Relation(lhs, op, rhs))


def textbook_proof(rng: random.Random, index: int) -> Proof:
    """One proof: a sum-of-squares close under 0–4 random exact rewrites."""
    name, vs, terms, lhs_s, rhs_s = rng.choice(_templates(rng))
    syms = {v: var(v) for v in vs + ["t"]}
    positive_t = rng.random() < 0.5
    names = vs + (["t"] if positive_t else [])
    hyps = (Relation(syms["t"], ">", sp.Integer(0)),) if positive_t else ()
    lhs, rhs = sp.sympify(lhs_s, locals=syms), sp.sympify(rhs_s, locals=syms)
    goal = _goal(names, hyps, lhs, ">=", rhs)
    cert = SosCertificate(tuple(SosTerm(str(c), expr_to_str(sp.sympify(q, locals=syms))) for c, q in terms))
    step = Step("close", goal, [], cert.to_json(), note=name)
    for _ in range(rng.randint(0, 4)):
        g = step.goal.target
        kind = rng.choice(["const", "var", "move", "flip"] if positive_t else ["const", "move", "flip"])
        m: sp.Expr = sp.Integer(1)
        if kind == "const":
            m = sp.Integer(rng.randint(2, 6))
            new = Relation(sp.expand(m * g.lhs), g.op, sp.expand(m * g.rhs))
        elif kind == "var":
            m = syms["t"]
            new = Relation(sp.expand(m * g.lhs), g.op, sp.expand(m * g.rhs))
        elif kind == "move":
            terms_l = sp.Add.make_args(sp.expand(g.lhs))
            moved = rng.choice(terms_l)
            new = Relation(sp.expand(g.lhs - moved), g.op, sp.expand(g.rhs - moved))
        else:
            flipped = {">=": "<=", "<=": ">="}[g.op]
            new = Relation(g.rhs, flipped, g.lhs)
        parent_goal = step.goal.with_target(new)
        step = Step("rewrite", parent_goal, [step.goal], LinearCertificate(expr_to_str(m)).to_json(), [step],
                    note=kind)
    problem = Problem(f"textbook-{index:03d}", names,
                      [Hypothesis(f"h{i}", h) for i, h in enumerate(hyps)], step.goal.target,
                      source="generated: conformal.generate.textbook_proof")
    return Proof(problem, step, {"generator": "textbook", "template": name})


def textbook_proofs(n: int, seed: int = 0) -> list[Proof]:
    rng = random.Random(seed)
    return [textbook_proof(rng, i) for i in range(n)]


def _perturb(x: str, rng: random.Random) -> str:
    try:
        f = Fraction(x)
    except ValueError:
        return f"2*({x})"
    return str(f + rng.choice([1, 2, Fraction(1, 2)]))


def corrupt(proof: Proof, rng: random.Random) -> tuple[Proof, str]:
    """A copy of ``proof`` with one wrong step (and the path of that step)."""
    bad = Proof.from_json(copy.deepcopy(proof.to_json()))
    cands: list[tuple[Step, str]] = []

    def walk(s: Step, path: str) -> None:
        if (s.kind == "close" and s.certificate.get("method") == "sos" and s.certificate.get("terms")) or \
                (s.kind in ("rewrite", "scale") and "multiplier" in s.certificate):
            cands.append((s, path))
        for i, c in enumerate(s.children):
            walk(c, f"{path}/{i}")

    walk(bad.root, "root")
    if not cands:
        raise ValueError(f"{proof.problem.name}: no step with a certificate coefficient to corrupt")
    step, path = rng.choice(cands)
    if step.kind == "close":
        t = rng.choice(step.certificate["terms"])
        t["coeff"] = _perturb(t["coeff"], rng)
    else:
        step.certificate["multiplier"] = _perturb(step.certificate["multiplier"], rng)
    bad.meta = dict(bad.meta, conformal={"corrupted_step": path})
    return bad, path


def build_set(proofs: Iterable[Proof], corrupt_fraction: float = 0.3, seed: int = 0,
              require_kernel: bool = True) -> list[ClaimGraph]:
    """Render each proof, corrupted with probability ``corrupt_fraction``; kernel-rejected clean
    proofs are skipped (they are not kernel-checked proofs)."""
    return [ex for _, ex in iter_build_set(proofs, corrupt_fraction, seed, require_kernel) if ex is not None]


def iter_build_set(proofs: Iterable[Proof], corrupt_fraction: float = 0.3, seed: int = 0,
                   require_kernel: bool = True,
                   score: Callable[[ClaimGraph], None] | None = None) -> Iterator[tuple[Proof, ClaimGraph | None]]:
    """:func:`build_set` one proof at a time: yields ``(proof, claim graph)``, or ``(proof, None)``
    for a proof the kernel rejects, so that a caller can report progress and stop at a time
    budget. ``score(ex)``: called on each graph before it is yielded (e.g. storing scores)."""
    rng = random.Random(seed)
    for proof in proofs:
        if require_kernel and not _kernel_ok(proof):
            yield proof, None
            continue
        base = proof.problem.name
        if rng.random() < corrupt_fraction:
            bad, path = corrupt(proof, rng)
            ex = render_proof(bad, f"{base}~corrupt")
            ex.meta.update({"corrupted_step": path, "source": base})
        else:
            ex = render_proof(proof, base)
            ex.meta.update({"source": base})
        if score is not None:
            score(ex)
        yield proof, ex


def _kernel_ok(proof: Proof) -> bool:
    try:
        from prover.verify import check_proof
    except ImportError:
        return True  # no kernel yet: labels fall back to exact identity tests
    return bool(check_proof(proof).ok)


def proofs_from_run(run_dir: str | Path) -> list[Proof]:
    """The proofs an evaluation run wrote (``<run>/proofs/*.json``, format prover-proof)."""
    d = Path(run_dir) / "proofs"
    if not d.is_dir():
        raise DataError(f"{run_dir}: no proofs/ folder (is this a `prover eval` run directory?)")
    out = []
    for p in sorted(d.glob("*.json")):
        try:
            out.append(Proof.from_json(json.loads(p.read_text())))
        except (json.JSONDecodeError, IRError) as exc:
            raise DataError(f"{p}: not a proof file ({exc})") from None
    return out
