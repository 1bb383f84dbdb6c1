"""One base exception: each call docs/python-api.md lists under "Errors" raises the class it
names there, which a caller catches as ``mmbdeid.MmbdeidError`` and, for the value and type
errors, as the built-in ``ValueError`` / ``TypeError`` the API documented before."""
import ast
from pathlib import Path

import pytest

import mmbdeid
from mmbdeid.errors import (InputError, MmbdeidError, MmbdeidRuntimeError, MmbdeidTypeError,
                            MmbdeidValueError)
from mmbdeid.output.operators import register_operator

PACKAGE = Path(mmbdeid.__file__).parent


def _bad_model(tmp_path):
    path = tmp_path / "not-a-model.mmbdeid"
    path.write_text("no zip here", encoding="utf-8")
    return str(path)


# (what is called, the call, the class docs/python-api.md says it raises, the built-in too)
CALLS = [
    ("NameTagger.load of a missing file",
     lambda tmp: mmbdeid.NameTagger.load(str(tmp / "missing.mmbdeid")), InputError, None),
    ("scrub with a file that is no model",
     lambda tmp: mmbdeid.scrub("Hi Kay", model=_bad_model(tmp)), InputError, None),
    ("Scrubber with a missing statistics file",
     lambda tmp: mmbdeid.Scrubber(stats=str(tmp / "missing.stats")).scrub("Hi Kay"),
     InputError, None),
    ("scrub with a threshold out of range",
     lambda tmp: mmbdeid.scrub("Hi Kay", threshold=2), MmbdeidValueError, ValueError),
    ("scrub with an unknown kind",
     lambda tmp: mmbdeid.scrub("Hi Kay", kinds="SHOE_SIZE"), MmbdeidValueError, ValueError),
    ("Scrubber with an unknown step",
     lambda tmp: mmbdeid.Scrubber(steps=["no-such-step"]), MmbdeidValueError, ValueError),
    ("Scrubber with an unknown mode",
     lambda tmp: mmbdeid.Scrubber(mode="no-such-mode"), MmbdeidValueError, ValueError),
    ("scrub_records of a record without a text",
     lambda tmp: list(mmbdeid.scrub_records([{"id": 1}])), MmbdeidValueError, ValueError),
    ("NameTagger.fit with a span outside its text",
     lambda tmp: mmbdeid.NameTagger(max_iterations=1).fit(
         [{"text": "Hi Kay", "spans": [{"start": 3, "end": 60, "label": "NAME"}]}]),
     MmbdeidValueError, ValueError),
    ("scrub of None",
     lambda tmp: mmbdeid.scrub(None), MmbdeidTypeError, TypeError),
    ("scrub with an allow list given as a string",
     lambda tmp: mmbdeid.scrub("Hi Kay", allow="Kay"), MmbdeidTypeError, TypeError),
    ("scrub with an author that is a list",
     lambda tmp: mmbdeid.scrub("Hi Kay", author=["kaygirl"]), MmbdeidTypeError, TypeError),
    ("scrub_dataframe of a list",
     lambda tmp: mmbdeid.scrub_dataframe([{"text": "Hi Kay"}]), MmbdeidTypeError, TypeError),
    ("an operator function returning a number",
     lambda tmp: mmbdeid.scrub("Thanks Mary Jane", mode=lambda label, original: 7),
     MmbdeidTypeError, TypeError),
    ("register_operator of a class that is no operator",
     lambda tmp: register_operator(int), MmbdeidTypeError, TypeError),
    ("predicting with a NameTagger not fitted",
     lambda tmp: mmbdeid.NameTagger().predict_name_proba(["Hi Kay"]),
     MmbdeidRuntimeError, RuntimeError),
]


@pytest.mark.parametrize("what, call, raised, builtin", CALLS, ids=[c[0] for c in CALLS])
def test_each_documented_call_raises_its_class_under_the_base(tmp_path, what, call, raised,
                                                              builtin):
    with pytest.raises(MmbdeidError) as caught:
        call(tmp_path)
    assert type(caught.value) is raised
    if builtin is not None:
        assert isinstance(caught.value, builtin)


def test_the_base_and_input_error_are_exported_from_the_package():
    assert mmbdeid.MmbdeidError is MmbdeidError
    assert mmbdeid.InputError is InputError
    assert {"MmbdeidError", "InputError"} <= set(mmbdeid.__all__)


def test_an_input_error_still_names_its_file_and_line():
    assert str(InputError("bad record", "posts.jsonl", 3)) == "posts.jsonl:3: bad record"


_BUILTINS = {"ValueError", "TypeError", "RuntimeError"}


def _bare_raises(path: Path):
    """The ``raise ValueError(...)`` (TypeError, RuntimeError) in ``path``, and the
    classes derived straight from one of those."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and isinstance(node.exc.func, ast.Name) and node.exc.func.id in _BUILTINS:
            yield "%s:%d raise %s" % (path.name, node.lineno, node.exc.func.id)
        if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id in _BUILTINS for base in node.bases) \
                and path.name != "errors.py":
            yield "%s:%d class %s" % (path.name, node.lineno, node.name)


def test_the_package_raises_no_bare_builtin_error():
    """Every value, type and runtime error the package raises is a MmbdeidError."""
    found = [bare for path in sorted(PACKAGE.rglob("*.py")) for bare in _bare_raises(path)]
    assert found == []
