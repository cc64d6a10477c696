"""Import matminer v0.7.3 (the version CDVAE's env.yml pins) from its source tree with Debian's python3.

matminer is not packaged for Debian and needs scikit-learn only for its featurizer base class, so the few
names it imports from sklearn are stubbed here; the featurizers' own code runs unchanged. The source tree is
`git clone --branch v0.7.3 https://github.com/hackingmaterials/matminer` (BSD licence), its path in the
MATMINER_SRC environment variable.
"""
import os
import sys
import types


def _stub_sklearn():
    if "sklearn" in sys.modules:
        return

    class _Base:
        def get_params(self, deep=True):
            return {}

        def set_params(self, **params):
            return self

    def _noop(*args, **kwargs):
        return None

    modules = {
        "sklearn": {},
        "sklearn.base": {"BaseEstimator": _Base, "TransformerMixin": type("TransformerMixin", (), {}),
                         "is_classifier": lambda est: False},
        "sklearn.exceptions": {"NotFittedError": type("NotFittedError", (ValueError,), {})},
        "sklearn.neighbors": {"NearestNeighbors": type("NearestNeighbors", (), {})},
        "sklearn.utils": {},
        "sklearn.utils.validation": {"check_is_fitted": _noop},
    }
    for name, attrs in modules.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module


def load():
    """Returns matminer's site and composition featurizer modules (matminer.featurizers.site, .composition)."""
    src = os.environ.get("MATMINER_SRC")
    if not src or not os.path.isfile(os.path.join(src, "matminer", "featurizers", "site.py")):
        sys.exit("set MATMINER_SRC to a checkout of matminer v0.7.3 (see scripts/support/matminer_v073.py)")
    _stub_sklearn()
    sys.path.insert(0, src)
    # matminer finds cn_opt_params.yaml beside pymatgen.analysis.__file__, which a namespace package lacks.
    import pymatgen.analysis  # noqa: E402
    import pymatgen.analysis.local_env  # noqa: E402

    if getattr(pymatgen.analysis, "__file__", None) is None:
        pymatgen.analysis.__file__ = pymatgen.analysis.local_env.__file__
    import matminer.featurizers.composition as composition  # noqa: E402
    import matminer.featurizers.site as site  # noqa: E402

    return site, composition
