"""``python -m skbrier`` runs the ``skbrier`` command line."""

from .cli import main

raise SystemExit(main())
