"""The Array API namespaces the tests run on (imported by test_array_api.py
and test_sweep_xp.py): converters of numpy test data to each namespace's
arrays, and the ``xp_case`` fixture factory.

Each entry of :data:`NAMESPACES` is ``name -> () -> (conv, dtype)``:
``conv(a, dtype=None)`` makes an array of the namespace from numpy data (its
floats as ``dtype``, default the entry's), ``dtype`` the float precision the
results are compared at.  A namespace whose library or device is missing is
skipped when its entry is called.
"""

import numpy as np
import pytest
import sklearn


def strict(device_name):
    """array-api-strict on its default device (None), ``"device1"`` (whose
    host exports raise) or ``"no_float64"`` (a device without float64)."""
    xps = pytest.importorskip("array_api_strict")
    device = xps.Device(device_name) if device_name else None

    def conv(a, dtype=None):
        a = np.asarray(a)
        if a.dtype == np.float64 and (dtype == "float32" or device_name == "no_float64"):
            a = a.astype(np.float32)
        return xps.asarray(a, device=device)

    return conv


def torch_(dtype_name, device="cpu"):
    torch = pytest.importorskip("torch")
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("no CUDA device (run on a GPU machine)")

    def conv(a, dtype=None):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            want = dtype or dtype_name
            return torch.tensor(a, dtype=getattr(torch, want), device=device)
        return torch.tensor(a, device=device)

    return conv


def jax_(dtype_name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)  # float64 as numpy (JAX's default is 32-bit)
    jnp = jax.numpy

    def conv(a, dtype=None):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            a = a.astype(dtype or dtype_name)
        return jnp.asarray(a)  # JAX's default device: the GPU where there is one

    return conv


def cupy_(dtype_name):
    cp = pytest.importorskip("cupy")
    try:
        cp.cuda.runtime.getDeviceCount()
    except Exception:
        pytest.skip("no CUDA device for CuPy (run on a GPU machine)")

    def conv(a, dtype=None):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            a = a.astype(dtype or dtype_name)
        return cp.asarray(a)

    return conv


NAMESPACES = {
    "strict": lambda: (strict(None), "float64"),
    # host exports (__array__, __buffer__) raise on this device
    "strict-device1": lambda: (strict("device1"), "float64"),
    # a device without float64 (as Apple's MPS)
    "strict-no-float64": lambda: (strict("no_float64"), "float32"),
    "torch-float64": lambda: (torch_("float64"), "float64"),
    "torch-float32": lambda: (torch_("float32"), "float32"),
    # a real accelerator: skipped where torch sees no CUDA device
    "torch-cuda-float64": lambda: (torch_("float64", "cuda"), "float64"),
    "torch-cuda-float32": lambda: (torch_("float32", "cuda"), "float32"),
    # JAX (immutable arrays) on its default device, and CuPy on a CUDA device
    "jax-float64": lambda: (jax_("float64"), "float64"),
    "jax-float32": lambda: (jax_("float32"), "float32"),
    "cupy-float64": lambda: (cupy_("float64"), "float64"),
    "cupy-float32": lambda: (cupy_("float32"), "float32"),
}


def xp_case_fixture(names):
    """The ``xp_case`` fixture over the namespaces ``names``: ``(conv,
    dtype)`` with scikit-learn's ``array_api_dispatch`` on."""

    @pytest.fixture(params=sorted(names))
    def xp_case(request, monkeypatch):
        conv, dtype = NAMESPACES[request.param]()
        # scikit-learn insists on scipy's switch too (our array paths do not use scipy)
        monkeypatch.setenv("SCIPY_ARRAY_API", "1")
        with sklearn.config_context(array_api_dispatch=True):
            yield conv, dtype

    return xp_case
