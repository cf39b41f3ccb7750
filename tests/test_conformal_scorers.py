"""Scorers: exact symbolic checking from parents, self-consistency with a fake generator, combinations."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from prover.conformal.claims import Claim, ClaimGraph
from prover.conformal.scorers import (
    CombinedScorer,
    GivenScore,
    SelfConsistencyScorer,
    SymbolicScorer,
    backend_generator,
    make_scorer,
    symbolic_verdicts,
)
from prover.conformal.symbolic import REFUTED, UNKNOWN, VERIFIED, relations_from_text


def graph(texts, edges=(), formulas=None, variables=(), hypotheses=(), scores=None) -> ClaimGraph:
    formulas = formulas or [None] * len(texts)
    claims = [Claim(t, True, dict(scores[i]) if scores else {}, f) for i, (t, f) in enumerate(zip(texts, formulas))]
    return ClaimGraph("t", "Solve it.", claims, nx.DiGraph(list(edges)), variables=list(variables),
                      hypotheses=list(hypotheses))


def verdict(text, parents=()):
    ex = graph(list(parents) + [text], [(i, len(parents)) for i in range(len(parents))])
    return symbolic_verdicts(ex)[-1]


def test_text_arithmetic():
    assert verdict(r"Therefore, $\frac{30}{14} = \frac{15}{7}$.") == VERIFIED
    assert verdict("6 + (100-1)*4 equals 6 + 396.") == VERIFIED
    assert verdict("$3 + 4 = 8$") == REFUTED
    assert verdict(r"The radius of the circle is $\sqrt{7^2+24^2}=25$.") == VERIFIED
    assert verdict("The annual rate is $0.07 = 7/100$.") == VERIFIED  # decimals read exactly


def test_text_identities_and_conditional_equations():
    assert verdict("$6+12i-3i$ simplifies to $6+9i$") == VERIFIED
    # a conditional equation is not refuted as a would-be identity (pitfall in the notes) …
    assert verdict("Setting the exponents equal gives $36n=72$.") == UNKNOWN
    # … but is checked on the solutions of the parents' equations
    assert verdict("So $n = 2$.", parents=["Setting the exponents equal gives $36n=72$."]) == VERIFIED
    assert verdict("So $n = 3$.", parents=["Setting the exponents equal gives $36n=72$."]) == REFUTED


def test_text_that_is_not_math_is_unknown():
    assert verdict("The sum of the integers $-7$ and $7$ is $0$.") == UNKNOWN
    assert verdict(r"Therefore, $\lceil x \rceil = \frac{23+7}{14} = \frac{30}{14}$.") == UNKNOWN
    assert verdict(r"Converting $1\frac{1}{6}$ gives $\frac{7}{6}=14w$.") == UNKNOWN
    assert verdict("There are 14 possible values of n.") == UNKNOWN
    assert relations_from_text("__import__('os') = 1") == []


def test_universal_formulas_from_parents():
    v = ["a", "b"]
    ex = graph(["identity", "square", "am-gm", "scaled", "wrong identity", "false claim"],
               [(0, 2), (2, 3)],
               ["a**2 + b**2 - 2*a*b = (a - b)**2", "(a - b)**2 >= 0", "a**2 + b**2 >= 2*a*b",
                "3*a**2 + 3*b**2 >= 6*a*b", "a**2 + b**2 = (a + b)**2", "a**2 >= 2*a"], v)
    assert symbolic_verdicts(ex) == [VERIFIED, VERIFIED, VERIFIED, VERIFIED, REFUTED, REFUTED]


def test_universal_inequality_needs_its_parents():
    ex = graph(["a", "b"], [], ["a**2 + b**2 >= 2*a*b", "a**2 + b**2 >= 2*a*b"], ["a", "b"])
    assert symbolic_verdicts(ex) == [UNKNOWN, UNKNOWN]  # true, but nothing to derive it from


def test_hypotheses_give_positivity_and_restrict_counterexamples():
    ex = graph(["x", "y"], [], ["t*(a - b)**2 >= 0", "t >= 1"], ["a", "b", "t"], ["t > 0"])
    assert symbolic_verdicts(ex) == [VERIFIED, REFUTED]


def test_symbolic_scorer_with_fallback():
    ex = graph(["$1 + 1 = 2$", "$1 + 1 = 3$", "no math here", "no math either"],
               scores=[{"f": 5}, {"f": 5}, {"f": 3}, {"f": -3}])
    conf = SymbolicScorer(GivenScore("f"))(ex)
    assert conf[0] == 1.0 and conf[1] == 0.0
    assert 0 < conf[3] < conf[2] < 1
    assert list(SymbolicScorer()(ex)[2:]) == [0.5, 0.5]


def test_given_score_missing_key():
    with pytest.raises(KeyError, match="no 'f' score"):
        GivenScore("f")(graph(["x"]))


def test_self_consistency_with_fake_generator():
    calls = []

    def fake(prompt: str, n: int) -> list[str]:
        calls.append((prompt, n))
        return ["We get $x = 4$. So $y = 2$.", "Thus $x = 4$.", "Here $x = 5$.", "Clearly x = 4.",
                "The answer is 3 solutions."][:n]

    ex = graph(["So $x = 4$.", "Hence $y = 2$.", "The answer is 3 solutions.", "$z = 1$"])
    sc = SelfConsistencyScorer(fake, n=5)
    got = sc(ex)
    assert got == pytest.approx([(3 - 1) / 5, 1 / 5, 1 / 5, 0.0])
    sc(ex)
    assert len(calls) == 1 and calls[0][1] == 5 and "Solve it." in calls[0][0]  # cached per prompt


def test_self_consistency_checks_sample_count():
    with pytest.raises(ValueError, match="expected 1 to 5"):
        SelfConsistencyScorer(lambda p, n: [], n=5)(graph(["a"]))
    # a backend may return fewer samples than asked: the mean is over what came back
    assert SelfConsistencyScorer(lambda p, n: ["$x = 1$"], n=5)(graph(["$x = 1$"]))[0] == 1.0


def test_backend_generator_adapts_the_llm_interface():
    from prover.llm.base import GenerationParams

    seen = []

    class FakeBackend:
        name = "fake"

        def generate(self, prompts: list[str], params: GenerationParams) -> list[list[str]]:
            seen.append((prompts, params))
            return [[f"$x = {i}$" for i in range(params.n)] for _ in prompts]

    gen = backend_generator(FakeBackend())
    assert gen("p", 3) == ["$x = 0$", "$x = 1$", "$x = 2$"]
    assert seen[0][0] == ["p"] and seen[0][1].n == 3 and seen[0][1].temperature == 1.0
    got = make_scorer("self-consistency", gen)(graph(["$x = 1$"]))
    assert got[0] == pytest.approx((1 - 4) / 5)  # one sample agrees, four state another value


def test_make_scorer_specs():
    ex = graph(["$1 + 1 = 2$", "words"], scores=[{"f": 1.0, "g": 2.0}, {"f": -1.0, "g": 0.0}])
    assert np.allclose(make_scorer("given:f")(ex), [1, -1])
    assert np.allclose(make_scorer("given:f*2,given:g*0.5")(ex), [3, -2])
    assert make_scorer("symbolic+given:f")(ex)[0] == 1.0
    assert isinstance(make_scorer("given:f,given:g"), CombinedScorer)
    with pytest.raises(ValueError, match="needs an LLM"):
        make_scorer("self-consistency")
    with pytest.raises(ValueError, match="unknown scorer"):
        make_scorer("magic")
