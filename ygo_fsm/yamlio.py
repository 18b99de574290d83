"""The one YAML reader: every file the project reads (machines, cards, scenarios) goes through it.

It is ``yaml.safe_load`` (no arbitrary objects) with limits that no real file comes near, so
that no file can make a reader fail with a traceback, hang or take memory without bound.
Each refusal is a :class:`YamlInputError`: one line naming the file, the place and the item.

Refused
=======
* a file larger than :data:`MAX_FILE_BYTES` (1 MiB; the largest shipped file is 20 KB);
* bytes that are not UTF-8 text;
* malformed YAML, several documents in one file;
* collections nested deeper than :data:`MAX_DEPTH` (50 levels; real files nest under 10);
* a key given twice in one mapping, including two spellings of one value (``2`` and
  ``'2'``, ``2`` and ``0x2``) — ``safe_load`` would silently keep the last one;
* a key that is not a plain value (a list or a mapping, ``? [a, b]``), and merge keys (``<<``);
* an integer of more than :data:`MAX_INT_DIGITS` digits (18: every count, LP or turn fits);
* more than :data:`MAX_ALIASES` aliases (``*name``), an alias to the collection that holds
  it, and documents that aliases would expand beyond :data:`MAX_NODES` values.

>>> parse_yaml("turn: 2\\nsteps: [pass]", source="x.yaml")
{'turn': 2, 'steps': ['pass']}
>>> parse_yaml("effects_on_turn: {2: [skip_turn], '2': [skip_turn]}", source="x.yaml")
Traceback (most recent call last):
...
ygo_fsm.yamlio.YamlInputError: x.yaml: line 1, column 35: invalid YAML: duplicate key '2' (also at line 1, column 19)
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import YgoFsmError

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "MAX_NODES",
    "YamlInputError",
    "load_yaml",
    "parse_yaml",
    "read_text",
]

MAX_FILE_BYTES = 1024 * 1024
"""The largest file read (1 MiB)."""
MAX_DEPTH = 50
"""How deep lists and mappings may nest."""
MAX_INT_DIGITS = 18
"""The most digits an integer literal may have."""
MAX_ALIASES = 100
"""The most aliases (``*name``) one file may use."""
MAX_NODES = 200_000
"""The most values (scalars, lists, mappings) a file may hold once its aliases are expanded."""

_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"


class YamlInputError(YgoFsmError, ValueError):
    """A file the project reads is unreadable, too large, or not the YAML it accepts.

    ``str()`` is one line: ``FILE: WHERE: PROBLEM``, where ``WHERE`` is ``line L, column C``
    or ``(file)``.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        super().__init__(f"{source}: {where}: {problem}")


def _at(mark: Any) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "(file)"


def read_text(path: Path | str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of ``path``: at most ``limit`` bytes of UTF-8 (a leading BOM is dropped)."""
    path = Path(path)
    source = str(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise YamlInputError(source, "(file)", f"cannot read: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise YamlInputError(source, "(file)", f"cannot read: larger than {limit} bytes (the limit for a file)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise YamlInputError(source, "(file)", f"cannot read: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                                               f"offset {exc.start})") from exc


class _BoundedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` with the limits of this module."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        mark: Any = event.start_mark
        if isinstance(event, AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise ComposerError(None, None, f"more than {MAX_ALIASES} aliases", mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep", mark)
            node: Node = super().compose_node(parent, index)  # type: ignore[assignment]
            return node
        finally:
            self._depth -= 1

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, Any] = {}
        spelled: dict[str, Any] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:
                raise ConstructorError(None, None, "merge keys (<<) are not accepted", key_node.start_mark)
            if not isinstance(key_node, ScalarNode):
                kind = "list" if isinstance(key_node, SequenceNode) else "mapping"
                raise ConstructorError(None, None, f"a key must be a plain value (text or a number), not a {kind}",
                                       key_node.start_mark)
            key = self.construct_object(key_node, deep=deep)
            earlier = spelled.get(key_node.value)
            if earlier is None:
                try:
                    earlier = seen.get(key)
                except TypeError:
                    earlier = None
            if earlier is not None:
                raise ConstructorError(None, None, f"duplicate key {key_node.value!r} (also at {_at(earlier)})",
                                       key_node.start_mark)
            spelled[key_node.value] = key_node.start_mark
            with contextlib.suppress(TypeError):  # an unhashable value (a !!set key) is checked by its text
                seen[key] = key_node.start_mark
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping

    def construct_yaml_int(self, node: ScalarNode) -> int:
        text = str(self.construct_scalar(node))
        digits = sum(char.isalnum() for char in text)
        if digits > MAX_INT_DIGITS:
            raise ConstructorError(None, None, f"an integer of {digits} digits (at most {MAX_INT_DIGITS} are "
                                               "accepted)", node.start_mark)
        value: int = super().construct_yaml_int(node)
        return value


_BoundedLoader.add_constructor(_INT_TAG, _BoundedLoader.construct_yaml_int)


def _check_size(root: Node) -> None:
    """Count the values with aliases expanded; refuse an alias inside the node it names."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            children = _children(node)
            size = 1 + sum(sizes[id(child)] for child in children)
            if size > MAX_NODES:
                raise ComposerError(None, None, f"more than {MAX_NODES} values once its aliases are expanded",
                                    node.start_mark)
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise ComposerError(None, None, "an alias refers to the collection that contains it", node.start_mark)
        open_nodes.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in open_nodes:
                raise ComposerError(None, None, "an alias refers to the collection that contains it",
                                    child.start_mark)
            if id(child) not in sizes:
                stack.append((child, False))


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _problem(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None)
    if not problem:
        return str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    return f"{context}, {problem}" if context and problem.startswith("but ") else str(problem)


def parse_yaml(text: str, *, source: str = "<yaml>") -> Any:
    """Parse one YAML document safely within this module's limits; ``source`` names it in errors.

    Raises :class:`YamlInputError` (one line).
    """
    if len(text.encode("utf-8", errors="surrogatepass")) > MAX_FILE_BYTES:
        raise YamlInputError(source, "(file)", f"cannot read: larger than {MAX_FILE_BYTES} bytes "
                                               "(the limit for a file)")
    try:
        loader = _BoundedLoader(text)
    except yaml.YAMLError as exc:
        raise YamlInputError(source, "(file)", f"invalid YAML: {_problem(exc)}") from exc
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_size(node)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise YamlInputError(source, _at(getattr(exc, "problem_mark", None)), f"invalid YAML: {_problem(exc)}") from exc
    except RecursionError as exc:  # not reached within MAX_DEPTH; kept so no input gives a traceback
        raise YamlInputError(source, "(file)", f"invalid YAML: nested too deeply (limit {MAX_DEPTH})") from exc
    finally:
        loader.dispose()


def load_yaml(path: Path | str) -> Any:
    """Read and parse the YAML file ``path`` (:func:`read_text` then :func:`parse_yaml`)."""
    return parse_yaml(read_text(path), source=str(path))
