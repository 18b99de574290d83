"""Two mutation operators Cosmic Ray's core set lacks, for the rule functions of ygo-fsm.

- ``ygo/RemoveStatement``: a statement inside a function becomes ``pass`` (a line removed).
  Docstrings, ``pass``, ``assert``, imports and ``global``/``nonlocal`` are left alone: they state
  no rule.
- ``ygo/DropCondition``: one operand of an ``and`` / ``or`` is removed (a condition removed),
  e.g. ``a and b and c`` becomes ``a and c``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cosmic_ray.operators.operator import Example, Operator
from parso.python.tree import Keyword

_KEEP = {"assert_stmt", "import_name", "import_from", "global_stmt", "nonlocal_stmt"}


def _inside_function(node: Any) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in {"funcdef", "lambdef"}:
            return True
        if parent.type == "classdef":
            return False
        parent = parent.parent
    return False


def _is_docstring(node: Any) -> bool:
    first = node.children[0]
    return bool(first.type == "string" and node.parent is not None and node.parent.type == "suite"
                and next(c for c in node.parent.children if c.type != "newline") is node)


class RemoveStatement(Operator):  # type: ignore[misc]
    """Replace one simple statement inside a function with ``pass``."""

    def mutation_positions(self, node: Any) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if node.type != "simple_stmt" or not _inside_function(node):
            return
        statement = node.children[0]
        if statement.type in _KEEP or _is_docstring(node):
            return
        if statement.type == "keyword" and statement.value in {"pass", "continue", "break"}:
            return
        last = node.children[-2] if len(node.children) > 1 else statement
        yield (statement.start_pos, last.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        assert index == 0
        first = node.children[0]
        replacement = Keyword("pass", first.start_pos, prefix=first.get_first_leaf().prefix)
        replacement.parent = node
        node.children = [replacement, node.children[-1]]
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (Example("def f():\n    x = 1\n", "def f():\n    pass\n"),)


class DropCondition(Operator):  # type: ignore[misc]
    """Remove one operand of an ``and`` / ``or`` test."""

    def mutation_positions(self, node: Any) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        if node.type not in {"and_test", "or_test"}:
            return
        for operand in node.children[::2]:
            yield (operand.start_pos, operand.end_pos)

    def mutate(self, node: Any, index: int) -> Any:
        operands = node.children[::2]
        keywords = node.children[1::2]
        prefix = node.get_first_leaf().prefix
        kept = [operand for i, operand in enumerate(operands) if i != index]
        if len(kept) == 1:
            only = kept[0]
            only.get_first_leaf().prefix = prefix
            return only
        children: list[Any] = []
        for i, operand in enumerate(kept):
            if i:
                children.append(keywords[0 if i - 1 >= len(keywords) else i - 1])
            children.append(operand)
        children[0].get_first_leaf().prefix = prefix
        node.children = children
        return node

    @classmethod
    def examples(cls) -> tuple[Example, ...]:
        return (
            Example("x = a and b", "x = b", occurrence=0),
            Example("x = a and b", "x = a", occurrence=1),
        )


_OPERATORS = {op.__name__: op for op in (RemoveStatement, DropCondition)}


class OperatorProvider:
    """The ``ygo/…`` operators for Cosmic Ray."""

    def __iter__(self) -> Iterator[str]:
        return iter(_OPERATORS)

    def __getitem__(self, name: str) -> type[Operator]:
        return _OPERATORS[name]
