import re

import pytest
import sympy as sp

from prover.ir import Goal
from prover.llm.base import GenerationParams, LLMError
from prover.llm.ranker import LLMRanker
from prover.llm.rewrite import LLMRewriter, parse_candidate, rewrite_step
from prover.llm.spec import make_backend
from prover.problem import Relation, var
from tests.llm_fixtures import ChatServer, build_tiny_model

a, b, c = var("a"), var("b"), var("c")
POS = (Relation(a, ">", 0), Relation(b, ">", 0))


def test_spec_parsing_errors_are_clear():
    assert make_backend("none") is None and make_backend(None) is None
    with pytest.raises(LLMError, match="model after"):
        make_backend("http://127.0.0.1:1/v1")
    with pytest.raises(LLMError, match="unknown LLM"):
        make_backend("foo:bar")
    with pytest.raises(LLMError, match="unknown LLM"):
        make_backend("justaword")


def test_parse_candidate():
    assert parse_candidate("(a - b)^2\nbecause", ("a", "b")) == (a - b) ** 2
    assert parse_candidate("```\nsqrt(a)*b\n```", ("a", "b")) == sp.sqrt(a) * b
    assert parse_candidate("a^2 >= 0", ("a",)) is None
    assert parse_candidate("__import__('os')", ("a",)) is None
    assert parse_candidate("0.5*a", ("a",)) is None          # floats are refused
    assert parse_candidate("z + 1", ("a",)) is None          # unknown variable


def test_rewrite_step_exact_and_modulo_constraint():
    g = Goal(("a", "b"), POS, Relation(2 * a * b, "<=", a**2 + b**2))
    assert rewrite_step(g, (a - b) ** 2, "t") is not None
    assert rewrite_step(g, (a - b) ** 2 + 1, "t") is None
    g2 = Goal(("a", "b"), POS + (Relation(a + b, "=", 2),), Relation(a * b, "<=", 1))
    st = rewrite_step(g2, (a - b) ** 2 / 4, "t")            # 1 - ab = (a-b)^2/4 when a+b=2
    assert st is not None and st.certificate["eq_terms"]
    assert rewrite_step(g2, (a - b) ** 2 / 3, "t") is None


def _sympy_answer(prompt: str, n: int) -> list[str]:
    """A correct-or-wrong oracle: answers the factored slack, a wrong form, and junk."""
    expr = re.search(r"Expression: (.*)\n", prompt) or re.search(r"E: (.*)\n", prompt)
    if expr is None:
        return ["7"] * n
    e = sp.sympify(expr.group(1).replace("^", "**"))
    good = str(sp.factor(e)).replace("**", "^")
    return ([good, good + " + 1", "no idea"] * n)[:n]


def test_http_backend_end_to_end_with_retry():
    with ChatServer(_sympy_answer, fail_first=1) as srv:
        backend = make_backend(f"{srv.url}#test-model")
        rw = LLMRewriter(backend, GenerationParams(n=3), kinds=("factor",))
        g = Goal(("a", "b"), POS, Relation(2 * a * b, "<=", a**2 + b**2))
        cands = rw.propose(g)
        assert srv.requests and srv.requests[-1]["model"] == "test-model"
    assert [c.source for c in cands] == ["llm:factor"]
    s = rw.stats
    assert (s.calls, s.outputs, s.parseable, s.valid_rewrites) == (1, 3, 2, 1)
    assert s.rejected_not_equal == 1 and s.rejected_unparseable == 1


def test_http_backend_down_is_counted_not_raised():
    backend = make_backend("http://127.0.0.1:9/v1#m")
    backend.retries = 0
    backend.timeout_s = 2
    rw = LLMRewriter(backend, GenerationParams(n=1), kinds=("factor",))
    assert rw.propose(Goal(("a",), (), Relation(0, "<=", a**2))) == []
    assert rw.stats.errors


def test_ranker_blends_scores():
    with ChatServer(lambda p, n: ["8"] * n) as srv:
        r = LLMRanker(make_backend(f"{srv.url}#m"))
        scores = r.score([Goal(("a",), (), Relation(0, "<=", a**2))])
    assert scores == [0.8]
    assert r.blend(10.0, 0.8) < r.blend(10.0, None) == 10.0


def test_ranker_blends_with_the_base_ranker_it_is_given():
    g = Goal(("a",), (), Relation(0, "<=", a**2))
    with ChatServer(lambda p, n: ["8"] * n) as srv:
        r = LLMRanker(make_backend(f"{srv.url}#m"), base=lambda goals: [10.0] * len(goals))
        assert r.rank([g, g]) == [6.0, 6.0]          # 10 · (1 − 0.5 · 0.8)
        flat = LLMRanker(make_backend(f"{srv.url}#m"))   # no base: the LLM's scores alone order
        assert flat.rank([g]) == [1.0 * (1 - 0.5 * 0.8)]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    return build_tiny_model(tmp_path_factory.mktemp("tiny-lm"))


def test_transformers_backend_tiny_model(tiny_model):
    backend = make_backend(f"hf:{tiny_model}")
    outs = backend.generate(["Expression: a*b + a*c\nSimplified expression:"], GenerationParams(n=2, max_tokens=12))
    assert len(outs) == 1 and len(outs[0]) == 2 and all(isinstance(t, str) for t in outs[0])
    rw = LLMRewriter(backend, GenerationParams(n=2, max_tokens=12))
    rw.propose(Goal(("a", "b"), POS, Relation(2 * a * b, "<=", a**2 + b**2)))
    s = rw.stats
    assert s.calls == len(rw.templates) and s.outputs == 2 * s.calls
    assert s.parseable + s.rejected_unparseable == s.outputs
    assert s.valid_rewrites <= s.parseable


def test_missing_model_folder_is_a_clear_error(tmp_path):
    pytest.importorskip("transformers")
    with pytest.raises(LLMError, match="no local model"):
        make_backend(f"hf:{tmp_path / 'nope'}")
    from prover.llm.hf_backend import TransformersBackend

    with pytest.raises(LLMError, match="no local model"):
        TransformersBackend(str(tmp_path / "nope")).generate(["x"], GenerationParams(n=1))


def test_vllm_backend_without_vllm_is_clear():
    try:
        import vllm  # noqa: F401
        pytest.skip("vllm installed; GPU tests live elsewhere")
    except ImportError:
        pass
    with pytest.raises(LLMError, match="gpu"):
        make_backend("vllm:some/model").generate(["x"], GenerationParams(n=1))
