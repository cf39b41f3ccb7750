"""Symbolic rewrites: each proposes kernel-checkable steps for a goal (``generate``, for the
search); the one-step ones are also :class:`~prover.rewrite.base.Rewrite` values (``accepts`` /
``apply``) that :mod:`prover.rewrite.chain` composes into the closers' normal form.
Nothing here is trusted: the kernel checks every step.

Modules:

* ``abs_values`` — ``|p|`` with a known sign of ``p`` becomes a variable equal to ``±p`` (``introduce`` steps).
* ``base`` — Shared pieces of the symbolic rewrite generators.
* ``bound_homogenize`` — Homogenize a goal with an *inequality* constraint ``A <= B`` (or ``A >= B``), ``A``, ``B`` homogeneous of …
* ``cauchy_roots`` — Cauchy–Schwarz for two square roots: ``√(a₁b₁) + √(a₂b₂) ≤ √((a₁ + a₂)(b₁ + b₂))``, a complete tree.
* ``chain`` — Rewrites composed into a chain: the closers' normal form.
* ``constraint_roots`` — Equality constraints that are k-th powers lose the power: ``q^k = r^k`` → ``q = r`` (``rewrite``).
* ``cube`` — Cubing both sides: ``S <= L`` from ``S³ <= L³`` (a ``rewrite``; ``x ↦ x³`` is increasing).
* ``degree_parts`` — Homogeneous parts: a slack that is a sum of parts of different degrees, each proved alone.
* ``denominator_signs`` — Denominators that are positive only thanks to the constraints become hypotheses.
* ``eliminate`` — Eliminate a variable that a hypothesis defines as a monomial of the others (``substitute``).
* ``facts`` — What a goal's hypotheses say about one variable, for the rewrites that cite them.
* ``fractions`` — Fractions out of the target and out of equality hypotheses.
* ``homogenize`` — Homogenize a polynomial goal with an equality constraint ``p = k`` (``p`` homogeneous).
* ``introduce`` — Roots and rational powers become new variables (``introduce`` steps).
* ``minkowski`` — Minkowski pairs: two square roots of sums of squares on the big side become one (``combine``).
* ``monomial_roots`` — The variables of a monomial under a named root become roots themselves (``t³ = abc``: ``a = x³``, …; ``introduce``).
* ``monotone`` — Monotone peel: ``f(a) <= f(b)`` from ``a <= b`` for ``f = √·``, ``f = ·^r``, ``exp`` or ``log`` (``monotone`` steps).
* ``points`` — Points of a goal: where it is tight, and sampled points of its domain.
* ``product_bounds`` — Product bounds: replace the univariate factors of a product by simpler bounds (``scale``).
* ``radical_groups`` — Radical groups: prove a sum of square roots group by group, each group by isolating radicals.
* ``rational_peel`` — Rational peel: ``F(X) <= F(Y)`` from ``X <= Y`` for the same rational function ``F`` on both sides.
* ``reduce`` — Reduce a goal modulo its equality hypotheses (``abc = 1``: ``a³bc`` → ``a²``), the whole polynomial …
* ``rescale`` — Rescale variables ``x ↦ x/k`` (``k`` rational) when that makes the coefficients simpler (``substitute``).
* ``separable`` — Separable goals: when no hypothesis links two groups of variables, prove each group's part alone.
* ``root_powers`` — Named roots' powers go back to what they name: ``t^e`` → ``X^(e//k)·t^(e%k)`` when ``t^k = X``.
* ``root_tangent`` — Tangent bounds of named square roots, term by term: ``2k·√X ≤ X + k²`` at the equality point.
* ``scaling`` — Homogenise a goal with a linear constraint ``g = c`` (``g`` a linear form, ``c != 0``) by scaling every …
* ``square`` — Squaring with a proved sign: ``S <= L`` from ``0 <= L`` and ``S² <= L²`` (``square`` steps).
* ``split_kinds`` — Two inequalities added: a target whose terms are of different kinds (radicals, fractions, …
* ``split`` — Case split on the order of the variables, one case per orbit of the goal's symmetry group.
* ``substitute`` — Changes of variables as ``substitute`` steps: Ravi (triangle sides), ``abc = 1`` → ratios, and reciprocals …
* ``tangent`` — Tangent line trick: ``Σ_x g_x(x) + K >= 0`` under ``Σ_x φ_x(x) + c₀ = 0`` closes term by term.
* ``tangent_plane`` — Tangent-plane trick: bound each fraction of the goal by its tangent plane at the equality point.
* ``undo`` — A variable seen only through one Möbius form ``φ(v)`` (``1/p``, ``p + 2``, ``1/(1/c + 1)``) becomes ``u = φ(v)``; one seen only through ``v^k`` becomes ``u = v^k``.
* ``variable_signs`` — Signs of variables that the hypotheses imply only together become hypotheses (SOS-proved).
* ``transcendental`` — ``Real.exp`` and ``Real.log`` terms become new variables with Mathlib's facts (``introduce`` steps).
* ``termwise_sos`` — Isolated fudging (SOS-fudging): close ``Σ_i T_i + K >= 0`` term by term.

Trust: none; everything produced here is checked by the kernel (or, for Lean files, by Lean).
"""

import os

