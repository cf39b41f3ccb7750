"""A small suite of |·| statements under non-strict sign hypotheses (issue #28): the forms of
Mathlib's ``abs_of_nonneg``/``abs_of_nonpos`` used inside inequalities, each over a few
arguments. ``python make_abs_signs.py`` writes ``abs_signs.jsonl`` (deterministic)."""

from __future__ import annotations

import json
from pathlib import Path

#: (argument p, its non-strict sign hypothesis "0 ≤ p"-equivalent, the variables' binders)
ARGUMENTS = [
    ("x", "(hx : 0 ≤ x)", "(x : ℝ)"),
    ("x - 1", "(hx : 1 ≤ x)", "(x : ℝ)"),
    ("x * y", "(hx : 0 ≤ x) (hy : 0 ≤ y)", "(x y : ℝ)"),
    ("x ^ 3", "(hx : 0 ≤ x)", "(x : ℝ)"),
]
#: statement forms in |p| and p (nonneg sign): true when 0 ≤ p
FORMS = [
    ("abs_eq", "|{p}| = {p}"),
    ("abs_ge", "|{p}| ≥ {p}"),
    ("abs_sq_ineq", "|{p}| ^ 2 + 1 ≥ 2 * ({p})"),
    ("abs_amgm", "|{p}| + 1 ≥ 2 * √({p})"),
]
#: the nonpositive side: p ≤ 0 forms
NEG_ARGUMENTS = [
    ("x", "(hx : x ≤ 0)", "(x : ℝ)"),
    ("x - 1", "(hx : x ≤ 1)", "(x : ℝ)"),
]
NEG_FORMS = [
    ("abs_eq_neg", "|{p}| = -({p})"),
    ("abs_add_self", "|{p}| + ({p}) = 0"),
]


def problems() -> list[dict]:
    out = []
    for forms, args, tag in ((FORMS, ARGUMENTS, "nonneg"), (NEG_FORMS, NEG_ARGUMENTS, "nonpos")):
        for fname, form in forms:
            for i, (p, hyp, binders) in enumerate(args, 1):
                name = f"{fname}_{tag}_{i}"
                stmt = f"theorem {name} {binders} {hyp} : {form.format(p=p)} := by sorry"
                out.append({"id": f"abs_signs/{name}", "family": fname, "lean": stmt,
                            "source": "abs_signs (generated)"})
    return out


if __name__ == "__main__":
    path = Path(__file__).with_name("abs_signs.jsonl")
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in problems()), encoding="utf-8")
    print(f"wrote {path} ({len(problems())} problems)")
