"""``python -m scorepad.app``: run the table app's own commands."""

from scorepad.app.host.cli import main

raise SystemExit(main())
