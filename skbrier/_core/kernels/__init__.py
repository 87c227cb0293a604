"""Kernels: the formulas of each statistic on validated arrays (no checks).

Each reduces rows to sufficient statistics or finishes them into the number;
the public functions, the states and the backend adapters call them.
"""
