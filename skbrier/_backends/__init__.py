"""The adapters of the declared backends (Dask, Array API).

A public function declares its adapters by name (skbrier._core.dispatch); an
adapter maps the kernels or states over the backend's data, merges them and
finishes with the public layer's own finishing functions.  Nothing imports
this package except by the names in those declarations.
"""
