"""Sphinx configuration for skbrier (numpydoc + sphinx-gallery)."""

import os
import sys
import warnings

sys.path.insert(0, os.path.abspath(".."))

import skbrier  # noqa: E402
from skbrier._core.dispatch import support_table  # noqa: E402

# the backend support table of the user guide, generated from the declarations
# on the public functions (skbrier._core.dispatch)
os.makedirs(os.path.join(os.path.dirname(__file__), "generated"), exist_ok=True)
with open(
    os.path.join(os.path.dirname(__file__), "generated", "backend_support.txt"), "w"
) as _f:
    _f.write(support_table())

project = "skbrier"
author = "skbrier developers"
copyright = "2026, skbrier developers"
release = skbrier.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
autodoc_default_options: dict[str, object] = {}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "auto_examples/*.ipynb",
    "auto_examples/*.py",
    "auto_examples/*.zip",
    "auto_examples/*.md5",
    "auto_examples/*.json",
]
html_theme = "alabaster"
html_static_path = ["_static"]

# -- offline documentation ---------------------------------------------------
# The build needs no network (CI has none).  Cross-references to other
# projects resolve through small inventories committed under _intersphinx/
# (made by _intersphinx/make_inventories.py) that point at the projects' real
# URLs; mathematics is rendered by a vendored MathJax (_static/mathjax/).
intersphinx_mapping = {
    "python": ("https://docs.python.org/3/", "_intersphinx/python.inv"),
    "numpy": ("https://numpy.org/doc/stable/", "_intersphinx/numpy.inv"),
    "scipy": ("https://docs.scipy.org/doc/scipy/", "_intersphinx/scipy.inv"),
    "sklearn": ("https://scikit-learn.org/stable/", "_intersphinx/sklearn.inv"),
    "pandas": ("https://pandas.pydata.org/docs/", "_intersphinx/pandas.inv"),
    "matplotlib": ("https://matplotlib.org/stable/", "_intersphinx/matplotlib.inv"),
    "optuna": ("https://optuna.readthedocs.io/en/stable/", "_intersphinx/optuna.inv"),
}
intersphinx_disabled_reftypes: list[str] = []
nitpicky = True  # every cross-reference must resolve (see nitpick_ignore below)

# Nitpicky builds (-n) must be clean.  The only references left unresolved on
# purpose are to private helpers (a leading underscore anywhere in the dotted
# name, or the bare names below): the API pages document public names only;
# the architecture page and the Notes sections name the helpers for
# contributors, who read them in the source.
nitpick_ignore_regex = [(r"py:.*", r"skbrier\.(.*\.)?_[a-z_].*")]
nitpick_ignore = [
    # private kernels named in Notes sections (skbrier/metrics/_*_math.py,
    # skbrier/stats/bootstrap.py), not part of the public API
    ("py:func", "murphy_from_statistics"),
    ("py:obj", "murphy_from_statistics"),
    ("py:obj", "binned_statistics"),
    ("py:func", "default_block_length"),
    ("py:obj", "skbrier.stats.block_length.default_block_length"),
    # the Optuna objective's class, documented through its owner
    ("py:class", "skbrier.model_selection.tuning.BrierObjective"),
    # a module page does not exist (its public names are on the API page)
    ("py:mod", "skbrier.metrics.decomposition"),
    # pieces of type hints that Sphinx splits or leaves unqualified
    # (``str | Path``, ``dict[str, Any]``, ``tuple[Any, ...]``): the small
    # offline python inventory in docs/_intersphinx has no entries for them
    ("py:class", "Path"),
    ("py:class", "os.PathLike"),
    ("py:class", "dict[str"),
    ("py:class", "tuple[~typing.Any"),
    # the generated signature of the pooled scorers' sums (brier_sum ...:
    # skbrier._scorer_table.score_function) keeps the alias as text
    ("py:class", "ArrayLike"),
]
mathjax_path = "mathjax/tex-chtml.js"

