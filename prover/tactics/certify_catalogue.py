"""Fill in and verify the catalogue's certificates: ``python -m prover.tactics.certify_catalogue``.

Entries with ``"certify": {"method": "sos"}`` get a close certificate from the exact SOS closer
(:func:`prover.solvers.sos.sos_certificate`: numerical SDP, then exact rounding and an exact PSD
check); ``{"method": "sos_times_sum", "sum_of": [i, ...]}`` certifies ``S · slack`` where ``S`` is
the sum of the listed side-condition slacks and divides back (``q²/S = Σ_k s_k (q/S)²``), which
needs ``S > 0`` — so those side conditions must be strict. Every certificate (hand-written or
generated) is then verified twice, exactly: by expanding the identity with sympy, and by the
kernel. ``--check`` verifies only (exit 1 on any failure); nothing here uses floats to accept.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import sympy as sp

from prover.ir import Goal, expr_from_str, expr_to_str
from prover.kernel.certificates import EqTerm, SosCertificate, SosTerm
from prover.problem import Relation
from prover.tactics.catalogue import entry_to_lemma, lemmas_dir, parse_relation, read_file
from prover.tactics.lemma import LemmaStatement


def lemma_goal(lem: LemmaStatement) -> Goal:
    """The close obligation of a kernel-trusted lemma: ``lhs <= rhs`` over its side conditions."""
    return Goal(tuple(lem.variables), tuple(lem.side_conditions), Relation(lem.lhs, "<=", lem.rhs))


def expansion_error(goal: Goal, cert: dict[str, Any]) -> str | None:
    """Independent exact check of an ``sos`` certificate by sympy (None when it holds)."""
    if cert.get("method") != "sos":
        return f"method {cert.get('method')!r} is not 'sos'"
    vs = list(goal.variables)
    total = sp.Integer(0)
    for t in cert.get("terms", []):
        c = sp.Rational(t["coeff"])
        if c < 0:
            return f"negative coefficient {c}"
        prod = c * expr_from_str(t["poly"], vs) ** 2
        for k in t["mult"]:
            h = goal.hypotheses[k]
            if h.op not in ("<=", "<", ">=", ">"):
                return f"multiplier {k} is not an inequality"
            prod *= h.slack()
        total += prod
    for t in cert.get("eq_terms", []):
        h = goal.hypotheses[t["hyp"]]
        if h.op != "=":
            return f"eq_term hypothesis {t['hyp']} is not an equality"
        total += expr_from_str(t["poly"], vs) * (h.lhs - h.rhs)
    diff = sp.cancel(sp.together(goal.target.slack() - total))
    return None if diff == 0 else f"slack - certificate = {diff}"


def kernel_error(goal: Goal, cert: dict[str, Any]) -> str | None:
    from prover.kernel.algebra import KernelError
    from prover.verify import check_close

    try:
        check_close(goal, cert)
    except KernelError as exc:
        return str(exc)
    return None


def generate(entry: dict[str, Any], time_limit: float) -> dict[str, Any] | None:
    from prover.solvers.sos import sos_certificate

    spec = entry["certify"]
    vs = list(entry["variables"])
    sides = tuple(parse_relation(s, vs) for s in entry["side_conditions"])
    lhs, rhs = expr_from_str(entry["lhs"], vs), expr_from_str(entry["rhs"], vs)
    if spec["method"] == "sos":
        return sos_certificate(Goal(tuple(vs), sides, Relation(lhs, "<=", rhs)), time_limit)
    if spec["method"] == "sos_times_sum":
        idx = list(spec["sum_of"])
        if not all(sides[k].strict for k in idx):
            raise ValueError(f"{entry['name']}: sos_times_sum needs strict side conditions {idx}")
        S = sp.Add(*[sides[k].slack() for k in idx])
        weak = tuple(Relation(r.lhs, ">=" if r.op in (">", ">=") else "<=", r.rhs) if r.strict else r
                     for r in sides)
        base = sos_certificate(Goal(tuple(vs), weak, Relation(sp.expand(S * lhs), "<=", sp.expand(S * rhs))),
                               time_limit)
        if base is None:
            return None
        terms = tuple(SosTerm(t["coeff"], expr_to_str(sp.cancel(expr_from_str(t["poly"], vs) / S)),
                              (*t["mult"], k))
                      for t in base["terms"] for k in idx)
        eqs = tuple(EqTerm(t["hyp"], expr_to_str(sp.cancel(expr_from_str(t["poly"], vs) / S)))
                    for t in base.get("eq_terms", []))
        return SosCertificate(terms, eqs).to_json()
    raise ValueError(f"{entry['name']}: unknown certify method {spec['method']!r}")


def verify_entry(entry: dict[str, Any], source: str) -> list[str]:
    lem = entry_to_lemma(entry, source)
    if lem.trust != "kernel":
        return []
    goal = lemma_goal(lem)
    errs = [e for e in (expansion_error(goal, lem.certificate or {}), kernel_error(goal, lem.certificate or {}))
            if e]
    return [f"{source}: {lem.name}: {e}" for e in errs]


def dump_catalogue(data: dict[str, Any]) -> str:
    """Readable JSON: one field per line, one certificate term per line."""
    head = {k: v for k, v in data.items() if k != "lemmas"}
    out = ["{"] + [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    out.append(' "lemmas": [')
    entries = []
    for e in data["lemmas"]:
        fields = []
        for k, v in e.items():
            if k == "certificate" and isinstance(v, dict):
                terms = ",\n".join(f"      {json.dumps(t)}" for t in v.get("terms", []))
                rest = {kk: vv for kk, vv in v.items() if kk != "terms"}
                inner = ", ".join(f"{json.dumps(kk)}: {json.dumps(vv)}" for kk, vv in rest.items())
                fields.append(f'   "certificate": {{{inner}, "terms": [\n{terms}]}}')
            else:
                fields.append(f"   {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
        entries.append("  {\n" + ",\n".join(fields) + "}")
    out.append(",\n".join(entries))
    out.append(" ]\n}\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="verify only; do not generate or write")
    ap.add_argument("--regenerate", action="store_true", help="regenerate certificates of `certify` entries")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--dir", type=Path, default=None)
    args = ap.parse_args(argv)
    directory = args.dir or lemmas_dir()
    failures: list[str] = []
    count = 0
    for path in sorted(directory.glob("*.json")):
        read_file(path)  # validates the format
        data = json.loads(path.read_text(encoding="utf-8"))
        changed = False
        for entry in data["lemmas"]:
            count += 1
            if "certify" in entry and not args.check and (args.regenerate or "certificate" not in entry):
                cert = generate(entry, args.time_limit)
                if cert is None:
                    failures.append(f"{path.name}: {entry['name']}: no certificate found")
                    continue
                entry["certificate"] = cert
                changed = True
            failures += verify_entry(entry, path.name)
        if changed:
            path.write_text(dump_catalogue(data), encoding="utf-8")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{count} lemmas, {len(failures)} problems", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
