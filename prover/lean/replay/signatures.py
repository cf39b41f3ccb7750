"""The whitelisted names: Mathlib signatures, rewrite lemmas, ``ProverLemmas`` theorems."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prover.lean.replay.lexing import lex
from prover.lean.replay.report import ModelError, NotModelled
from prover.lean.replay.source import LeanSource
from prover.lean.replay.sums import finset_range, insert_casts, nonempty, nonempty_type
from prover.lean.replay.term_parser import Scope, TermParser, register_type
from prover.lean.replay.terms import NAT, ZERO, clean, fun_arity, real_exponents

#: The whitelisted Mathlib names, specialised to ℝ: name -> (file at v4.16.0, signature as
#: Lean binders and type). Each one is recorded with its source in docs/lean-names.md.
MATHLIB_SIGNATURES: dict[str, tuple[str, str]] = {
    "sub_nonneg": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : 0 ≤ a - b ↔ b ≤ a"),
    "sub_pos": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : 0 < a - b ↔ b < a"),
    "sub_nonpos": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : a - b ≤ 0 ↔ a ≤ b"),
    "sub_neg": ("Mathlib/Algebra/Order/Group/Defs.lean", "{a b : ℝ} : a - b < 0 ↔ a < b"),
    "sub_ne_zero": ("Mathlib/Algebra/Group/Basic.lean", "{a b : ℝ} : a - b ≠ 0 ↔ a ≠ b"),
    "zpow_neg": ("Mathlib/Algebra/Group/Basic.lean", "(a : ℝ) (n : ℤ) : a ^ (-n) = (a ^ n)⁻¹"),
    "zpow_ofNat": ("Mathlib/Algebra/Group/Defs.lean", "(a : ℝ) (n : ℕ) : a ^ (n : ℤ) = a ^ n"),
    "pow_ne_zero": ("Mathlib/Algebra/GroupWithZero/Basic.lean", "{a : ℝ} (n : ℕ) (h : a ≠ 0) : a ^ n ≠ 0"),
    "mul_ne_zero_iff": ("Mathlib/Algebra/GroupWithZero/Defs.lean", "{a b : ℝ} : a * b ≠ 0 ↔ a ≠ 0 ∧ b ≠ 0"),
    "mul_pos": ("Mathlib/Algebra/Order/GroupWithZero/Unbundled.lean",
                "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a * b"),
    "mul_nonneg": ("Mathlib/Algebra/Order/GroupWithZero/Unbundled.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a * b"),
    "add_pos": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a + b"),
    "add_nonneg": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a + b"),
    "div_pos": ("Mathlib/Algebra/Order/Field/Basic.lean", "{a b : ℝ} (ha : 0 < a) (hb : 0 < b) : 0 < a / b"),
    "div_nonneg": ("Mathlib/Algebra/Order/Field/Basic.lean",
                   "{a b : ℝ} (ha : 0 ≤ a) (hb : 0 ≤ b) : 0 ≤ a / b"),
    "sq_nonneg": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a : ℝ) : 0 ≤ a ^ 2"),
    "pow_pos": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a : ℝ} (H : 0 < a) (n : ℕ) : 0 < a ^ n"),
    "pow_nonneg": ("Mathlib/Algebra/Order/Monoid/Lemmas.lean", "{a : ℝ} (H : 0 ≤ a) (n : ℕ) : 0 ≤ a ^ n"),
    "inv_pow": ("Mathlib/Algebra/Group/Basic.lean", "(a : ℝ) (n : ℕ) : a⁻¹ ^ n = (a ^ n)⁻¹"),
    "max_eq_left": ("Mathlib/Order/Defs/LinearOrder.lean", "{a b : ℝ} (h : b ≤ a) : max a b = a"),
    "max_eq_right": ("Mathlib/Order/Defs/LinearOrder.lean", "{a b : ℝ} (h : a ≤ b) : max a b = b"),
    "min_eq_left": ("Mathlib/Order/Defs/LinearOrder.lean", "{a b : ℝ} (h : a ≤ b) : min a b = a"),
    "min_eq_right": ("Mathlib/Order/Defs/LinearOrder.lean", "{a b : ℝ} (h : b ≤ a) : min a b = b"),
    "le_total": ("Mathlib/Order/Defs/LinearOrder.lean", "(a b : ℝ) : a ≤ b ∨ b ≤ a"),
    "le_of_lt": ("Mathlib/Order/Defs/PartialOrder.lean", "{a b : ℝ} (h : a < b) : a ≤ b"),
    "ne_of_gt": ("Mathlib/Order/Defs/PartialOrder.lean", "{a b : ℝ} (h : a > b) : a ≠ b"),
    "mul_le_mul_of_nonneg_left": ("Mathlib/Algebra/Order/GroupWithZero/Unbundled.lean",
                                  "{a b c : ℝ} (h : b ≤ c) (a_nonneg : 0 ≤ a) : a * b ≤ a * c"),
    "mul_inv_cancel₀": ("Mathlib/Algebra/GroupWithZero/Defs.lean", "{a : ℝ} (h : a ≠ 0) : a * a⁻¹ = 1"),
    "mul_eq_zero_of_right": ("Mathlib/Algebra/GroupWithZero/Defs.lean",
                             "(a : ℝ) {b : ℝ} (h : b = 0) : a * b = 0"),
    "sub_eq_zero_of_eq": ("Mathlib/Algebra/Group/Basic.lean", "{a b : ℝ} (h : a = b) : a - b = 0"),
    "Real.sqrt_nonneg": ("Mathlib/Data/Real/Sqrt.lean", "(x : ℝ) : 0 ≤ √x"),
    "Real.sqrt_pos": ("Mathlib/Data/Real/Sqrt.lean", "{x : ℝ} : 0 < √x ↔ 0 < x"),
    "Real.sq_sqrt": ("Mathlib/Data/Real/Sqrt.lean", "{a : ℝ} (h : 0 ≤ a) : √a ^ 2 = a"),
    "Real.sqrt_sq": ("Mathlib/Data/Real/Sqrt.lean", "{a : ℝ} (h : 0 ≤ a) : √(a ^ 2) = a"),
    "Real.sqrt_mul": ("Mathlib/Data/Real/Sqrt.lean", "{x : ℝ} (hx : 0 ≤ x) (y : ℝ) : √(x * y) = √x * √y"),
    "Real.sqrt_le_sqrt": ("Mathlib/Data/Real/Sqrt.lean", "{x y : ℝ} (h : x ≤ y) : √x ≤ √y"),
    "Real.sqrt_lt_sqrt": ("Mathlib/Data/Real/Sqrt.lean", "{x y : ℝ} (hx : 0 ≤ x) (h : x < y) : √x < √y"),
    "Real.rpow_le_rpow": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                          "{x y z : ℝ} (h : 0 ≤ x) (h₁ : x ≤ y) (h₂ : 0 ≤ z) : x ^ (z : ℝ) ≤ y ^ (z : ℝ)"),
    "Real.rpow_lt_rpow": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                          "{x y z : ℝ} (hx : 0 ≤ x) (hxy : x < y) (hz : 0 < z) : x ^ (z : ℝ) < y ^ (z : ℝ)"),
    "Real.exp_pos": ("Mathlib/Analysis/SpecialFunctions/Exp.lean", "(x : ℝ) : 0 < Real.exp x"),
    "Real.add_one_le_exp": ("Mathlib/Data/Complex/Exponential.lean", "(x : ℝ) : x + 1 ≤ Real.exp x"),
    "Real.exp_add": ("Mathlib/Data/Complex/Exponential.lean",
                     "(x y : ℝ) : Real.exp (x + y) = Real.exp x * Real.exp y"),
    "Real.exp_sub": ("Mathlib/Data/Complex/Exponential.lean",
                     "(x y : ℝ) : Real.exp (x - y) = Real.exp x / Real.exp y"),
    "Real.exp_neg": ("Mathlib/Data/Complex/Exponential.lean", "(x : ℝ) : Real.exp (-x) = (Real.exp x)⁻¹"),
    "Real.log_div_log": ("Mathlib/Analysis/SpecialFunctions/Log/Base.lean",
                         "{b x : ℝ} : Real.log x / Real.log b = Real.logb b x"),
    "Real.log_pow": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                     "(x : ℝ) (n : ℕ) : Real.log (x ^ n) = n * Real.log x"),
    "Real.log_div": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                     "{x y : ℝ} (hx : x ≠ 0) (hy : y ≠ 0) : Real.log (x / y) = Real.log x - Real.log y"),
    "Real.log_inv": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean", "(x : ℝ) : Real.log x⁻¹ = -Real.log x"),
    "Real.log_neg_eq_log": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                            "(x : ℝ) : Real.log (-x) = Real.log x"),
    "Real.log_pos": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean", "{x : ℝ} (hx : 1 < x) : 0 < Real.log x"),
    "Real.log_neg": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                     "{x : ℝ} (h0 : 0 < x) (h1 : x < 1) : Real.log x < 0"),
    "Real.pi_gt_d6": ("Mathlib/Data/Real/Pi/Bounds.lean", ": 3.141592 < Real.pi"),
    "Real.pi_lt_d6": ("Mathlib/Data/Real/Pi/Bounds.lean", ": Real.pi < 3.141593"),
    "Real.pi_pos": ("Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean", ": 0 < Real.pi"),
    "Real.log_zero": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean", ": Real.log 0 = 0"),
    "Real.log_one": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean", ": Real.log 1 = 0"),
    "Real.log_exp": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean", "(x : ℝ) : Real.log (Real.exp x) = x"),
    "Real.exp_le_exp": ("Mathlib/Data/Complex/Exponential.lean", "{x y : ℝ} : Real.exp x ≤ Real.exp y ↔ x ≤ y"),
    "Real.exp_lt_exp": ("Mathlib/Data/Complex/Exponential.lean", "{x y : ℝ} : Real.exp x < Real.exp y ↔ x < y"),
    "Real.exp_log": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                     "{x : ℝ} (hx : 0 < x) : Real.exp (Real.log x) = x"),
    "Real.log_le_sub_one_of_pos": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                                   "{x : ℝ} (hx : 0 < x) : Real.log x ≤ x - 1"),
    "Real.one_sub_inv_le_log_of_pos": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                                       "{x : ℝ} (hx : 0 < x) : 1 - x⁻¹ ≤ Real.log x"),
    "Real.log_mul": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                     "{x y : ℝ} (hx : x ≠ 0) (hy : y ≠ 0) : Real.log (x * y) = Real.log x + Real.log y"),
    "Real.log_le_log": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                        "{x y : ℝ} (hx : 0 < x) (h : x ≤ y) : Real.log x ≤ Real.log y"),
    "Real.log_lt_log": ("Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
                        "{x y : ℝ} (hx : 0 < x) (h : x < y) : Real.log x < Real.log y"),
    "Real.rpow_natCast": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                          "(x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ n"),
    "Real.rpow_mul": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                      "{x : ℝ} (hx : 0 ≤ x) (y z : ℝ) : x ^ (y * z) = (x ^ y) ^ z"),
    "Real.mul_rpow": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                      "{x y z : ℝ} (hx : 0 ≤ x) (hy : 0 ≤ y) : (x * y) ^ (z : ℝ) = x ^ (z : ℝ) * y ^ (z : ℝ)"),
    "Real.geom_mean_le_arith_mean2_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ p₁ p₂ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) (hw : w₁ + w₂ = 1) : "
         "p₁ ^ w₁ * p₂ ^ w₂ ≤ w₁ * p₁ + w₂ * p₂")),
    "Real.geom_mean_le_arith_mean3_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ w₃ p₁ p₂ p₃ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hw₃ : 0 ≤ w₃) (hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) "
         "(hp₃ : 0 ≤ p₃) (hw : w₁ + w₂ + w₃ = 1) : p₁ ^ w₁ * p₂ ^ w₂ * p₃ ^ w₃ ≤ w₁ * p₁ + w₂ * p₂ + w₃ * p₃")),
    "Real.geom_mean_le_arith_mean4_weighted": (
        "Mathlib/Analysis/MeanInequalities.lean",
        ("{w₁ w₂ w₃ w₄ p₁ p₂ p₃ p₄ : ℝ} (hw₁ : 0 ≤ w₁) (hw₂ : 0 ≤ w₂) (hw₃ : 0 ≤ w₃) (hw₄ : 0 ≤ w₄) "
         "(hp₁ : 0 ≤ p₁) (hp₂ : 0 ≤ p₂) (hp₃ : 0 ≤ p₃) (hp₄ : 0 ≤ p₄) (hw : w₁ + w₂ + w₃ + w₄ = 1) : "
         "p₁ ^ w₁ * p₂ ^ w₂ * p₃ ^ w₃ * p₄ ^ w₄ ≤ w₁ * p₁ + w₂ * p₂ + w₃ * p₃ + w₄ * p₄")),
    "two_mul_le_add_sq": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2"),
    "four_mul_le_sq_add": ("Mathlib/Algebra/Order/Ring/Lemmas.lean", "(a b : ℝ) : 4 * a * b ≤ (a + b) ^ 2"),
    "Real.rpow_one": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean", "(x : ℝ) : x ^ (1 : ℝ) = x"),
    "Real.rpow_of_add_eq": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
                            ("{x y z w : ℝ} (hx : 0 ≤ x) (hw : w ≠ 0) (h : y + z = w) : "
                             "x ^ (w : ℝ) = x ^ (y : ℝ) * x ^ (z : ℝ)")),
    "abs_nonneg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "(a : ℝ) : 0 ≤ |a|"),
    "abs_mul": ("Mathlib/Algebra/Order/Ring/Abs.lean", "(a b : ℝ) : |a * b| = |a| * |b|"),
    "abs_neg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "(a : ℝ) : |-a| = |a|"),
    "abs_of_nonneg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 ≤ a) : |a| = a"),
    "abs_of_pos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 < a) : |a| = a"),
    "abs_of_nonpos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a ≤ 0) : |a| = -a"),
    "abs_of_neg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a < 0) : |a| = -a"),
    "abs_pos_of_pos": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : 0 < a) : 0 < |a|"),
    "abs_pos_of_neg": ("Mathlib/Algebra/Order/Group/Unbundled/Abs.lean", "{a : ℝ} (h : a < 0) : 0 < |a|"),
    "sq_abs": ("Mathlib/Algebra/Order/Ring/Abs.lean", "(a : ℝ) : |a| ^ 2 = a ^ 2"),
    "Real.sqrt_sq_eq_abs": ("Mathlib/Data/Real/Sqrt.lean", "(x : ℝ) : √(x ^ 2) = |x|"),
    "Real.sqrt_eq_rpow": ("Mathlib/Analysis/SpecialFunctions/Pow/Real.lean", "(x : ℝ) : √x = x ^ (1 / (2 : ℝ))"),
    "abs_le_of_sq_le_sq'": ("Mathlib/Algebra/Order/Ring/Abs.lean",
                            "{a b : ℝ} (h : a ^ 2 ≤ b ^ 2) (hb : 0 ≤ b) : -b ≤ a ∧ a ≤ b"),
    "abs_lt_of_sq_lt_sq'": ("Mathlib/Algebra/Order/Ring/Abs.lean",
                            "{a b : ℝ} (h : a ^ 2 < b ^ 2) (hb : 0 ≤ b) : -b < a ∧ a < b"),
    "Nat.cast_nonneg": ("Mathlib/Data/Nat/Cast/Order/Ring.lean", "(n : ℕ) : 0 ≤ (n : ℝ)"),
    "Nat.cast_pos": ("Mathlib/Data/Nat/Cast/Order/Ring.lean", "{n : ℕ} : (0 : ℝ) < (n : ℝ) ↔ 0 < n"),
    "Nat.one_le_cast": ("Mathlib/Data/Nat/Cast/Order/Basic.lean", "{n : ℕ} : (1 : ℝ) ≤ (n : ℝ) ↔ 1 ≤ n"),
    "Nat.eq_zero_or_pos": ("Lean core src/Init/Data/Nat/Basic.lean", "(n : ℕ) : n = 0 ∨ n > 0"),
}

#: Rewrite lemmas ``rw`` may use (target rewriting of ``≥``/``>`` only).
RW_LEMMAS = {"ge_iff_le": ("Mathlib/Order/Basic.lean", "{a b : ℝ} : a ≥ b ↔ b ≤ a"),
             "gt_iff_lt": ("Mathlib/Order/Basic.lean", "{a b : ℝ} : a > b ↔ b < a")}

#: Value-level functions (atoms for ``ring``), with ``open Real`` short names.
#: Real-valued functions the model reads as atoms for ``ring``, with their arity.
FUNCTIONS = {"Real.sqrt": 1, "Real.exp": 1, "Real.log": 1, "Real.logb": 2, "abs": 1, "max": 2, "min": 2}
_OPEN_REAL = {"sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log", "π": "Real.pi"}
#: Real constants (atoms for ``ring``; ``positivity`` knows ``0 < π``: Mathlib's ``evalRealPi``).
CONSTANTS = frozenset({"Real.pi"})


@dataclass
class Signature:
    """A telescope ``binders → conclusion``; binders are ``(uid, type, explicit)``."""

    binders: tuple[tuple[str, Any, bool], ...]
    concl: Any
    source: str = ""


def _fin(n: Any) -> Any:
    return ("app", ("const", "Fin"), (n,))


_N = ("fv", "n#sig")
#: Lemmas about ``Finset.Nonempty``/``Nonempty`` (terms the text parser does not read), built
#: directly; specialised to ``α := Fin n`` where the statement is about any finite type. Each one
#: is recorded with its source in docs/lean-names.md.
NONEMPTY_SIGNATURES: dict[str, Signature] = {
    # theorem univ_nonempty_iff : (univ : Finset α).Nonempty ↔ Nonempty α   ([Fintype α])
    "Finset.univ_nonempty_iff": Signature(
        (("n#sig", NAT, False),), ("iff", nonempty(("univ", _fin(_N))), nonempty_type(_fin(_N))),
        "Mathlib/Data/Fintype/Basic.lean"),
    # @[simp] theorem nonempty_range_iff : (range n).Nonempty ↔ n ≠ 0
    "Finset.nonempty_range_iff": Signature(
        (("n#sig", NAT, False),), ("iff", nonempty(finset_range(_N)), ("rel", "≠", _N, ZERO)),
        "Mathlib/Data/Finset/Range.lean"),
    # theorem Fin.pos_iff_nonempty {n : Nat} : 0 < n ↔ Nonempty (Fin n)   (Lean core)
    "Fin.pos_iff_nonempty": Signature(
        (("n#sig", NAT, False),), ("iff", ("rel", "<", ZERO, _N), nonempty_type(_fin(_N))),
        "Lean core src/Init/Data/Fin/Lemmas.lean"),
}


def parse_signature(text: str, scope: Scope | None = None, source: str = "") -> Signature:
    """``(x y : ℝ) {a : ℝ} (h : P) : Q`` as a :class:`Signature`."""
    scope = scope or Scope()
    toks = lex(text)
    p = TermParser(toks, scope)
    binders: list[tuple[str, Any, bool]] = []
    while p.at("(", "{", "["):
        open_ = p.next().text
        close = {"(": ")", "{": "}", "[": "]"}[open_]
        if open_ == "[":
            raise NotModelled("instance binders are not modelled")
        names = []
        while p.peek().kind == "ident" or p.at("_"):
            names.append(p.next().text)
        p.expect(":")
        ty = clean(insert_casts(p.expr(0), p.scope.types))
        p.expect(close)
        for nm in names:
            p.scope, uid = p.scope.bind(nm)
            arity = fun_arity(ty)
            if arity is not None:
                p.scope.functions[uid] = arity
            register_type(p.scope, uid, ty)
            binders.append((uid, ty, open_ == "("))
    p.expect(":")
    concl = clean(insert_casts(p.expr(0), p.scope.types))
    if not p.done():
        raise NotModelled(f"syntax: signature ends with {p.peek().text!r}")
    if scope.real_division:
        concl = real_exponents(concl)
        binders = [(uid, real_exponents(ty), explicit) for uid, ty, explicit in binders]
    return Signature(tuple(binders), concl, source)


_SIG_CACHE: dict[str, Signature] = {}


def mathlib_signature(name: str) -> Signature | None:
    if name in NONEMPTY_SIGNATURES:
        return NONEMPTY_SIGNATURES[name]
    if name in _SIG_CACHE:
        return _SIG_CACHE[name]
    entry = MATHLIB_SIGNATURES.get(name) or RW_LEMMAS.get(name)
    if entry is None:
        return None
    sig = parse_signature(entry[1], source=entry[0])
    _SIG_CACHE[name] = sig
    return sig


def prover_lemmas_dir() -> Path:
    return Path(__file__).resolve().parents[3] / "lean_project" / "ProverLemmas"


_PROVER_LEMMAS: dict[str, Signature] | None = None


def prover_lemma_signatures(directory: Path | None = None) -> dict[str, Signature]:
    """The theorems of ``lean_project/ProverLemmas/*.lean`` (full names), read from the source."""
    global _PROVER_LEMMAS
    if _PROVER_LEMMAS is not None and directory is None:
        return _PROVER_LEMMAS
    out: dict[str, Signature] = {}
    d = directory or prover_lemmas_dir()
    for f in sorted(d.glob("*.lean")) if d.is_dir() else []:
        src = LeanSource(f.read_text(encoding="utf-8"))
        for decl in src.declarations():
            try:
                out[decl.full_name] = parse_signature(decl.signature_text, source=f"lean_project/ProverLemmas/{f.name}")
            except (NotModelled, ModelError):
                continue
    if directory is None:
        _PROVER_LEMMAS = out
    return out
