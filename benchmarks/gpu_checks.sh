#!/usr/bin/env bash
# The device checks of the Array API path, run on a machine with a CUDA GPU:
#   bash benchmarks/gpu_checks.sh            (from the repository root)
# 1. tests/test_array_api.py on CUDA tensors (float64 and float32), on JAX
#    arrays on JAX's default device and on CuPy arrays: every function
#    declared as supporting Array API gives numpy's numbers on the GPU;
# 2. benchmarks/bench_array_api.py at n = 1e8 on the GPU: brier_score at least
#    10x faster than a host copy plus numpy (issue 25), for PyTorch, CuPy and JAX.
set -u
export PYTHONUNBUFFERED=1 SCIPY_ARRAY_API=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
OUT="${OUT:-/tmp}"
nvidia-smi -L
python3 -c "import sklearn, numpy, scipy, torch; print('sklearn', sklearn.__version__, 'numpy', numpy.__version__, 'scipy', scipy.__version__, 'torch', torch.__version__)"
python3 -c "import jax, cupy; print('jax', jax.__version__, jax.devices(), 'cupy', cupy.__version__)"
python3 -m pytest tests/test_array_api.py -q -p no:cacheprovider -k "cuda or jax or cupy" -o addopts="" \
    -rs --junitxml="$OUT/array_api_gpu.xml" 2>&1 | tail -40
python3 benchmarks/bench_array_api.py --n 100000000 --device cuda --repeat 3
