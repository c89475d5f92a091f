"""``python -m statecore``: the command line (docs/cli.md)."""

from statecore._cli import main

raise SystemExit(main())