# -- readable signatures -------------------------------------------------------
# Type hints stay in the signature, written as in the source: ``ArrayLike``
# instead of numpy's expanded union of private protocols.
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_type_aliases = {
    "ArrayLike": "numpy.typing.ArrayLike",
    "NDArray": "numpy.typing.NDArray",
}
autodoc_member_order = "bysource"
python_use_unqualified_type_names = True

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/(plot_|optuna_)",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "plot_gallery": "True",
    "within_subsection_order": "FileNameSortKey",
    "remove_config_comments": True,
    # the execution-times page loads jQuery and DataTables from CDNs
    "write_computation_times": False,
}

warnings.filterwarnings("ignore", category=UserWarning, message="Matplotlib is currently")


# -- one page per public name ------------------------------------------------
# Docstrings may name an object by the module that defines it
# (``skbrier.stats.brier_inference``, ``skbrier.metrics.brier.brier_score``)
# or, inside a class, by its bare method name (``plot``); the API pages
# document each object once, under its public name (``skbrier.brier_inference``).
# This resolver links such references to that page instead of failing.


def _import_object(name: str):
    """The object a dotted name reaches, by attribute access or by import.

    Attribute access first: ``skbrier.stats.long_run_covariance`` is the
    function even where a submodule has the same name; then by importing the
    longest module prefix: ``skbrier.metrics.net_benefit.decision_curve``
    where the package attribute ``net_benefit`` is a function.
    """
    import importlib

    parts = name.split(".")
    for by_attribute in (True, False):
        start = 1 if by_attribute else len(parts)
        for i in range(start, 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            try:
                for attr in parts[i:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            return getattr(obj, "__func__", obj)  # classmethods: the one function
    return None


_PUBLIC: dict = {}


def _public_names(env) -> dict:
    """id(object) -> (documented name, object type) for every skbrier object."""
    objects = env.get_domain("py").objects
    if _PUBLIC.get("_n") != len(objects):
        _PUBLIC.clear()
        for name, entry in objects.items():
            if name.startswith("skbrier"):
                obj = _import_object(name)
                if obj is not None and not isinstance(obj, (str, int, float)):
                    _PUBLIC.setdefault(id(obj), (name, entry.objtype))
        _PUBLIC["_n"] = len(objects)
    return _PUBLIC


def _resolve_public(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    module = node.get("py:module") or ""
    cls = node.get("py:class") or ""
    candidates = [target]
    if cls:
        candidates.append(f"{module}.{cls}.{target}")
        # a class documented away from its module (skbrier.results) names the
        # functions of its own module bare
        home = getattr(_import_object(f"{module}.{cls}"), "__module__", None)
        if isinstance(home, str):
            candidates.append(f"{home}.{target}")
    if module:
        candidates.append(f"{module}.{target}")
    candidates.append(f"skbrier.{target}")
    candidates.append(f"skbrier.results.{target}")  # a result class named bare
    public = _public_names(env)
    domain = env.get_domain("py")
    for cand in candidates:
        if not cand.startswith("skbrier"):
            continue
        obj = _import_object(cand)
        if obj is None or id(obj) not in public:
            continue
        name, _ = public[id(obj)]
        found = domain.resolve_any_xref(
            env, node["refdoc"], app.builder, name, node, contnode
        )
        if found:
            return found[0][1]
    # an attribute that the class documents in its Attributes section (a
    # dataclass field, a fitted attribute) has no page of its own: link the class
    if cls and "." not in target and node.get("reftype") in ("attr", "meth", "obj"):
        owner = _import_object(f"{module}.{cls}")
        if owner is not None and id(owner) in public:
            name, _ = public[id(owner)]
            found = domain.resolve_any_xref(
                env, node["refdoc"], app.builder, name, node, contnode
            )
            if found:
                return found[0][1]
    return None


def setup(app):
    app.connect("missing-reference", _resolve_public)


# Sphinx 9 writes an aliased annotation inside a union as
# "TypeAliasForwardRef('numpy.typing.ArrayLike') | None"; show the alias.
from sphinx.util import inspect as _sphinx_inspect  # noqa: E402

_sphinx_inspect.TypeAliasForwardRef.__repr__ = lambda self: self.name  # type: ignore[method-assign]
