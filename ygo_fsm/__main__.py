"""``python -m ygo_fsm``: the ``ygo-fsm`` command line."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
