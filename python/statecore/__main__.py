"""``python -m statecore``: the command line (docs/cli.md)."""

from statecore._cli.run import main

raise SystemExit(main())