from prover.rewrite.abs_values import AbsAsVariable, AbsSignSplit
from prover.rewrite.base import Candidate, Rewrite, SingleStepRewrite, TacticGenerator
from prover.rewrite.bound_homogenize import HomogenizeByBound, HomogenizeByEquality
from prover.rewrite.cauchy_roots import CauchyRoots
from prover.rewrite.constraint_roots import ConstraintRoots
from prover.rewrite.cube import CubeGoals, PowerMeanCubeRoots
from prover.rewrite.degree_parts import DegreeParts
from prover.rewrite.denominator_signs import DenominatorSigns
from prover.rewrite.eliminate import EliminateVariables
from prover.rewrite.fractions import ClearDenominators, ClearHypothesisDenominators
from prover.rewrite.homogenize import Homogenize
from prover.rewrite.introduce import IntroduceRoots
from prover.rewrite.minkowski import MinkowskiPairs
from prover.rewrite.monotone import MonotonePeel
from prover.rewrite.product_bounds import ProductBounds
from prover.rewrite.radical_groups import RadicalGroups
from prover.rewrite.rational_peel import RationalPeel
from prover.rewrite.reduce import ReduceByConstraints, ReduceFractionsByConstraints
from prover.rewrite.rescale import RescaleVariables
from prover.rewrite.root_powers import EliminateRootPowers
from prover.rewrite.root_tangent import RootTangentBounds
from prover.rewrite.scaling import HomogenizeByScaling, ScaleByConstraint
from prover.rewrite.separable import SeparableGoals
from prover.rewrite.split import SplitOrder
from prover.rewrite.split_kinds import SplitByKind
from prover.rewrite.square import SquareGoals
from prover.rewrite.substitute import (
    LinearisingSubstitution,
    ProductOneRatios,
    ProductOneSubstitution,
    RaviSubstitution,
    ReciprocalSubstitution,
)
from prover.rewrite.tangent import TangentLine
from prover.rewrite.tangent_plane import TangentPlane
from prover.rewrite.termwise_sos import IsolatedFudging
from prover.rewrite.transcendental import ExpLogAsVariables
from prover.rewrite.undo import GeneralisePowers, UndoSubstitution
from prover.rewrite.variable_signs import VariableSigns


def disabled_generators() -> set[str]:
    """Names listed in ``PROVER_DISABLE_GENERATORS`` (comma-separated): left out of
    :func:`symbolic_generators`, for ablations (``PROVER_DISABLE_GENERATORS=monotone-peel prover eval …``
    measures a run without the monotone peel; the eval workers inherit the environment)."""
    return {n.strip() for n in os.environ.get("PROVER_DISABLE_GENERATORS", "").split(",") if n.strip()}


def symbolic_generators() -> list[TacticGenerator]:
    """The cheap symbolic rewrites, most often useful first (less :func:`disabled_generators`)."""
    off = disabled_generators()
    gens = [ExpLogAsVariables(), SeparableGoals(), SplitByKind(), RescaleVariables(), MonotonePeel(), UndoSubstitution(), GeneralisePowers(), RationalPeel(), IntroduceRoots(), EliminateVariables(), AbsAsVariable(),
            AbsSignSplit(),             ConstraintRoots(), SquareGoals(), PowerMeanCubeRoots(), CubeGoals(), EliminateRootPowers(),
            DegreeParts(), HomogenizeByBound(),
            HomogenizeByEquality(), ClearDenominators(), ReduceByConstraints(), Homogenize(), RaviSubstitution(), ProductOneSubstitution(),
            ReciprocalSubstitution(), LinearisingSubstitution(), SplitOrder()]
    return [g for g in gens if getattr(g, "name", "") not in off]


def termwise_generators() -> list[TacticGenerator]:
    """Termwise bounds that call SOS for each term's fact (seconds, so the search runs them in a
    group of their own: a slow one must not cost the cheap rewrites their candidates)."""
    return [MinkowskiPairs(), CauchyRoots(), IsolatedFudging(), TangentPlane(), RadicalGroups(), ProductBounds(), DenominatorSigns(),
            RootTangentBounds(), VariableSigns()]


def direct_generators() -> list[TacticGenerator]:
    """Complete-tree methods for a known inequality read in the goal's shape: the search asks them
    on the original goal before its closers (less :func:`disabled_generators`)."""
    off = disabled_generators()
    return [g for g in (MinkowskiPairs(), CauchyRoots()) if g.name not in off]


def default_generators() -> list[TacticGenerator]:
    """All symbolic generators."""
    return symbolic_generators() + termwise_generators()


__all__ = [
    "AbsAsVariable",
    "AbsSignSplit",
    "Candidate",
    "CauchyRoots",
    "ClearDenominators",
    "ClearHypothesisDenominators",
    "ConstraintRoots",
    "CubeGoals",
    "DegreeParts",
    "DenominatorSigns",
    "EliminateRootPowers",
    "EliminateVariables",
    "ExpLogAsVariables",
    "Homogenize",
    "HomogenizeByBound",
    "HomogenizeByEquality",
    "HomogenizeByScaling",
    "IntroduceRoots",
    "IsolatedFudging",
    "LinearisingSubstitution",
    "MinkowskiPairs",
    "MonotonePeel",
    "PowerMeanCubeRoots",
    "ProductBounds",
    "ProductOneRatios",
    "ProductOneSubstitution",
    "RadicalGroups",
    "RationalPeel",
    "RaviSubstitution",
    "ReciprocalSubstitution",
    "ReduceByConstraints",
    "ReduceFractionsByConstraints",
    "RescaleVariables",
    "Rewrite",
    "RootTangentBounds",
    "ScaleByConstraint",
    "SeparableGoals",
    "SingleStepRewrite",
    "SplitByKind",
    "SplitOrder",
    "SquareGoals",
    "TacticGenerator",
    "TangentLine",
    "TangentPlane",
    "VariableSigns",
    "default_generators",
    "disabled_generators",
    "symbolic_generators",
    "termwise_generators",
]
