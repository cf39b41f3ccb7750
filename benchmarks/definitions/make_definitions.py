"""Statements with functions given by a defining equation, made from the train families.

Each chosen family statement ``theorem N (vars : ℝ) (hyps) : L op R`` is rewritten in one of three
textbook ways ("let F(a, b, c) = …"), which say the same thing once the definition is unfolded:

* ``lhs``: ``(F : ℝ → … → ℝ) (hF : ∀ vars, F vars = L)`` and the goal ``F vars op R`` (the
  parameters carry the variables' names: they shadow them inside the body);
* ``rhs``: the same for the right side, ``L op G vars``;
* ``affine``: ``(s : ℝ → ℝ) (hs : ∀ t, s t = 3 * t + 1)`` and the goal ``s (L) op s (R)``
  (an increasing map: same truth).

Per train family, its first seed and its first transformed statement; the FALSE variant of each
(``../families/false.jsonl``) goes through the same rewrite. Run from the repository root:
``python benchmarks/definitions/make_definitions.py`` (deterministic; rewrites the files).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
FAMILIES = HERE.parent / "families"
FORMS = ("lhs", "rhs", "affine")
OPS = ("≤", "≥", "<", ">", "=")


def _top_level(text: str, want) -> int:
    """Index of the last depth-0 position where ``want(text, i)`` holds (-1: none)."""
    depth, found = 0, -1
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and want(text, i):
            found = i
    return found


def split_statement(lean: str) -> tuple[str, str, list[str], str, str, str, str]:
    """``(head, binders after the variables, variables, L, op, R)`` of a family statement."""
    body = lean[:lean.rindex(":= by")].strip()
    colon = _top_level(body, lambda t, i: t[i] == ":")
    head, goal = body[:colon].strip(), body[colon + 1:].strip()
    k = _top_level(goal, lambda t, i: t[i] in OPS)
    lhs, op, rhs = goal[:k].strip(), goal[k], goal[k + 1:].strip()
    name, _, binders = head.removeprefix("theorem ").partition(" ")
    first = binders[:binders.index(")") + 1]
    variables = first.strip("()").split(":")[0].split()
    return name, binders[len(first):].strip(), variables, lhs, op, rhs, first


def rewrite(lean: str, form: str) -> str:
    name, rest, vs, lhs, op, rhs, first = split_statement(lean)
    arrow = " → ".join(["ℝ"] * (len(vs) + 1))
    fresh = {n: n if n not in vs else n + "_1" for n in ("F", "G", "s", "t")}
    args = " ".join(vs)
    if form == "lhs":
        F = fresh["F"]
        fn = f"({F} : {arrow}) (hF : ∀ {args}, {F} {args} = {lhs})"
        goal = f"{F} {args} {op} {rhs}"
    elif form == "rhs":
        G = fresh["G"]
        fn = f"({G} : {arrow}) (hG : ∀ {args}, {G} {args} = {rhs})"
        goal = f"{lhs} {op} {G} {args}"
    else:
        S, t = fresh["s"], fresh["t"]
        fn = f"({S} : ℝ → ℝ) (hs : ∀ {t}, {S} {t} = 3 * {t} + 1)"
        goal = f"{S} ({lhs}) {op} {S} ({rhs})"
    return f"theorem {name} {first} {fn} {rest} : {goal} := by sorry".replace("  ", " ")


def _chosen(lines: list[dict]) -> list[dict]:
    out, seen = [], {}
    for d in lines:
        fam = d["family"]
        key = (fam, d["transform"] == "seed")
        if key not in seen:
            seen[key] = d
            out.append(d)
    return out


def main() -> None:
    train = [json.loads(ln) for ln in (FAMILIES / "train.jsonl").read_text(encoding="utf-8").splitlines() if ln]
    false = {json.loads(ln)["true_id"]: json.loads(ln)
             for ln in (FAMILIES / "false.jsonl").read_text(encoding="utf-8").splitlines() if ln}
    true_out, false_out, known = [], [], {"_comment": "FALSE variants of the definitions suite: any 'proved' "
                                                      "is a soundness failure."}
    for i, d in enumerate(_chosen(train)):
        form = FORMS[i % len(FORMS)]
        ident = f"definitions/{d['family']}_{d['id'].rsplit('/', 1)[1]}"
        base = {"family": d["family"], "kind": form, "from": d["id"], "source": "definitions (generated)"}
        true_out.append({"id": ident, **base, "lean": rewrite(d["lean"], form)})
        f = false.get(d["id"])
        if f is not None:
            fid = ident + "__false"
            false_out.append({"id": fid, "true_id": ident, **base, "lean": rewrite(f["lean"], form),
                              "counterexample": f["counterexample"]})
            known[fid] = f"FALSE variant of {ident} (from {f['id']}); refuted at its `counterexample`"
    (HERE / "definitions.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in true_out),
                                            encoding="utf-8")
    (HERE / "false.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in false_out),
                                      encoding="utf-8")
    (HERE / "known_false.json").write_text(json.dumps(known, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(true_out)} statements, {len(false_out)} FALSE variants")


if __name__ == "__main__":
    main()
