"""What every ``ygo-fsm`` command shares: its one-line user errors, its output streams, the
machines it reads (``--machines``) and the card files it is given (``--cards``)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from .cards import CardSpec, default_library, library_path, read_card_file
from .engine import Rulebook, default_rulebook


class UsageError(Exception):
    """A user error the CLI reports as one line on stderr, exit code 2."""


def utf8(stream: TextIO) -> None:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    reconfigure: Callable[..., None] | None = getattr(stream, "reconfigure", None)
    if encoding != "utf8" and reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a stream already written in another encoding
            reconfigure(encoding="utf-8")


def out(text: str = "") -> None:
    print(text)


def err(text: str) -> None:
    print(text, file=sys.stderr)


def rulebook_of(args: argparse.Namespace) -> Rulebook:
    """The machines of ``--machines DIR`` when given, else the shipped ones."""
    directory: Path | None = getattr(args, "machines", None)
    return Rulebook.load(directory) if directory is not None else default_rulebook()


def card_files(paths: Sequence[Path]) -> tuple[dict[str, CardSpec], list[str], list[tuple[Path, int]]]:
    """The cards of ``paths``, every problem (one line each), and the number of cards per file.
    A card id already in the built-in library or in an earlier file is a problem."""
    cards: dict[str, CardSpec] = {}
    problems: list[str] = []
    counts = []
    for path in paths:
        found, file_problems = read_card_file(path)
        problems += file_problems
        builtin = path.resolve() == library_path().resolve()
        for card_id, card in found.items():
            if card_id in default_library() and not builtin:
                problems.append(f"{path}: card {card_id}: the id is a built-in card's (give the card its own id)")
            elif card_id in cards:
                problems.append(f"{path}: card {card_id}: the id is already given by an earlier --cards file")
            else:
                cards[card_id] = card
        counts.append((path, len(found)))
    return cards, problems, counts
