"""Symbolic rewrite generators (each proposes kernel-checkable steps for a goal)."""

from prover.rewrite.base import Candidate, TacticGenerator
from prover.rewrite.bound_homogenize import HomogenizeByBound, HomogenizeByEquality
from prover.rewrite.fractions import ClearDenominators
from prover.rewrite.fudging import IsolatedFudging
from prover.rewrite.homogenize import Homogenize
from prover.rewrite.introduce import IntroduceRoots
from prover.rewrite.reduce import ReduceByConstraints
from prover.rewrite.split import SplitOrder
from prover.rewrite.substitute import ProductOneSubstitution, RaviSubstitution, ReciprocalSubstitution
from prover.rewrite.tangent import TangentLine


def default_generators() -> list[TacticGenerator]:
    """The symbolic rewrites, cheapest and most often useful first."""
    return [IsolatedFudging(), TangentLine(), IntroduceRoots(), HomogenizeByBound(), HomogenizeByEquality(),
            ClearDenominators(), ReduceByConstraints(), Homogenize(), RaviSubstitution(), ProductOneSubstitution(),
            ReciprocalSubstitution(), SplitOrder()]


__all__ = [
    "Candidate",
    "ClearDenominators",
    "Homogenize",
    "HomogenizeByBound",
    "HomogenizeByEquality",
    "IntroduceRoots",
    "IsolatedFudging",
    "ProductOneSubstitution",
    "RaviSubstitution",
    "ReciprocalSubstitution",
    "ReduceByConstraints",
    "SplitOrder",
    "TacticGenerator",
    "TangentLine",
    "default_generators",
]
