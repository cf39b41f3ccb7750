"""Symbolic rewrites: each proposes kernel-checkable steps for a goal (``generate``, for the
search); the one-step ones are also :class:`~prover.rewrite.base.Rewrite` values (``accepts`` /
``apply``) that :mod:`prover.rewrite.chain` composes into the closers' normal form.
Nothing here is trusted: the kernel checks every step."""

from prover.rewrite.base import Candidate, Rewrite, SingleStepRewrite, TacticGenerator
from prover.rewrite.bound_homogenize import HomogenizeByBound, HomogenizeByEquality
from prover.rewrite.denominator_signs import DenominatorSigns
from prover.rewrite.fractions import ClearDenominators, ClearHypothesisDenominators
from prover.rewrite.homogenize import Homogenize
from prover.rewrite.introduce import IntroduceRoots
from prover.rewrite.product_bounds import ProductBounds
from prover.rewrite.radical_groups import RadicalGroups
from prover.rewrite.reduce import ReduceByConstraints, ReduceFractionsByConstraints
from prover.rewrite.scaling import HomogenizeByScaling, ScaleByConstraint
from prover.rewrite.split import SplitOrder
from prover.rewrite.substitute import (
    ProductOneRatios,
    ProductOneSubstitution,
    RaviSubstitution,
    ReciprocalSubstitution,
)
from prover.rewrite.tangent import TangentLine
from prover.rewrite.tangent_plane import TangentPlane
from prover.rewrite.termwise_sos import IsolatedFudging


def symbolic_generators() -> list[TacticGenerator]:
    """The cheap symbolic rewrites, most often useful first."""
    return [TangentLine(), IntroduceRoots(), HomogenizeByBound(), HomogenizeByEquality(), ClearDenominators(),
            ReduceByConstraints(), Homogenize(), RaviSubstitution(), ProductOneSubstitution(),
            ReciprocalSubstitution(), SplitOrder()]


def termwise_generators() -> list[TacticGenerator]:
    """Termwise bounds that call SOS for each term's fact (seconds, so the search runs them in a
    group of their own: a slow one must not cost the cheap rewrites their candidates)."""
    return [IsolatedFudging(), TangentPlane(), RadicalGroups(), ProductBounds(), DenominatorSigns()]


def default_generators() -> list[TacticGenerator]:
    """All symbolic generators."""
    return symbolic_generators() + termwise_generators()


__all__ = [
    "Candidate",
    "ClearDenominators",
    "ClearHypothesisDenominators",
    "DenominatorSigns",
    "Homogenize",
    "HomogenizeByBound",
    "HomogenizeByEquality",
    "HomogenizeByScaling",
    "IntroduceRoots",
    "IsolatedFudging",
    "ProductBounds",
    "ProductOneRatios",
    "ProductOneSubstitution",
    "RadicalGroups",
    "RaviSubstitution",
    "ReciprocalSubstitution",
    "ReduceByConstraints",
    "ReduceFractionsByConstraints",
    "Rewrite",
    "ScaleByConstraint",
    "SingleStepRewrite",
    "SplitOrder",
    "TacticGenerator",
    "TangentLine",
    "TangentPlane",
    "default_generators",
    "symbolic_generators",
    "termwise_generators",
]
