"""The engine-neutral row expressions of :mod:`skbrier.engines._plans`."""

from skbrier.engines._plans import Term, col, lit


def test_term_operators():
    p, w = col("p"), col("w")
    assert repr(p + 1) == repr(Term("+", p, lit(1)))
    assert repr(1 + p) == repr(Term("+", lit(1), p))
    assert repr(p - 2) == repr(Term("-", p, lit(2)))
    assert repr(2 - p) == repr(Term("-", lit(2), p))
    assert repr(p / w) == repr(Term("/", p, w))
    assert repr(p * 1.0) == repr(p) and repr(1.0 * p) == repr(p)
    assert repr(3 * p) == repr(Term("*", lit(3), p))
    for method, op in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"), ("eq", "==")):
        assert repr(getattr(p, method)(0.5)) == repr(Term(op, p, lit(0.5)))
    ok = p.ge(0.0) & w.le(1.0) | p.not_null()
    assert ok.op == "or" and ok.args[0].op == "and" and ok.args[1].op == "not_null"
    assert repr(p.ceil()) == "ceil(col('p',),)" and p.floor().op == "floor"
