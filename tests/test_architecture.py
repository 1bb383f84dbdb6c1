"""The package's shape (issue 20): no import circle, no import from a lower layer to a higher
one, no module over 500 lines.

Imports are read from the source (``ast``), those inside functions included: a lazy import
is still a dependency. What the package does not yet meet is listed below by name, so the
test fails on anything new and on anything fixed but still listed (the lists only shrink).
"""
import ast
from pathlib import Path
from typing import Dict, List, Set

import pytest

import paths

PACKAGE = Path(paths.PACKAGE)
MAX_LINES = 500

# Bottom to top: a module may import its own layer and the layers below it. A layer is a
# set of sub-packages or modules (the package root holds only ``__version__`` and the
# lazily imported API names).
LAYERS = [
    {"mmbdeid", "kinds", "errors", "checks"},
    {"lexicon"},
    {"spans"},
    {"text"},
    {"files"},
    {"model", "bundled"},
    {"crf"},
    {"detect"},
    {"people"},
    {"output"},
    {"evaluation"},
    {"audit", "jobs"},
    {"api"},
    {"adapters"},
    {"cli", "__main__"},
]

# What issue 20 is to remove.
KNOWN_CIRCLES: set = set()
KNOWN_UPWARD: set = set()
KNOWN_LARGE: set = set()


def module_files(root: Path = PACKAGE) -> Dict[str, Path]:
    """Dotted module name -> file, for every module of the package at ``root``."""
    modules = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: Dict[str, Path]) -> Set[str]:
    """The package's modules that module ``name`` (at ``path``) imports anywhere."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:      # ``from . import checks`` imports a module
                submodule = "%s.%s" % (target, alias.name)
                found.add(submodule if submodule in modules else target)
    return {target for target in found if target in modules and target != name}


def import_graph(root: Path = PACKAGE) -> Dict[str, Set[str]]:
    modules = module_files(root)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def circles(graph: Dict[str, Set[str]]) -> Set[tuple]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.add(tuple(sorted(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_of(module: str) -> int:
    parts = module.split(".")
    key = parts[1] if len(parts) > 1 else parts[0]
    for number, layer in enumerate(LAYERS):
        if key in layer:
            return number
    raise AssertionError("%s is in no layer: add it to LAYERS" % module)


def upward_imports(graph: Dict[str, Set[str]]) -> Set[tuple]:
    return {(module, target) for module, targets in graph.items() for target in targets
            if layer_of(target) > layer_of(module)}


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"a"}}, {("a", "b")}),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, {("a", "b", "c")}),
    ({"a": {"b"}, "b": set()}, set()),
])
def test_circles_are_found(graph, expected):
    assert circles(graph) == expected


def test_imports_are_read_relative_and_inside_functions(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "high.py").write_text(
        "from ..low import x\n\ndef later():\n    from . import other\n")
    (package / "sub" / "other.py").write_text("import pkg.low\n")
    assert import_graph(package) == {"pkg": set(), "pkg.low": set(), "pkg.sub": set(),
                                     "pkg.sub.high": {"pkg.low", "pkg.sub.other"},
                                     "pkg.sub.other": {"pkg.low"}}


def test_no_import_circle_but_the_known_ones():
    assert circles(import_graph()) == KNOWN_CIRCLES


def test_no_import_runs_up_a_layer_but_the_known_ones():
    assert upward_imports(import_graph()) == KNOWN_UPWARD


def test_no_module_over_500_lines_but_the_known_ones():
    large = {name for name, path in module_files().items()
             if len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES}
    assert large == KNOWN_LARGE


# detect/ by stage (issue 32): the chain machinery and the model stage at the top, one
# sub-package per other stage.
DETECT_STAGES = {"keep", "names", "kinds"}
# Where one name is defined in several modules of detect/ and lexicon/ on purpose: each
# step's own tuning constants (the module says which step).
SHARED_NAMES_ALLOWED = {"MAX_WORDS", "MAX_ZIPF", "MIN_LETTERS", "MIN_SURNAME_RANK", "NAME_MIN",
                        "NAME_ZIPF", "RARE_ZIPF", "WORD_ZIPF", "CUES", "OF_HEADS", "PREFIXES"}


def module_level_names(path: Path) -> Set[str]:
    """The names of the functions, classes and assignments at the top of the module at
    ``path`` (imports and dunder names left out)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets = [node.name]
        elif isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        else:
            continue
        found.update(name for name in targets if not name.startswith("__"))
    return found


def names_defined_twice(paths) -> Dict[str, List[str]]:
    """Name -> the modules (sorted) of each module-level name defined in more than one."""
    where: Dict[str, List[str]] = {}
    for path in paths:
        for name in module_level_names(path):
            where.setdefault(name, []).append(str(path))
    return {name: sorted(files) for name, files in where.items() if len(files) > 1}


def test_detect_has_a_sub_package_per_stage():
    detect = PACKAGE / "detect"
    packages = {path.parent.name for path in detect.glob("*/__init__.py")}
    assert packages == DETECT_STAGES


def test_a_name_defined_twice_is_found(tmp_path):
    (tmp_path / "a.py").write_text("import re\nSENTENCE_ENDS = {'.'}\ndef _word(t):\n    pass\n")
    (tmp_path / "b.py").write_text("from a import SENTENCE_ENDS\n_word = None\n__all__ = []\n")
    (tmp_path / "c.py").write_text("SENTENCE_ENDS = {'.', '!'}\n__all__ = []\n")
    assert names_defined_twice(sorted(tmp_path.glob("*.py"))) == {
        "SENTENCE_ENDS": [str(tmp_path / "a.py"), str(tmp_path / "c.py")],
        "_word": [str(tmp_path / "a.py"), str(tmp_path / "b.py")]}


def test_no_module_level_name_defined_twice_in_detect_and_lexicon():
    """One name, one thing: a word helper the steps share is defined once (detect/words.py,
    lexicon/names.py) and imported; one that differs has a name of its own."""
    paths = sorted((PACKAGE / "detect").rglob("*.py")) + sorted((PACKAGE / "lexicon").rglob("*.py"))
    twice = names_defined_twice(paths)
    assert set(twice) - SHARED_NAMES_ALLOWED == set(), twice
    assert SHARED_NAMES_ALLOWED <= set(twice)       # the list only shrinks


def test_every_sub_package_is_installed():
    """setup.cfg lists the packages one by one: a new sub-package not listed there is left
    out of the installed package (mmbdeid.audit was, until issue 32)."""
    import configparser
    config = configparser.ConfigParser()
    config.read(PACKAGE.parent / "setup.cfg")
    listed = set(config["options"]["packages"].split())
    found = {".".join(path.parent.relative_to(PACKAGE.parent).parts)
             for path in PACKAGE.rglob("__init__.py")}
    assert found - listed == set()
