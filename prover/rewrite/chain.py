"""Rewrites composed into a chain: the closers' normal form.

A :class:`Chain` is an ordered list of :class:`Link`\\ s, each a :class:`~prover.rewrite.base.Rewrite`
with a condition on when it runs; running it on a goal gives the one-subgoal steps it applied
(``steps[i].subgoals[0] == steps[i+1].goal``) and the goal left at the end. The closers'
normal form (:func:`normal_form`) is such a chain, made of the same rewrite objects the search
proposes as candidates (:mod:`prover.rewrite`), in a fixed order:

1. roots become variables (:class:`IntroduceRoots`, hypotheses included); a root of a monomial
   ``t³ = abc`` makes its variables cubes and ``t`` their product (:class:`MonomialRootVariables`,
   :class:`EliminateVariables`, :class:`ConstraintRoots`, :class:`EliminateVariables`);
2. equality hypotheses lose their denominators (:class:`ClearHypothesisDenominators`);
3. when nothing else applied yet, a linear constraint homogenises by scaling
   (:class:`ScaleByConstraint` first where only sign hypotheses are left, else
   :class:`HomogenizeByScaling`, else :class:`ScaleByConstraint`);
4. denominators and positive factors go (:class:`ClearDenominators`, squares kept);
5. a homogeneous polynomial constraint lifts the target (:class:`Homogenize`), then 4 again.

The chain ends in a polynomial goal ``N >= 0`` (``> 0``) or it fails (``goal`` None). Nothing
here is trusted: every step carries a certificate the kernel checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from prover.ir import Goal, Step
from prover.rewrite.base import Rewrite, is_polynomial_goal
from prover.rewrite.constraint_roots import ConstraintRoots
from prover.rewrite.eliminate import EliminateVariables
from prover.rewrite.fractions import ClearDenominators, ClearHypothesisDenominators
from prover.rewrite.homogenize import Homogenize
from prover.rewrite.introduce import IntroduceRoots
from prover.rewrite.monomial_roots import MonomialRootVariables
from prover.rewrite.scaling import HomogenizeByScaling, ScaleByConstraint
from prover.rewrite.substitute import ProductOneRatios

#: When a link runs: ``always``; ``at_start`` only while no earlier link applied;
#: ``after_previous`` only when the link just before it applied.
When = Literal["always", "at_start", "after_previous"]


@dataclass(frozen=True)
class Link:
    rewrite: Rewrite
    when: When = "always"
    required: bool = False      # the chain fails when this link does not apply


@dataclass
class FirstOf:
    """A rewrite that applies the first of ``options`` that applies."""

    options: Sequence[Rewrite]
    name: str = "first-of"

    def accepts(self, goal: Goal) -> bool:
        return any(r.accepts(goal) for r in self.options)

    def apply(self, goal: Goal) -> Step | None:
        for r in self.options:
            step = r.apply(goal) if r.accepts(goal) else None
            if step is not None:
                return step
        return None


@dataclass
class Normalized:
    steps: list[Step] = field(default_factory=list)
    goal: Goal | None = None        # the final polynomial goal (None: could not normalise)

    def attach(self, leaf: Step) -> Step:
        """Link the chain above ``leaf`` and return the root step."""
        node = leaf
        for st in reversed(self.steps):
            st.children = [node]
            node = st
        return node


@dataclass(frozen=True)
class Chain:
    links: tuple[Link, ...]

    def run(self, goal: Goal) -> Normalized:
        """The steps the links apply, in order; ``goal`` of the result is the polynomial goal
        reached (None when a required link did not apply or the end is not polynomial)."""
        out = Normalized()
        current, applied_last = goal, False
        for link in self.links:
            if link.when == "at_start" and out.steps or link.when == "after_previous" and not applied_last:
                applied_last = False
                continue
            step = link.rewrite.apply(current) if link.rewrite.accepts(current) else None
            applied_last = step is not None
            if step is None:
                if link.required:
                    return out
                continue
            out.steps.append(step)
            current = step.subgoals[0]
        out.goal = current if is_polynomial_goal(current) else None
        return out


def normal_form(*, homogenize: bool = True, product_substitution: bool = False) -> Chain:
    """The closers' chain. ``product_substitution`` starts with :class:`ProductOneRatios`
    (required; it makes the goal homogeneous, so no other homogenisation follows)."""
    clear = ClearDenominators(drop_squares=False, max_factor_terms=None)
    links: list[Link] = []
    if product_substitution:
        links.append(Link(ProductOneRatios(), required=True))
        homogenize = False
    links += [Link(IntroduceRoots(hypotheses=True)),
              # t³ = abc: a = x³, b = y³, c = z³, then t = xyz (prover.rewrite.monomial_roots)
              Link(MonomialRootVariables()), Link(EliminateVariables(), when="after_previous"),
              Link(ConstraintRoots(), when="after_previous"), Link(EliminateVariables(), when="after_previous"),
              Link(ClearHypothesisDenominators())]
    if homogenize:
        scale = FirstOf((ScaleByConstraint(only_sign_hypotheses=True), HomogenizeByScaling(), ScaleByConstraint()))
        links.append(Link(scale, when="at_start"))
    links.append(Link(clear))
    if homogenize:
        links += [Link(Homogenize(require_sign=True)), Link(clear, when="after_previous")]
    return Chain(tuple(links))


def normalize(goal: Goal, *, homogenize: bool = True, product_substitution: bool = False) -> Normalized:
    """Run :func:`normal_form` on ``goal``."""
    return normal_form(homogenize=homogenize, product_substitution=product_substitution).run(goal)
