"""The private engine of skbrier: validation, options, results, resampling,
binning, kernels, the backend dispatch and the backends (Array API, Dask).

Nothing here is public; the public packages compose it.
"""
