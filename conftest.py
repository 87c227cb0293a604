"""Root conftest: puts the repository root on sys.path so that the tests and the
doctests import this checkout's ``skbrier`` even when it is not installed."""
