"""Statements about ``n`` terms: sums ``∑ i, body`` over ``a b : Fin n → ℝ`` or
``∑ i ∈ Finset.range n, body`` over ``a b : ℕ → ℝ``, with one natural number ``n`` and per-index
hypotheses (``∀ i, 0 < a i``, ``∀ i ∈ Finset.range n, 0 ≤ a i ∧ a i ≤ 1``). Textbook forms (termwise
AM-GM, tangent lines under ``∑ a i = n`` or ``= c``, QM-AM and power means, AM-HM, Titu/Engel,
Cauchy-Schwarz, bounded terms, square roots), each under transformations (the ``Fin`` or the
``Finset.range`` style, swapped sides written with ≥/>, strict where true, weakened constants, a fact
times a positive factor, sums of two facts). ``python make_nvar.py`` writes ``nvar_train.jsonl``,
``nvar_heldout.jsonl``, ``nvar_false.jsonl`` and ``known_false.json`` (deterministic).

Every statement is true (the comment above each family says why) and is sampled before anything is
written, with an evaluator of its own (below; nothing from ``prover/``): for n ∈ {0, 1, 2, 3, 4, 5, 7}
(n = 0 only where no hypothesis excludes it; empty sums are 0), at the special points (every family
constant, one term tiny, one large, one moved, 0/1 alternating, 1..n) and at ``POINTS`` random points
meeting the hypotheses, evaluated exactly (``Fraction``; ``Real.sqrt`` exact at rational squares, else
mpmath at 50 digits), with Lean's ``x / 0 = 0`` and ``Real.sqrt x = 0`` for x < 0. Equality
hypotheses are met by rescaling: ``∑ i, a i = t`` multiplies ``a`` by t / ∑ a (exactly), ``… = s`` with
``s`` a scalar sets ``s``. The FALSE statements of ``FALSE`` (each a changed copy of a true one) must
be refuted at an exact point found the same way; that point is stored as ``counterexample``. A
failure aborts and writes nothing. Families in ``HELD_OUT`` are measured, not looked at while
building the method.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import re
import sys
from fractions import Fraction
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from generated_suite import build_rows, check_families, write_suite

PREFIX = "nvar"
SOURCE = "nvar (generated)"
HELD_OUT = ("tangent_rational", "weighted_sum", "mixed_cauchy", "sqrt_cauchy")

FIN1 = "(n : ℕ) (a : Fin n → ℝ)"
FIN2 = "(n : ℕ) (a b : Fin n → ℝ)"
POS = "(ha : ∀ i, 0 < a i)"
NONNEG = "(ha : ∀ i, 0 ≤ a i)"
UNIT = "(ha : ∀ i, 0 ≤ a i ∧ a i ≤ 1)"
SUM_N = "(hs : ∑ i, a i = n)"


def in_range(body: str) -> str:
    """The same statement in the ``Finset.range`` style: ``a : ℕ → ℝ``, ``∑ i ∈ Finset.range n, …``,
    ``∀ i ∈ Finset.range n, …``."""
    body = body.replace("Fin n → ℝ", "ℕ → ℝ")
    body = re.sub(r"∑ (\w+)(?: : Fin n)?,", r"∑ \1 ∈ Finset.range n,", body)
    return re.sub(r"∀ (\w+),", r"∀ \1 ∈ Finset.range n,", body)


def termwise_amgm() -> list[str]:
    # each term obeys a one-variable inequality, and sums of such inequalities add up:
    # a² + 1 ≥ 2a ((a - 1)² ≥ 0), a² + 4 ≥ 4a ((a - 2)²), a² + b² ≥ 2ab ((a - b)²), a + 1/a ≥ 2
    # for a > 0 ((a - 1)² / a), a² ≥ a and a³ ≥ a² for a ≥ 1 (a(a - 1), a²(a - 1)),
    # a⁴ + 1 ≥ 2a² ((a² - 1)²); a² + 1 > a always, and the strict sum needs one term (n ≠ 0)
    return [f"{FIN1} : ∑ i, (a i ^ 2 + 1) ≥ 2 * ∑ i, a i",
            in_range(f"{FIN1} : 4 * ∑ i, a i ≤ ∑ i, (a i ^ 2 + 4)"),
            f"{FIN2} : 2 * ∑ i, a i * b i ≤ ∑ i, a i ^ 2 + ∑ i, b i ^ 2",
            f"{FIN1} {POS} : ∑ i, (a i + 1 / a i) ≥ 2 * n",
            in_range(f"{FIN1} (ha : ∀ i, 1 ≤ a i) : ∑ i, a i ^ 2 ≥ ∑ i, a i"),
            f"{FIN1} (ha : ∀ j, 1 ≤ a j) : ∑ j, a j ^ 3 ≥ ∑ j, a j ^ 2",
            f"{FIN1} : ∑ i, a i ^ 4 + n ≥ 2 * ∑ i, a i ^ 2",
            "(n : ℕ) (hn : n ≠ 0) (a : Fin n → ℝ) : ∑ i, a i < ∑ i, (a i ^ 2 + 1)"]


def bounded_terms() -> list[str]:
    # 0 ≤ a ≤ 1 gives a^k ≤ a^j for k ≥ j (a^j (1 - a^(k-j)) ≥ 0) and a ≤ 1, a² ≤ 1 termwise;
    # a (1 - b) ≥ 0 for a ≥ 0, b ≤ 1; strict 0 < a < 1 gives a² < a, and the strict sum needs n ≠ 0;
    # the last adds a² ≤ a and a² ≤ 1
    return [f"{FIN1} {UNIT} : ∑ i, a i ^ 2 ≤ ∑ i, a i",
            in_range(f"{FIN1} {UNIT} : ∑ i, a i ^ 3 ≤ ∑ i, a i ^ 2"),
            f"{FIN1} {UNIT} : ∑ i, a i ≤ n",
            f"{FIN1} {NONNEG} (ha1 : ∀ i, a i ≤ 1) : n ≥ ∑ i, a i ^ 2",
            f"{FIN2} {NONNEG} (hb : ∀ i, 0 ≤ b i ∧ b i ≤ 1) : ∑ i, a i * b i ≤ ∑ i, a i",
            in_range(f"{FIN1} {UNIT} : ∑ i, a i ^ 4 ≤ ∑ i, a i"),
            "(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (ha : ∀ i, 0 < a i ∧ a i < 1) : ∑ i, a i ^ 2 < ∑ i, a i",
            f"{FIN1} {UNIT} : 2 * ∑ i, a i ^ 2 ≤ ∑ i, a i + n"]


def tangent_sq() -> list[str]:
    # a² ≥ 2a - 1 ((a - 1)² ≥ 0), summed under ∑ a = n: ∑ a² ≥ 2n - n = n; a² + a ≥ 3a - 1 and
    # a² + 1 ≥ 2a likewise; 3 ∑ a² ≥ 3n ≥ 6 (n ≥ 2); ∑ (a - 1)² = ∑ a² - 2 ∑ a + n = ∑ a² - n;
    # n - 1 < n (n ≥ 1); the last adds the bound for two families
    return [f"{FIN1} {SUM_N} : ∑ i, a i ^ 2 ≥ n",
            in_range(f"{FIN1} {SUM_N} : n ≤ ∑ i, a i ^ 2"),
            f"{FIN1} {POS} {SUM_N} : ∑ i, (a i ^ 2 + a i) ≥ 2 * n",
            f"(n : ℕ) (hn : 2 ≤ n) (a : Fin n → ℝ) {SUM_N} : 3 * ∑ i, a i ^ 2 ≥ 6",
            in_range(f"{FIN1} {SUM_N} : ∑ i, (a i ^ 2 + 1) ≥ 2 * n"),
            f"{FIN1} {SUM_N} : ∑ i, (a i - 1) ^ 2 = ∑ i, a i ^ 2 - n",
            f"(n : ℕ) (hn : 1 ≤ n) (a : Fin n → ℝ) {SUM_N} : ∑ i, a i ^ 2 > (n : ℝ) - 1",
            f"{FIN2} (ha : ∑ i, a i = n) (hb : ∑ i, b i = n) : ∑ i, a i ^ 2 + ∑ i, b i ^ 2 ≥ 2 * n"]


def tangent_power() -> list[str]:
    # tangent lines at 1 summed under ∑ a = n (so ∑ (a - 1) = 0): a³ ≥ 3a - 2 for a > 0
    # ((a - 1)² (a + 2)), a⁴ ≥ 4a - 3 for every a ((a - 1)² (a² + 2a + 3)), 1/a ≥ 2 - a for a > 0
    # ((a - 1)² / a); a³ + a² ≥ 5a - 3 adds two of them; ∑ a⁴ ≥ n = ∑ a; n/2 < n when n ≥ 1
    return [f"{FIN1} {POS} {SUM_N} : ∑ i, a i ^ 3 ≥ n",
            f"{FIN1} (hs : ∑ i : Fin n, a i = n) : ∑ i : Fin n, a i ^ 4 ≥ n",
            f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / a i ≥ n",
            in_range(f"{FIN1} {POS} {SUM_N} : n ≤ ∑ i, a i ^ 3"),
            in_range(f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / a i ≥ n"),
            f"{FIN1} {POS} {SUM_N} : ∑ i, (a i ^ 3 + a i ^ 2) ≥ 2 * n",
            f"{FIN1} {SUM_N} : ∑ i, a i ^ 4 ≥ ∑ i, a i",
            f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} {SUM_N} : ∑ i, 1 / a i > (n : ℝ) / 2"]


def tangent_sum_c() -> list[str]:
    # QM-AM: n ∑ a² ≥ (∑ a)² (below), so with ∑ a = c: ∑ a² ≥ c² / n (n > 0; for n = 0 both sides
    # are 0 since then c = 0 and c² / 0 = 0); AM-HM (∑ a)(∑ 1/a) ≥ n² for a > 0 (below); ∑ (a² + 1)
    # adds ∑ 1 = n
    return ["(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (hs : ∑ i, a i = 1) : ∑ i, a i ^ 2 ≥ 1 / (n : ℝ)",
            f"{FIN1} (hs : ∑ i, a i = 2) : n * ∑ i, a i ^ 2 ≥ 4",
            in_range("(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (s : ℝ) (hs : ∑ i, a i = s) : ∑ i, a i ^ 2 ≥ s ^ 2 / n"),
            f"{FIN1} (s : ℝ) (hs : ∑ i, a i = s) : s ^ 2 ≤ n * ∑ i, a i ^ 2",
            f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} (hs : ∑ i, a i = 1) : ∑ i, 1 / a i ≥ (n : ℝ) ^ 2",
            in_range(f"{FIN1} {POS} (s : ℝ) (hs : ∑ i, a i = s) : s * ∑ i, 1 / a i ≥ (n : ℝ) ^ 2"),
            "(n : ℕ) (hn : n ≠ 0) (a : Fin n → ℝ) (hs : ∑ i, a i = 4) : ∑ i, a i ^ 2 ≥ 16 / (n : ℝ)",
            ("(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (s : ℝ) (hs : ∑ i, a i = s) : "
             "∑ i, (a i ^ 2 + 1) ≥ s ^ 2 / n + n")]


def qm_am() -> list[str]:
    # Cauchy-Schwarz with the all-ones family: (∑ a)² ≤ (∑ 1)(∑ a²) = n ∑ a² (n = 0: 0 ≤ 0); also for
    # the terms 2a and a + 1, divided by n > 0, times x > 0, strict after adding 1, and added for
    # two families
    return [f"{FIN1} : (∑ i, a i) ^ 2 ≤ n * ∑ i, a i ^ 2",
            in_range(f"{FIN1} : n * ∑ i, a i ^ 2 ≥ (∑ i, a i) ^ 2"),
            "(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) : (∑ i, a i) ^ 2 / n ≤ ∑ i, a i ^ 2",
            f"{FIN1} : (∑ i, 2 * a i) ^ 2 ≤ 4 * n * ∑ i, a i ^ 2",
            f"{FIN2} : (∑ i, a i) ^ 2 + (∑ i, b i) ^ 2 ≤ n * (∑ i, a i ^ 2 + ∑ i, b i ^ 2)",
            f"{FIN1} : (∑ k, a k) ^ 2 < n * ∑ k, a k ^ 2 + 1",
            in_range(f"{FIN1} : (∑ i, (a i + 1)) ^ 2 ≤ n * ∑ i, (a i + 1) ^ 2"),
            f"{FIN1} (x : ℝ) (hx : 0 < x) : x * (∑ i, a i) ^ 2 ≤ x * n * ∑ i, a i ^ 2"]


def power_mean() -> list[str]:
    # power means: M₁ ≤ M₂ on a² and on a³ (QM-AM), M₁ ≤ M₃ for a ≥ 0 ((∑ a)³ ≤ n² ∑ a³, Hölder),
    # M₁ ≤ M₄ for every real a (|∑ a|⁴ ≤ n³ ∑ a⁴), M₂ ≤ M₃ for a ≥ 0 ((∑ a²)³ ≤ n (∑ a³)²);
    # (∑ a)(∑ a³) ≥ (∑ a²)² is Cauchy-Schwarz with √a and a^(3/2); n ∑ a³ ≥ (∑ a)(∑ a²) is
    # Chebyshev (a and a² are ordered alike for a ≥ 0)
    return [f"{FIN1} : (∑ i, a i ^ 2) ^ 2 ≤ n * ∑ i, a i ^ 4",
            f"{FIN1} {NONNEG} : (∑ i, a i) ^ 3 ≤ (n : ℝ) ^ 2 * ∑ i, a i ^ 3",
            in_range(f"{FIN1} : (∑ i, a i) ^ 4 ≤ (n : ℝ) ^ 3 * ∑ i, a i ^ 4"),
            "(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) : ((∑ i, a i) / n) ^ 2 ≤ (∑ i, a i ^ 2) / n",
            f"{FIN1} {POS} : (∑ i, a i) * (∑ i, a i ^ 3) ≥ (∑ i, a i ^ 2) ^ 2",
            f"{FIN1} {NONNEG} : n * ∑ i, a i ^ 3 ≥ (∑ i, a i) * ∑ i, a i ^ 2",
            in_range(f"{FIN1} {NONNEG} : (∑ i, a i ^ 2) ^ 3 ≤ n * (∑ i, a i ^ 3) ^ 2"),
            "(n : ℕ) (hn : 1 ≤ n) (a : Fin n → ℝ) : (∑ i, a i ^ 3) ^ 2 ≤ n * ∑ i, a i ^ 6"]


def am_hm() -> list[str]:
    # Cauchy-Schwarz with √a and 1/√a (a > 0): (∑ a)(∑ 1/a) ≥ n²; also for a² and a + 1 > 0, divided
    # by ∑ a > 0 (n > 0), as HM ≤ AM, times x > 0, strict after adding 1
    return [f"{FIN1} {POS} : (∑ i, a i) * (∑ i, 1 / a i) ≥ (n : ℝ) ^ 2",
            in_range(f"{FIN1} {POS} : (n : ℝ) ^ 2 ≤ (∑ i, a i) * ∑ i, 1 / a i"),
            f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} : ∑ i, 1 / a i ≥ (n : ℝ) ^ 2 / ∑ i, a i",
            f"{FIN1} {POS} : (∑ i, a i ^ 2) * (∑ i, 1 / a i ^ 2) ≥ (n : ℝ) ^ 2",
            f"{FIN1} {NONNEG} : (∑ i, (a i + 1)) * (∑ i, 1 / (a i + 1)) ≥ (n : ℝ) ^ 2",
            in_range(f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} : (n : ℝ) / ∑ i, 1 / a i ≤ (∑ i, a i) / n"),
            f"{FIN1} {POS} (x : ℝ) (hx : 0 < x) : x * ((∑ i, a i) * (∑ i, 1 / a i)) ≥ x * (n : ℝ) ^ 2",
            f"{FIN1} {POS} : (∑ i, a i) * (∑ i, 1 / a i) + 1 > (n : ℝ) ^ 2"]


def titu() -> list[str]:
    # Titu/Engel (Cauchy-Schwarz with a/√b and √b, b > 0): ∑ a²/b ≥ (∑ a)² / ∑ b (n = 0: 0 ≥ 0/0 = 0);
    # also multiplied out, for a + b and a² in place of a, for b + 1 (> 0 when b ≥ 0, ∑ (b + 1) =
    # ∑ b + n), times 3; termwise a²/b ≥ 2a - b ((a - b)² / b ≥ 0)
    return [f"{FIN2} (hb : ∀ i, 0 < b i) : (∑ i, a i) ^ 2 / ∑ i, b i ≤ ∑ i, a i ^ 2 / b i",
            f"{FIN2} (hb : ∀ i, 0 < b i) : ∑ i, a i ^ 2 / b i ≥ (∑ i, a i) ^ 2 / ∑ i, b i",
            in_range(f"{FIN2} (hb : ∀ i, 0 < b i) : (∑ i, b i) * (∑ i, a i ^ 2 / b i) ≥ (∑ i, a i) ^ 2"),
            f"{FIN2} (hb : ∀ i, 0 < b i) : ∑ i, a i ^ 2 / b i ≥ 2 * ∑ i, a i - ∑ i, b i",
            f"{FIN2} (hb : ∀ i, 0 < b i) : ∑ i, (a i + b i) ^ 2 / b i ≥ (∑ i, (a i + b i)) ^ 2 / ∑ i, b i",
            in_range(f"{FIN2} (hb : ∀ i, 0 ≤ b i) : (∑ i, a i) ^ 2 / (∑ i, b i + n) ≤ ∑ i, a i ^ 2 / (b i + 1)"),
            f"{FIN2} (hb : ∀ i, 0 < b i) : ∑ i, a i ^ 4 / b i ≥ (∑ i, a i ^ 2) ^ 2 / ∑ i, b i",
            f"{FIN2} (hb : ∀ i, 0 < b i) : 3 * ((∑ i, a i) ^ 2 / ∑ i, b i) ≤ 3 * ∑ i, a i ^ 2 / b i"]


def cauchy_schwarz() -> list[str]:
    # (∑ a b)² ≤ (∑ a²)(∑ b²) (Lagrange: the difference is ∑_{i<j} (a_i b_j - a_j b_i)²); its square
    # root form (√ is increasing, ∑ a b ≤ |∑ a b|); for (a, a²), (2a, b) (a factor 4 on both sides),
    # (a + b, b), (√a, √a b) with a, b ≥ 0; strict after adding 1
    return [f"{FIN2} : (∑ i, a i * b i) ^ 2 ≤ (∑ i, a i ^ 2) * (∑ i, b i ^ 2)",
            in_range(f"{FIN2} : (∑ i, a i ^ 2) * ∑ i, b i ^ 2 ≥ (∑ i, a i * b i) ^ 2"),
            f"{FIN2} : ∑ i, a i * b i ≤ Real.sqrt ((∑ i, a i ^ 2) * ∑ i, b i ^ 2)",
            f"{FIN1} : (∑ i, a i ^ 3) ^ 2 ≤ (∑ i, a i ^ 2) * ∑ i, a i ^ 4",
            f"{FIN2} : (∑ i, a i * b i) ^ 2 < (∑ i, a i ^ 2) * (∑ i, b i ^ 2) + 1",
            f"{FIN2} : (∑ i, 2 * a i * b i) ^ 2 ≤ 4 * ((∑ i, a i ^ 2) * ∑ i, b i ^ 2)",
            in_range(f"{FIN2} {NONNEG} (hb : ∀ i, 0 ≤ b i) : "
                "(∑ i, a i * b i) ^ 2 ≤ (∑ i, a i) * ∑ i, a i * b i ^ 2"),
            f"{FIN2} : (∑ i, (a i + b i) ^ 2) * (∑ i, b i ^ 2) ≥ (∑ i, (a i + b i) * b i) ^ 2"]


def sqrt_tangent() -> list[str]:
    # √a ≤ (a + 1)/2 for a ≥ 0 ((√a - 1)² ≥ 0, the tangent line of the concave √ at 1), summed under
    # ∑ a = n: ∑ √a ≤ n; without the constraint 2 ∑ √a ≤ ∑ a + n; √(ab) ≤ (a + b)/2 (AM-GM);
    # √(a + 1) ≤ √2 + (a - 1)/(2√2) (tangent at 1); √a ≥ a on [0, 1]; √(4a) = 2√a; at 4:
    # √a ≤ 1 + a/4, summed under ∑ a = 4n
    return [f"{FIN1} {NONNEG} {SUM_N} : ∑ i, Real.sqrt (a i) ≤ n",
            in_range(f"{FIN1} {NONNEG} {SUM_N} : n ≥ ∑ i, Real.sqrt (a i)"),
            f"{FIN1} {NONNEG} : 2 * ∑ i, Real.sqrt (a i) ≤ ∑ i, a i + n",
            f"{FIN2} {NONNEG} (hb : ∀ i, 0 ≤ b i) : ∑ i, Real.sqrt (a i * b i) ≤ (∑ i, a i + ∑ i, b i) / 2",
            f"{FIN1} {NONNEG} {SUM_N} : ∑ i, Real.sqrt (a i + 1) ≤ n * Real.sqrt 2",
            f"{FIN1} {UNIT} : ∑ i, a i ≤ ∑ i, Real.sqrt (a i)",
            in_range(f"{FIN1} {NONNEG} {SUM_N} : ∑ i, Real.sqrt (4 * a i) ≤ 2 * n"),
            f"{FIN1} {NONNEG} (hs : ∑ i, a i = 4 * n) : ∑ i, Real.sqrt (a i) ≤ 2 * n"]


def tangent_rational() -> list[str]:
    # tangent lines at 1 of rational functions, summed under ∑ a = n (so ∑ (a - 1) = 0), each with
    # the difference a square over a positive denominator: 1/(1 + a) - (3 - a)/4 = (a - 1)²/(4(1 + a));
    # a/(a² + 1) ≤ 1/2 ((a - 1)² ≥ 0, every a); a/(1 + a) = 1 - 1/(1 + a); 1/(a² + 1) - (1 - a/2) =
    # a(a - 1)²/(2(a² + 1)) for a ≥ 0; a²/(a + 1) - (3a - 1)/4 = (a - 1)²/(4(a + 1));
    # 1/(2 + a) - (4 - a)/9 = (a - 1)²/(9(2 + a)); n/3 < n/2 when n ≥ 1
    return [f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / (1 + a i) ≥ (n : ℝ) / 2",
            f"{FIN1} {SUM_N} : ∑ i, a i / (a i ^ 2 + 1) ≤ (n : ℝ) / 2",
            in_range(f"{FIN1} {POS} {SUM_N} : ∑ i, a i / (1 + a i) ≤ (n : ℝ) / 2"),
            f"{FIN1} {NONNEG} {SUM_N} : ∑ i, 1 / (a i ^ 2 + 1) ≥ (n : ℝ) / 2",
            f"{FIN1} {POS} {SUM_N} : ∑ i, a i ^ 2 / (a i + 1) ≥ (n : ℝ) / 2",
            f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / (2 + a i) ≥ (n : ℝ) / 3",
            in_range(f"{FIN1} {POS} {SUM_N} : 2 * ∑ i, 1 / (1 + a i) ≥ n"),
            f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} {SUM_N} : ∑ i, 1 / (1 + a i) > (n : ℝ) / 3"]


def weighted_sum() -> list[str]:
    # weights b ≥ 0 on termwise facts: b (a - 1)² ≥ 0, b (a² + 1) ≥ 2ab, b a² ≤ b a for 0 ≤ a ≤ 1;
    # Cauchy-Schwarz with √b and √b a: (∑ b a)² ≤ (∑ b)(∑ b a²), with ∑ b = 1 weighted Jensen for
    # t²; with √(ab) and √(b/a): (∑ b a)(∑ b/a) ≥ (∑ b)²; Titu with b²/(ab): ∑ b/a ≥ (∑ b)²/∑ ab;
    # Jensen for t³ (convex on t ≥ 0) with weights b summing to 1
    return [f"{FIN2} (hb : ∀ i, 0 ≤ b i) : ∑ i, b i * a i ^ 2 ≥ 2 * ∑ i, b i * a i - ∑ i, b i",
            f"{FIN2} (hb : ∀ i, 0 ≤ b i) : ∑ i, b i * (a i ^ 2 + 1) ≥ 2 * ∑ i, a i * b i",
            in_range(f"{FIN2} (hb : ∀ i, 0 ≤ b i) : (∑ i, a i * b i) ^ 2 ≤ (∑ i, b i) * ∑ i, b i * a i ^ 2"),
            f"{FIN2} {POS} (hb : ∀ i, 0 < b i) : ∑ i, b i / a i ≥ (∑ i, b i) ^ 2 / ∑ i, a i * b i",
            f"{FIN2} {UNIT} (hb : ∀ i, 0 ≤ b i) : ∑ i, b i * a i ^ 2 ≤ ∑ i, b i * a i",
            f"{FIN2} (hb : ∀ i, 0 < b i) (hs : ∑ i, b i = 1) : (∑ i, b i * a i) ^ 2 ≤ ∑ i, b i * a i ^ 2",
            in_range(f"{FIN2} {POS} (hb : ∀ i, 0 < b i) : "
                "(∑ i, b i * a i) * (∑ i, b i / a i) ≥ (∑ i, b i) ^ 2"),
            (f"{FIN2} {NONNEG} (hb : ∀ i, 0 ≤ b i) (hs : ∑ i, b i = 1) : "
             "∑ i, b i * a i ^ 3 ≥ (∑ i, b i * a i) ^ 3")]


def mixed_cauchy() -> list[str]:
    # Cauchy-Schwarz with scalars: (xa + yb)² ≤ (x² + y²)(a² + b²) termwise; 2xab ≤ x²a² + b²
    # ((xa - b)²); n ∑ (a - x)² - (n ∑ a² - (∑ a)²) = (∑ a - n x)²; QM-AM for a + x b; CS with the
    # factors x and 1/x (x > 0) cancelling; ab ≤ (x a² + b²/x)/2 (x > 0); two-term CS for
    # (x, y)·(∑ a, n); CS for (a + x, b)
    return [f"{FIN2} (x y : ℝ) : ∑ i, (x * a i + y * b i) ^ 2 ≤ (x ^ 2 + y ^ 2) * ∑ i, (a i ^ 2 + b i ^ 2)",
            f"{FIN2} (x : ℝ) : 2 * x * ∑ i, a i * b i ≤ x ^ 2 * ∑ i, a i ^ 2 + ∑ i, b i ^ 2",
            f"{FIN1} (x : ℝ) : n * ∑ i, (a i - x) ^ 2 ≥ n * ∑ i, a i ^ 2 - (∑ i, a i) ^ 2",
            in_range(f"{FIN2} (x : ℝ) : (∑ i, (a i + x * b i)) ^ 2 ≤ n * ∑ i, (a i + x * b i) ^ 2"),
            f"{FIN2} (x : ℝ) (hx : 0 < x) : (∑ i, a i * b i) ^ 2 ≤ (x * ∑ i, a i ^ 2) * ((∑ i, b i ^ 2) / x)",
            f"{FIN2} (x : ℝ) (hx : 0 < x) : ∑ i, a i * b i ≤ (x * ∑ i, a i ^ 2 + (∑ i, b i ^ 2) / x) / 2",
            f"{FIN1} (x y : ℝ) : (x * ∑ i, a i + y * n) ^ 2 ≤ (x ^ 2 + y ^ 2) * ((∑ i, a i) ^ 2 + (n : ℝ) ^ 2)",
            f"{FIN2} (x : ℝ) : (∑ i, (a i + x) * b i) ^ 2 ≤ (∑ i, (a i + x) ^ 2) * ∑ i, b i ^ 2"]


def sqrt_cauchy() -> list[str]:
    # Cauchy-Schwarz with square roots (a, b ≥ 0): (∑ √a)² ≤ n ∑ a (and its root); ∑ √(ab) ≤
    # √(∑ a ∑ b) (√(ab) = √a √b); with ∑ a = 1: ∑ √a ≤ √n; (∑ √a)² ≥ ∑ a (the cross terms are ≥ 0)
    # and its root; Minkowski: ∑ ‖(a, 1)‖ ≥ ‖(∑ a, n)‖; (∑ √a)² ≤ (∑ b)(∑ a/b) (√a = √b √(a/b))
    return [f"{FIN1} {NONNEG} : ∑ i, Real.sqrt (a i) ≤ Real.sqrt (n * ∑ i, a i)",
            f"{FIN1} {NONNEG} : (∑ i, Real.sqrt (a i)) ^ 2 ≤ n * ∑ i, a i",
            (f"{FIN2} {NONNEG} (hb : ∀ i, 0 ≤ b i) : "
             "∑ i, Real.sqrt (a i * b i) ≤ Real.sqrt ((∑ i, a i) * ∑ i, b i)"),
            in_range(f"{FIN1} {NONNEG} (hs : ∑ i, a i = 1) : ∑ i, Real.sqrt (a i) ≤ Real.sqrt (n : ℝ)"),
            f"{FIN1} {NONNEG} : (∑ i, Real.sqrt (a i)) ^ 2 ≥ ∑ i, a i",
            f"{FIN1} : ∑ i, Real.sqrt (a i ^ 2 + 1) ≥ Real.sqrt ((∑ i, a i) ^ 2 + (n : ℝ) ^ 2)",
            in_range(f"{FIN2} {NONNEG} (hb : ∀ i, 0 < b i) : "
                "(∑ i, Real.sqrt (a i)) ^ 2 ≤ (∑ i, b i) * ∑ i, a i / b i"),
            f"{FIN1} {NONNEG} : ∑ i, Real.sqrt (a i) ≥ Real.sqrt (∑ i, a i)"]


FAMILIES = {f.__name__: f for f in (termwise_amgm, bounded_terms, tangent_sq, tangent_power, tangent_sum_c,
                                     qm_am, power_mean, am_hm, titu, cauchy_schwarz, sqrt_tangent,
                                     tangent_rational, weighted_sum, mixed_cauchy, sqrt_cauchy)}

# FALSE statements: (the true statement changed, how, the changed statement). Each is refuted at an
# exact point found by the sampler (stored as ``counterexample``); several only at n = 0 (an empty
# sum) or only through Lean's x / 0 = 0.
FALSE = [
    ("termwise_amgm_1", "constant 2 raised to 3", f"{FIN1} : ∑ i, (a i ^ 2 + 1) ≥ 3 * ∑ i, a i"),
    ("termwise_amgm_5", "hypothesis 1 ≤ a i weakened to 0 < a i",
     in_range(f"{FIN1} {POS} : ∑ i, a i ^ 2 ≥ ∑ i, a i")),
    ("termwise_amgm_8", "hypothesis n ≠ 0 dropped (false at n = 0)",
     f"{FIN1} : ∑ i, a i < ∑ i, (a i ^ 2 + 1)"),
    ("bounded_terms_1", "direction reversed", f"{FIN1} {UNIT} : ∑ i, a i ≤ ∑ i, a i ^ 2"),
    ("bounded_terms_7", "hypothesis 0 < n dropped (false at n = 0)",
     f"{FIN1} (ha : ∀ i, 0 < a i ∧ a i < 1) : ∑ i, a i ^ 2 < ∑ i, a i"),
    ("bounded_terms_3", "bound a i ≤ 1 weakened to a i ≤ 2",
     f"{FIN1} (ha : ∀ i, 0 ≤ a i ∧ a i ≤ 2) : ∑ i, a i ≤ n"),
    ("tangent_sq_1", "≥ made strict (equality at a i = 1)", f"{FIN1} {SUM_N} : ∑ i, a i ^ 2 > n"),
    ("tangent_sq_4", "hypothesis 2 ≤ n weakened to 1 ≤ n",
     f"(n : ℕ) (hn : 1 ≤ n) (a : Fin n → ℝ) {SUM_N} : 3 * ∑ i, a i ^ 2 ≥ 6"),
    ("tangent_sq_6", "- n changed to + n", f"{FIN1} {SUM_N} : ∑ i, (a i - 1) ^ 2 = ∑ i, a i ^ 2 + n"),
    ("tangent_power_1", "hypothesis 0 < a i dropped (a³ ≥ 3a - 2 needs a ≥ -2)",
     f"{FIN1} {SUM_N} : ∑ i, a i ^ 3 ≥ n"),
    ("tangent_power_3", "direction reversed", f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / a i ≤ n"),
    ("tangent_sum_c_1", "bound 1 / n raised to 2 / n",
     "(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) (hs : ∑ i, a i = 1) : ∑ i, a i ^ 2 ≥ 2 / (n : ℝ)"),
    ("tangent_sum_c_4", "direction reversed", f"{FIN1} (s : ℝ) (hs : ∑ i, a i = s) : s ^ 2 ≥ n * ∑ i, a i ^ 2"),
    ("qm_am_1", "factor n lowered to n - 1", f"{FIN1} : (∑ i, a i) ^ 2 ≤ ((n : ℝ) - 1) * ∑ i, a i ^ 2"),
    ("qm_am_2", "direction reversed", in_range(f"{FIN1} : n * ∑ i, a i ^ 2 ≤ (∑ i, a i) ^ 2")),
    ("power_mean_2", "hypothesis 0 ≤ a i dropped", f"{FIN1} : (∑ i, a i) ^ 3 ≤ (n : ℝ) ^ 2 * ∑ i, a i ^ 3"),
    ("am_hm_1", "hypothesis 0 < a i dropped", f"{FIN1} : (∑ i, a i) * (∑ i, 1 / a i) ≥ (n : ℝ) ^ 2"),
    ("am_hm_3", "n ^ 2 raised to n ^ 3",
     f"(n : ℕ) (hn : 0 < n) (a : Fin n → ℝ) {POS} : ∑ i, 1 / a i ≥ (n : ℝ) ^ 3 / ∑ i, a i"),
    ("titu_1", "hypothesis 0 < b i weakened to 0 ≤ b i (a i ^ 2 / 0 = 0)",
     f"{FIN2} (hb : ∀ i, 0 ≤ b i) : (∑ i, a i) ^ 2 / ∑ i, b i ≤ ∑ i, a i ^ 2 / b i"),
    ("titu_2", "direction reversed",
     f"{FIN2} (hb : ∀ i, 0 < b i) : ∑ i, a i ^ 2 / b i ≤ (∑ i, a i) ^ 2 / ∑ i, b i"),
    ("cauchy_schwarz_1", "direction reversed",
     f"{FIN2} : (∑ i, a i * b i) ^ 2 ≥ (∑ i, a i ^ 2) * (∑ i, b i ^ 2)"),
    ("cauchy_schwarz_3", "square root dropped",
     f"{FIN2} : ∑ i, a i * b i ≤ (∑ i, a i ^ 2) * ∑ i, b i ^ 2"),
    ("sqrt_tangent_1", "≤ made strict (equality at a i = 1)",
     f"{FIN1} {NONNEG} {SUM_N} : ∑ i, Real.sqrt (a i) < n"),
    ("sqrt_tangent_6", "bound a i ≤ 1 dropped", f"{FIN1} {NONNEG} : ∑ i, a i ≤ ∑ i, Real.sqrt (a i)"),
    ("tangent_rational_1", "direction reversed", f"{FIN1} {POS} {SUM_N} : ∑ i, 1 / (1 + a i) ≤ (n : ℝ) / 2"),
    ("weighted_sum_6", "hypothesis ∑ b i = 1 dropped",
     f"{FIN2} (hb : ∀ i, 0 < b i) : (∑ i, b i * a i) ^ 2 ≤ ∑ i, b i * a i ^ 2"),
    ("mixed_cauchy_2", "1 subtracted from the larger side (false at n = 0 too)",
     f"{FIN2} (x : ℝ) : 2 * x * ∑ i, a i * b i ≤ x ^ 2 * ∑ i, a i ^ 2 + ∑ i, b i ^ 2 - 1"),
    ("sqrt_cauchy_1", "direction reversed",
     f"{FIN1} {NONNEG} : ∑ i, Real.sqrt (a i) ≥ Real.sqrt (n * ∑ i, a i)"),
]


# ---------------------------------------------------------------- the evaluator (own, exact)

mpmath.mp.dps = 50
POINTS = 200
N_VALUES = (0, 1, 2, 3, 4, 5, 7)
N_HYPS = {"0 < n": lambda n: 0 < n, "1 ≤ n": lambda n: 1 <= n, "2 ≤ n": lambda n: 2 <= n,
          "n ≠ 0": lambda n: n != 0}
RELATIONS = ("≤", "≥", "<", ">", "=")
TINY, HUGE = Fraction(1, 10**6), Fraction(10**6)
_TOKEN = re.compile(r"\s*(Real\.sqrt|Finset\.range|[A-Za-z_][\w']*|\d+|[-+*/^(),:]|[≤≥≠<>=∧∑∀∈→ℝℕ])")
_BINOP = {"+": (65, 66), "-": (65, 66), "*": (70, 71), "/": (70, 71)}
_FORBIDDEN = ("↑", "√", "Finset.sum", "Finset.univ", "(i : ℝ)", "open ", "Nat.", "∏")


class Unsupported(ValueError):
    """A statement outside the subset this suite uses."""


def _tokens(text: str) -> list[str]:
    out, i, text = [], 0, text.rstrip()
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise Unsupported(f"cannot read {text[i:]!r}")
        out.append(m.group(1))
        i = m.end()
    return out


class _Parser:
    """Lean's reading of one proposition (precedences: ``+ -`` 65, ``* /`` 70, ``^`` 75 with a numeral
    exponent, prefix ``-`` 75, application tighter; the body of ``∑`` is read at 67, so a top-level
    ``+``/``-`` ends it). Terms are tuples: ("num", q), ("n",), ("var", x), ("app", a), ("sum", body),
    ("neg", t), ("add"/"sub"/"mul"/"div", l, r), ("pow", t, k), ("sqrt", t)."""

    def __init__(self, toks: list[str], families: dict[str, str], scalars: set[str]):
        self.toks, self.i, self.families, self.scalars = toks, 0, families, scalars
        self.index: str | None = None  # the bound index inside a ∑ body or a ∀
        self.styles: set[str] = set()   # "fin" / "range" of every ∑ and ∀ met

    def peek(self, k: int = 0) -> str | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or want is not None and tok != want:
            raise Unsupported(f"expected {want or 'a token'} at {self.toks[self.i:]}")
        self.i += 1
        return tok

    def done(self) -> None:
        if self.peek() is not None:
            raise Unsupported(f"left over: {self.toks[self.i:]}")

    def binder(self) -> str:
        """After ``∑``/``∀``: the index and the style (``i,`` ``i : Fin n,`` ``i ∈ Finset.range n,``)."""
        idx = self.take()
        if not idx.isidentifier() or idx in self.families or idx in self.scalars or idx == "n":
            raise Unsupported(f"bad index {idx}")
        if self.peek() == ",":
            style = "fin"
        elif self.toks[self.i:self.i + 3] == [":", "Fin", "n"]:
            style, self.i = "fin", self.i + 3
        elif self.toks[self.i:self.i + 3] == ["∈", "Finset.range", "n"]:
            style, self.i = "range", self.i + 3
        else:
            raise Unsupported(f"bad binder at {self.toks[self.i:]}")
        self.take(",")
        self.styles.add(style)
        return idx

    def atom(self) -> tuple:
        """An application argument: a numeral, a name or a parenthesised term."""
        tok = self.peek()
        if tok == "(":
            return self.leading()
        if tok is not None and (tok.isdigit() or tok.isidentifier()):
            return self.leading()
        raise Unsupported(f"missing argument at {self.toks[self.i:]}")

    def leading(self) -> tuple:
        tok = self.take()
        if tok.isdigit():
            return ("num", Fraction(int(tok)))
        if tok == "(":
            if self.toks[self.i:self.i + 4] == ["n", ":", "ℝ", ")"]:
                self.i += 4
                return self.nat()
            inner = self.expr(0)
            self.take(")")
            return inner
        if tok == "Real.sqrt":
            return ("sqrt", self.atom())
        if tok == "-":
            return ("neg", self.expr(75))
        if tok == "∑":
            if self.index is not None:
                raise Unsupported("nested ∑")
            self.index = self.binder()
            body = self.expr(67)
            self.index = None
            return ("sum", body)
        if tok in self.families:
            if self.index is None or self.take() != self.index:
                raise Unsupported(f"{tok} applied to something other than the bound index")
            return ("app", tok)
        if tok == "n":
            return self.nat()
        if tok in self.scalars:
            return ("var", tok)
        raise Unsupported(f"unknown name or token {tok!r}")

    def nat(self) -> tuple:
        if self.index is not None:
            raise Unsupported("n inside a ∑ body or a per-index hypothesis")
        return ("n",)

    def expr(self, prec: int) -> tuple:
        left = self.leading()
        while True:
            tok = self.peek()
            if tok in _BINOP and _BINOP[tok][0] >= prec:
                self.i += 1
                op = {"+": "add", "-": "sub", "*": "mul", "/": "div"}[tok]
                left = (op, left, self.expr(_BINOP[tok][1]))
            elif tok == "^" and 75 >= prec:
                self.i += 1
                k = self.take()
                if not k.isdigit() or self.peek() == "^":
                    raise Unsupported("exponents are natural numerals")
                left = ("pow", left, int(k))
            else:
                return left

    def comparison(self) -> tuple:
        lhs = self.expr(51)
        rel = self.take()
        if rel not in RELATIONS:
            raise Unsupported(f"not a comparison: {rel}")
        return (rel, lhs, self.expr(51))


def _lift(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else x


def _sqrt(x):
    """``Real.sqrt``: 0 below 0, exact at squares of rationals, else mpmath."""
    if x <= 0:
        return Fraction(0)
    if isinstance(x, Fraction):
        p, q = math.isqrt(x.numerator), math.isqrt(x.denominator)
        if p * p == x.numerator and q * q == x.denominator:
            return Fraction(p, q)
    return mpmath.sqrt(_lift(x))


def _arith(op: str, a, b):
    if isinstance(a, Fraction) != isinstance(b, Fraction):
        a, b = _lift(a), _lift(b)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    return a / b if b != 0 else Fraction(0)  # Lean: x / 0 = 0


def evaluate(t: tuple, env: dict, i: int | None = None):
    """The value of a term at ``env`` = {"n": int, "fam": {a: [values]}, "var": {x: value}}, the
    bound index at ``i``."""
    kind = t[0]
    if kind == "num":
        return t[1]
    if kind == "n":
        return Fraction(env["n"])
    if kind == "var":
        return env["var"][t[1]]
    if kind == "app":
        return env["fam"][t[1]][i]
    if kind == "sum":
        total = Fraction(0)
        for j in range(env["n"]):
            total = _arith("add", total, evaluate(t[1], env, j))
        return total
    if kind == "neg":
        return -evaluate(t[1], env, i)
    if kind == "pow":
        return evaluate(t[1], env, i) ** t[2]
    if kind == "sqrt":
        return _sqrt(evaluate(t[1], env, i))
    return _arith(kind, evaluate(t[1], env, i), evaluate(t[2], env, i))


def _gap(prop: tuple, env: dict, i: int | None = None):
    """lhs - rhs and the tolerance: 0 when exact, 10⁻⁴⁰ relative with mpmath."""
    lhs, rhs = evaluate(prop[1], env, i), evaluate(prop[2], env, i)
    d = _arith("sub", lhs, rhs)
    tol = 0 if isinstance(d, Fraction) else mpmath.mpf(10) ** -40 * (1 + abs(_lift(lhs)) + abs(_lift(rhs)))
    return d, tol


def holds(prop: tuple, env: dict, i: int | None = None) -> bool:
    """The comparison at ``env``: exactly, or up to the tolerance (strict ones need more than it)."""
    d, tol = _gap(prop, env, i)
    rel = prop[0]
    if rel in "<>":
        return d < -tol if rel == "<" else d > tol
    return {"≤": d <= tol, "≥": d >= -tol, "=": abs(d) <= tol}[rel]


def refuted(prop: tuple, env: dict) -> bool:
    """The comparison clearly fails at ``env`` (exactly, or by more than the tolerance)."""
    d, tol = _gap(prop, env)
    if not tol:
        return not holds(prop, env)
    return {"≤": d > tol, "≥": d < -tol, "<": d > tol, ">": d < -tol, "=": abs(d) > tol}[prop[0]]


class Statement:
    """One statement read: ``n``'s hypotheses, the families and their style, the scalars, the
    per-index hypotheses, the other hypotheses (equalities solved by rescaling or assignment) and
    the goal."""

    def __init__(self, body: str):
        if any(s in body for s in _FORBIDDEN):
            raise Unsupported("outside the subset")
        toks = _tokens(body)
        self.families: dict[str, str] = {}
        self.scalars: list[str] = []
        self.n_hyps: list[str] = []
        groups, i = [], 0
        while i < len(toks) and toks[i] == "(":
            depth, j = 1, i + 1
            while depth:
                depth += {"(": 1, ")": -1}.get(toks[j], 0)
                j += 1
            groups.append(toks[i + 1:j - 1])
            i = j
        if toks[i:i + 1] != [":"]:
            raise Unsupported("no goal after the binders")
        if not groups or groups[0] != ["n", ":", "ℕ"]:
            raise Unsupported("the first binder must be (n : ℕ)")
        hyp_toks = []
        for g in groups[1:]:
            names, typ = g[:g.index(":")], g[g.index(":") + 1:]
            if typ in (["Fin", "n", "→", "ℝ"], ["ℕ", "→", "ℝ"]):
                self.families.update({x: "fin" if typ[0] == "Fin" else "range" for x in names})
            elif typ == ["ℝ"]:
                self.scalars += names
            elif len(names) == 1 and " ".join(typ) in N_HYPS:
                self.n_hyps.append(" ".join(typ))
            elif len(names) == 1 and "ℕ" not in typ and "ℝ" not in typ[:1]:
                hyp_toks.append(typ)
            else:
                raise Unsupported(f"binder {' '.join(g)}")
        styles = set(self.families.values())
        if len(styles) != 1:
            raise Unsupported("one family style per statement, and at least one family")
        self.style = styles.pop()
        self.index_hyps: list[list[tuple]] = []
        self.hyps: list[tuple] = []
        seen: set[str] = set()
        for typ in hyp_toks:
            p = _Parser(typ, self.families, set(self.scalars))
            if typ[0] == "∀":
                p.take("∀")
                p.index = p.binder()
                conj = [p.comparison()]
                while p.peek() == "∧":
                    p.take("∧")
                    conj.append(p.comparison())
                self.index_hyps.append(conj)
            else:
                self.hyps.append(p.comparison())
            p.done()
            seen |= p.styles
        p = _Parser(toks[i + 1:], self.families, set(self.scalars))
        self.goal = p.comparison()
        p.done()
        seen |= p.styles
        if seen != {self.style}:
            raise Unsupported(f"sums/∀ in style {seen}, families in style {self.style}")
        self.solve = [self._solver(h) for h in self.hyps if h[0] == "="]
        self.mpmath = "Real.sqrt" in body

    def _solver(self, h: tuple) -> tuple:
        """How an equality hypothesis is met: ("set", x, term) or ("scale", a, target)."""
        _, lhs, rhs = h
        if rhs[0] == "var":
            return ("set", rhs[1], lhs)
        if lhs[0] == "sum" and lhs[1][0] == "app":
            return ("scale", lhs[1][1], rhs)
        raise Unsupported("an equality hypothesis is ∑ i, a i = t or … = x")

    def allowed_n(self) -> list[int]:
        return [n for n in N_VALUES if all(N_HYPS[h](n) for h in self.n_hyps)]

    def complete(self, env: dict) -> bool:
        """Meet the equalities (in order), then check every hypothesis; False when they fail."""
        for how, name, term in self.solve:
            value = evaluate(term, env)
            if how == "set":
                env["var"][name] = value
            else:
                total = sum(env["fam"][name][: env["n"]], Fraction(0))
                if total == 0:
                    if value != 0:
                        return False
                    continue
                env["fam"][name] = [x * value / total for x in env["fam"][name]]
        if not all(all(holds(c, env, j) for c in conj) for conj in self.index_hyps for j in range(env["n"])):
            return False
        return all(holds(h, env) for h in self.hyps)


def _value(rng: random.Random):
    """A random rational: wide, in [0, 1], positive log-uniform on (e⁻⁷, e⁷), or a simple one."""
    r = rng.random()
    if r < 0.3:
        return Fraction(rng.randint(-4000, 4000), 1000)
    if r < 0.55:
        return Fraction(rng.randint(0, 1000), 1000)
    if r < 0.8:
        return Fraction(max(1, round(math.exp(rng.uniform(-7, 7)) * 10**6)), 10**6)
    return rng.choice((Fraction(0), Fraction(1), Fraction(2), Fraction(1, 2), Fraction(-1), Fraction(3),
                       Fraction(1, 3), Fraction(10)))


def _patterns(n: int) -> list[list[Fraction]]:
    """Special values of one family, simplest first: constant, one term moved, 0/1 alternating, 1..n,
    one term tiny or large."""
    one = [Fraction(1)] * n
    out = [[Fraction(c)] * n for c in (1, 2, Fraction(1, 2), 0, -1)]
    out += [[t] + one[1:] for t in (Fraction(3), Fraction(0), Fraction(-1), Fraction(-3))]
    out += [[Fraction(k % 2) for k in range(n)], [Fraction(k + 1) for k in range(n)]]
    out += [[t] + one[1:] for t in (TINY, HUGE)]
    return [p for p in out if len(p) == n]


def _unique(points: list[list[Fraction]]) -> list[list[Fraction]]:
    return [list(p) for p in dict.fromkeys(tuple(p) for p in points)]


SCALAR_SPECIAL = (Fraction(1), Fraction(2), Fraction(1, 2), Fraction(-1), Fraction(0), Fraction(3))


def _special(st: Statement, n: int):
    """The special environments for one n: every pattern for each family (all pairs for two
    families), scalars cycling through ``SCALAR_SPECIAL`` combinations."""
    fams = list(st.families)
    pats = _unique(_patterns(n)) or [[]]
    combos = itertools.cycle(itertools.product(SCALAR_SPECIAL, repeat=len(st.scalars)))
    for values in itertools.product(pats, repeat=len(fams)):
        yield {"n": n, "fam": dict(zip(fams, values)), "var": dict(zip(st.scalars, next(combos)))}


def _random_env(st: Statement, n: int, rng: random.Random) -> dict | None:
    """Random scalars, then per index random family values meeting the per-index hypotheses
    (near-equal values one time in four); None when an index cannot be met."""
    env = {"n": n, "fam": {a: [Fraction(0)] * n for a in st.families},
           "var": {x: _value(rng) for x in st.scalars}}
    near = rng.random() < 0.25
    base = {a: _value(rng) for a in st.families}
    for j in range(n):
        for _ in range(1000):
            for a in st.families:
                env["fam"][a][j] = (base[a] * (1 + Fraction(rng.randint(-100, 100), 1000)) if near
                                    else _value(rng))
            if all(all(holds(c, env, j) for c in conj) for conj in st.index_hyps):
                break
        else:
            return None
    return env


def check_statement(name: str, body: str, points: int = POINTS) -> None:
    """Abort unless the goal holds at every special point meeting the hypotheses and at ``points``
    random ones (cycling through the allowed n)."""
    try:
        st = Statement(body)
    except Unsupported as err:
        raise SystemExit(f"{name}: {err}: {body}") from err
    rng = random.Random(name)
    ns = st.allowed_n()

    def check(env: dict) -> bool:
        if not st.complete(env):
            return False
        if not holds(st.goal, env):
            raise SystemExit(f"{name}: false at {_show(env)}: {body}")
        return True

    for n in ns:
        for env in _special(st, n):
            check(env)
    accepted = tries = 0
    while accepted < points:
        tries += 1
        if tries > 100_000:
            raise SystemExit(f"{name}: only {accepted} of {tries} points meet the hypotheses: {body}")
        env = _random_env(st, ns[tries % len(ns)], rng)
        accepted += env is not None and check(env)


def counterexample(name: str, body: str, tries: int = 20_000) -> dict:
    """The first point (special points by increasing n, n = 0 last, then random ones) meeting the
    hypotheses at which the goal clearly fails; abort when none is found."""
    st = Statement(body)
    rng = random.Random(f"{name}/false")
    ns = sorted(st.allowed_n(), key=lambda n: (n == 0, n))
    candidates = itertools.chain((env for n in ns for env in _special(st, n)),
                                 (_random_env(st, ns[k % len(ns)], rng) for k in range(tries)))
    for env in candidates:
        if env is not None and st.complete(env) and refuted(st.goal, env):
            return _show(env)
    raise SystemExit(f"{name}: no counterexample found: {body}")


def _show(env: dict) -> dict:
    """A point as JSON: n, each family's first n values and each scalar, rationals as text."""
    return {"n": env["n"], **{a: [str(x) for x in v[: env["n"]]] for a, v in env["fam"].items()},
            **{x: str(v) for x, v in env["var"].items()}}


def false_rows(true_rows: list[dict]) -> list[dict]:
    """One line per ``FALSE`` entry, with its exact counterexample."""
    by_name = {r["id"].split("/", 1)[1]: r for r in true_rows}
    out = []
    for true_name, how, body in FALSE:
        true = by_name[true_name]
        name = f"{true_name}_false"
        out.append({"id": f"{true['id']}__false", "true_id": true["id"], "family": true["family"],
                    "split": true["split"], "how": how, "source": SOURCE,
                    "lean": f"theorem {name} {body} := by sorry", "counterexample": counterexample(name, body)})
    if len({r["lean"] for r in out}) != len(out):
        raise SystemExit("duplicate FALSE statements")
    print(f"refuted {len(out)} FALSE statements exactly")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    ap.add_argument("--points", type=int, default=POINTS, help="random points per statement")
    args = ap.parse_args(argv)
    check_families(FAMILIES, lambda name, body: check_statement(name, body, args.points), args.points)
    rows = build_rows(PREFIX, FAMILIES, HELD_OUT, SOURCE)
    false = false_rows(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    write_suite(args.out, PREFIX, FAMILIES, HELD_OUT, SOURCE)
    (args.out / f"{PREFIX}_false.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in false), encoding="utf-8")
    known = {"_comment": "FALSE statements of the nvar suite (nvar_false.jsonl), each refuted at an exact "
                         "rational point (field `counterexample`): any 'proved' is a soundness failure.",
             **{r["id"]: f"FALSE variant of {r['true_id']}: {r['how']}; refuted exactly at its "
                         "`counterexample` point" for r in false}}
    (args.out / "known_false.json").write_text(json.dumps(known, ensure_ascii=False, indent=1) + "\n",
                                               encoding="utf-8")
    print(f"wrote {args.out / f'{PREFIX}_false.jsonl'} ({len(false)} problems) and known_false.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
