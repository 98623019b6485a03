"""Shot lists: the ``batch`` files, one slot a row, in CSV or YAML (pure: bytes in, rows out).

A CSV file has a header row naming its columns; a YAML file is a list of rows, or a mapping
``{defaults: {...}, rows: [...]}`` whose defaults apply to every row (a row's own value wins).
Columns and keys are the submit options without the leading dashes, inner dashes as
underscores (:data:`OPTION_COLUMNS`), plus ``request_id`` and ``kind``.

A row names its slot by ``request_id``, or by the naming scheme ``series:date:project:scene``
from the columns ``series``, ``date``, ``project`` and ``scene`` (any of them may be a default):
``series: article, date: 20260816, project: tide-eye, scene: 3`` is
``article:20260816:tide-eye:scene-03``.

Every value is read as text and converted by its column, the same way in both formats: numbers
(``duration``, ``n``, ``seed``, ``width``, ``height``) are whole numbers, switches
(``prompt_optimizer``, ``fast_pretreatment``) are true/false, yes/no or 1/0, and multi-valued
options (``reference_image``, ``reference_video``, ``reference_audio``) are YAML lists, or text
with the values separated by ``;`` (the ``;`` of a ``data:…;base64,`` URL does not separate).
YAML's own guesses do not apply: ``prompt: no`` is the prompt "no", ``scene: 010`` is
scene-10, ``date: 2026-08-16`` is a date. An empty cell, or a YAML ``null``, is not stated
(the default applies). The prompt is kept exactly as written; other text is trimmed.

:func:`parse` answers per row either a :class:`ShotRow` (the submit input: request_id, kind and
the params in the shape :func:`app.domain.params.normalize` takes) or a :class:`RowError` with
the row number as the user counts it (CSV: the line the row starts on; YAML: the item number)
and the field; a bad row never stops the others. Only a file that cannot be read at all raises
:class:`ShotListError`. :func:`write_csv`, :func:`write_yaml` and :func:`write` save rows back
as an editable shot list. CSV cells of text beginning with a formula start (``=``, ``+``, ``-``,
``@``, tab, CR) are written behind a ``'`` so spreadsheet apps show them as text (OWASP's CSV
injection defence); reading a CSV takes exactly that ``'`` off (docs/DECISIONS.md).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from app.domain.errors import ValidationError
from app.domain.slots import KINDS, Kind, validate_request_id

Format = Literal["csv", "yaml"]
FORMATS: tuple[Format, ...] = ("csv", "yaml")

NAMING_COLUMNS = ("series", "date", "project", "scene")
OPTION_COLUMNS = (
    "prompt",
    "model",
    "duration",
    "resolution",
    "ratio",
    "aspect_ratio",
    "n",
    "seed",
    "width",
    "height",
    "size",
    "area",
    "first_frame",
    "last_frame",
    "subject_reference",
    "reference_image",
    "reference_video",
    "reference_audio",
    "prompt_optimizer",
    "prompt_expansion",
    "fast_pretreatment",
    "response_format",
    # music and speech (DESIGN.md "Sound")
    "lyrics",
    "instrumental",
    "lyrics_optimizer",
    "format",
    "sample_rate",
    "bitrate",
    "text",
    "voice",
    "speed",
    "volume",
    "pitch",
    "emotion",
    "channels",
    "language_boost",
    # voice design (DESIGN.md "Voice design"): ``prompt`` is the description
    "preview_text",
)
COLUMNS = ("request_id", *NAMING_COLUMNS, "kind", *OPTION_COLUMNS)

#: Options whose parameter is named differently from the option (all others: the same name).
PARAM_OF: Mapping[str, str] = {
    "first_frame": "first_frame_image",
    "last_frame": "last_frame_image",
}
COLUMN_OF: Mapping[str, str] = {param: column for column, param in PARAM_OF.items()}

INT_COLUMNS = frozenset(
    {"duration", "n", "seed", "width", "height", "sample_rate", "bitrate", "pitch", "channels"}
)
BOOL_COLUMNS = frozenset(
    {"prompt_optimizer", "fast_pretreatment", "instrumental", "lyrics_optimizer"}
)
#: Numbers that may have a fraction (speech speed and volume; the domain checks the range).
NUMBER_COLUMNS = frozenset({"speed", "volume"})
#: Text kept byte-exact (a space more is another fingerprint), as the prompt.
EXACT_COLUMNS = frozenset({"prompt", "lyrics", "text", "preview_text"})
KIND_WORDS = ("image", "video", "music", "speech", "voice")
LIST_COLUMNS = frozenset({"reference_image", "reference_video", "reference_audio"})
TRUE_WORDS = frozenset({"true", "yes", "1"})
FALSE_WORDS = frozenset({"false", "no", "0"})

_INT = re.compile(r"[+-]?[0-9]+")
_SECONDS_TYPO = re.compile(r"[0-9]+\s*(s|sec|secs|seconds|秒)", re.IGNORECASE)
_LIST_SEPARATOR = re.compile(r";(?!base64,)")
_NAME_PART = re.compile(r"[A-Za-z0-9._\-]+")
_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")
_SCENE_DIGITS = re.compile(r"\d{1,4}")


class ShotListError(ValidationError):
    """A shot list that cannot be read at all (not UTF-8, not CSV/YAML, bad defaults…)."""

    def __init__(self, field: str, message: str, line: int = 0) -> None:
        super().__init__(field, message)
        self.line = line
        if line:
            self.args = (f"line {line}: {field}: {message}",)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class SceneName:
    """The parts of a RequestId of the naming scheme; ``date`` is the ``YYYYMMDD`` text."""

    series: str
    date: str
    project: str
    scene: str

    @property
    def request_id(self) -> str:
        return f"{self.series}:{self.date}:{self.project}:{self.scene}"


def scene_name(text: str) -> str:
    """What the designer typed as the scene: a bare number ``7`` means ``scene-07``."""
    scene = text.strip()
    if _SCENE_DIGITS.fullmatch(scene):
        scene = f"scene-{int(scene):02d}"
    return scene


@dataclass(frozen=True)
class SubmitInput:
    """What one row asks for: the arguments of a submit."""

    request_id: str
    kind: Kind
    params: Mapping[str, Any]


@dataclass(frozen=True)
class ShotRow:
    """A good row. ``row``: its number as the user counts it (CSV line, YAML item);
    ``line``: the line it starts on; ``name``: its naming-scheme parts, when named that way."""

    row: int
    line: int
    request_id: str
    kind: Kind
    params: Mapping[str, Any]
    name: SceneName | None = None

    @property
    def input(self) -> SubmitInput:
        return SubmitInput(self.request_id, self.kind, dict(self.params))


@dataclass(frozen=True)
class RowError:
    """A row that cannot be submitted: which row, which field (a column name), and why."""

    row: int
    line: int
    field: str
    message: str
    request_id: str | None = None

    def describe(self) -> str:
        return f"row {self.row}: {self.field}: {self.message}"

    def error_json(self) -> dict[str, Any]:
        """The row's ``error`` object in the batch JSON."""
        return {"code": "invalid", "field": self.field, "message": self.describe()}


@dataclass(frozen=True)
class ShotList:
    """What a file says, row by row, in file order."""

    format: Format
    entries: tuple[ShotRow | RowError, ...]
    defaults: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rows(self) -> tuple[ShotRow, ...]:
        return tuple(e for e in self.entries if isinstance(e, ShotRow))

    @property
    def errors(self) -> tuple[RowError, ...]:
        return tuple(e for e in self.entries if isinstance(e, RowError))


def column_of(param: str) -> str:
    """The shot-list column of a parameter (``first_frame_image`` → ``first_frame``)."""
    return COLUMN_OF.get(param, param)


def row_error(row: ShotRow, exc: ValidationError) -> RowError:
    """A parameter refusal (from ``normalize``) as an error of the row, in the file's words."""
    return RowError(row.row, row.line, column_of(exc.field), exc.message, row.request_id)


def format_for(filename: str) -> Format:
    """The format a file name says: ``.csv``, or ``.yaml``/``.yml``."""
    lower = filename.lower()
    if lower.endswith(".csv"):
        return "csv"
    if lower.endswith((".yaml", ".yml")):
        return "yaml"
    raise ValidationError("file", f"{filename!r}: a shot list is a .csv, .yaml or .yml file")


# -- values --------------------------------------------------------------------------------

_NOT_STATED = object()


class _FieldError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _text(column: str, value: object) -> str | object:
    if column in NUMBER_COLUMNS and isinstance(value, float) and not isinstance(value, bool):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _FieldError(column, f"must be text, not {_what(value)}")
    text = str(value)
    if column in EXACT_COLUMNS:
        return _NOT_STATED if text == "" else text
    text = text.strip()
    return _NOT_STATED if text == "" else text


def _what(value: object) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, bool):
        return "true/false"
    return type(value).__name__


def _value(column: str, value: object) -> object:
    """A cell or YAML value converted by its column, or _NOT_STATED."""
    if value is None:
        return _NOT_STATED
    if column in LIST_COLUMNS:
        items: list[object]
        if isinstance(value, (list, tuple)):
            items = list(value)
        elif isinstance(value, str):
            items = list(_LIST_SEPARATOR.split(value))
        else:
            raise _FieldError(column, f"must be a list of files or URLs, not {_what(value)}")
        out: list[str] = []
        for item in items:
            if item is None:
                continue
            if not isinstance(item, str):
                raise _FieldError(column, f"every value must be text, not {_what(item)}")
            if item.strip():
                out.append(item.strip())
        return out or _NOT_STATED
    if column in INT_COLUMNS:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if not isinstance(value, str):
            raise _FieldError(column, f"must be a whole number, not {_what(value)}")
        text = value.strip()
        if not text:
            return _NOT_STATED
        if _INT.fullmatch(text):
            return int(text)
        if column == "duration" and _SECONDS_TYPO.fullmatch(text):
            raise _FieldError(column, f"{text!r}: write the seconds as a number alone, e.g. 6")
        raise _FieldError(column, f"{text!r} is not a whole number")
    if column in NUMBER_COLUMNS and not isinstance(value, bool):
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return _NOT_STATED
            try:
                number = float(text)
            except ValueError:
                return text  # the domain refuses it, naming the column
            return number if math.isfinite(number) else text
    if column in BOOL_COLUMNS:
        if isinstance(value, bool):
            return value
        if not isinstance(value, str):
            raise _FieldError(column, f"must be true or false, not {_what(value)}")
        word = value.strip().lower()
        if not word:
            return _NOT_STATED
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise _FieldError(column, f"{value.strip()!r}: write true or false (yes/no, 1/0)")
    return _text(column, value)


def _date(value: str) -> str:
    m = _DATE.fullmatch(value)
    if m:
        try:
            day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            day = None
        if day is not None:
            return day.strftime("%Y%m%d")
    raise _FieldError("date", f"{value!r}: write a date such as 20260816 or 2026-08-16")


def _name_part(column: str, value: str) -> str:
    if not _NAME_PART.fullmatch(value):
        bad = next((c for c in value if not _NAME_PART.fullmatch(c)), value[:1])
        raise _FieldError(column, f"{value!r} contains {bad!r}; use A-Z a-z 0-9 . _ -")
    return value


# -- rows ----------------------------------------------------------------------------------


def _stated(
    values: Mapping[str, object], where: str, errors: list[_FieldError] | None = None
) -> dict[str, object]:
    """Known columns converted; a value in an unknown column is an error naming it. With
    ``errors``, a bad value is recorded there and the other columns are still read."""
    out: dict[str, object] = {}
    for column, raw in values.items():
        try:
            if column not in COLUMNS:
                if raw is None or (isinstance(raw, str) and not raw.strip()):
                    continue
                raise _FieldError(
                    column, f"is not a shot-list {where}; known: {', '.join(COLUMNS)}"
                )
            value = _value(column, raw)
        except _FieldError as exc:
            if errors is None:
                raise
            errors.append(exc)
            continue
        if value is not _NOT_STATED:
            out[column] = value
    return out


def _slot(mine: Mapping[str, object], merged: Mapping[str, object]) -> tuple[str, SceneName | None]:
    """The RequestId a row names: its request_id, or series:date:project:scene."""
    naming_here = [c for c in NAMING_COLUMNS if c in mine]
    if "request_id" in mine:
        if naming_here:
            raise _FieldError(
                naming_here[0],
                "a row names its slot by request_id or by project and scene, not both",
            )
        try:
            return validate_request_id(mine["request_id"]), None
        except ValidationError as exc:
            raise _FieldError("request_id", exc.message) from None
    for column in ("scene", "project", "series", "date"):
        if column not in merged:
            raise _FieldError(column, "is required to name the slot (or give request_id)")
    name = SceneName(
        series=_name_part("series", str(merged["series"])),
        date=_date(str(merged["date"])),
        project=_name_part("project", str(merged["project"])),
        scene=scene_name(str(merged["scene"])),
    )
    try:
        return validate_request_id(name.request_id), name
    except ValidationError as exc:
        raise _FieldError("scene", f"the RequestId {name.request_id!r} {exc.message}") from None


def build_row(
    values: Mapping[str, object], defaults: Mapping[str, object], row: int, line: int
) -> ShotRow | RowError:
    """One row from its values by column (text as in a file, or Python values), converted like
    a file's row. The first problem in column order is its error; the RequestId is found even
    for a bad row where it can be (so duplicates and the JSON name it)."""
    errors: list[_FieldError] = []
    mine = _stated(values, "column", errors)
    bad = {e.field for e in errors}
    merged = {**defaults, **{c: v for c, v in mine.items() if c not in bad}}
    request_id: str | None = None
    name: SceneName | None = None
    try:
        if not bad & {"request_id", *NAMING_COLUMNS}:
            request_id, name = _slot(mine, merged)
    except _FieldError as exc:
        errors.insert(0, exc)
    if not errors:
        kind = merged.get("kind")
        if kind is None:
            errors.append(_FieldError("kind", "is required: image, video, music, speech or voice"))
        elif str(kind).lower() not in KIND_WORDS:
            errors.append(
                _FieldError("kind", f"{kind!r}: write image, video, music, speech or voice")
            )
    if errors or request_id is None:
        first = errors[0]
        return RowError(row, line, first.field, first.message, request_id)
    params = {PARAM_OF.get(c, c): merged[c] for c in OPTION_COLUMNS if c in merged}
    kind_: Kind = next(k for k in KINDS if k == str(merged["kind"]).lower())
    return ShotRow(row, line, request_id, kind_, params, name)


def _check_defaults(values: Mapping[str, object], line: int) -> dict[str, object]:
    if "request_id" in values and values["request_id"] is not None:
        raise ShotListError(
            "defaults.request_id", "a RequestId names one row; it cannot be a default", line
        )
    try:
        out = _stated(values, "key")
        for column in ("series", "project"):
            if column in out:
                _name_part(column, str(out[column]))
        if "date" in out:
            _date(str(out["date"]))
        return out
    except _FieldError as exc:
        raise ShotListError(f"defaults.{exc.field}", exc.message, line) from None


def _finish(
    fmt: Format, built: list[ShotRow | RowError], defaults: Mapping[str, object]
) -> ShotList:
    """Mark every later row of a RequestId seen before as a duplicate naming the earlier row
    (field ``request_id``, or ``scene`` for a row named by the scheme)."""
    first: dict[str, int] = {}
    out: list[ShotRow | RowError] = []
    for entry in built:
        rid = entry.request_id
        if isinstance(entry, ShotRow) and rid in first:
            entry = RowError(
                entry.row,
                entry.line,
                "request_id" if entry.name is None else "scene",
                f"{rid} is already row {first[rid]}; a slot appears once in a shot list",
                rid,
            )
        if rid is not None:
            first.setdefault(rid, entry.row)
        out.append(entry)
    return ShotList(fmt, tuple(out), dict(defaults))


# -- reading -------------------------------------------------------------------------------


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ShotListError(
            "file", "is not UTF-8 text; save it as UTF-8 (in Excel: CSV UTF-8)", line
        ) from None


def parse(data: bytes | str, fmt: Format) -> ShotList:
    """Read a shot list. Raises ShotListError only when the file as a whole cannot be read."""
    text = _decode(data)
    if fmt == "csv":
        return _parse_csv(text)
    if fmt == "yaml":
        return _parse_yaml(text)
    raise ValidationError("format", f"{fmt!r}: use csv or yaml")


def _header_name(cell: str) -> str:
    return cell.strip().lower().replace("-", "_")


def _parse_csv(text: str) -> ShotList:
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    built: list[ShotRow | RowError] = []
    end = 0
    try:
        for cells in reader:
            start, end = end + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header = [_header_name(c) for c in cells]
                _check_header(header, cells, start)
                continue
            values: dict[str, object] = {}
            extra = next((i for i in range(len(header), len(cells)) if cells[i].strip()), None)
            if extra is not None:
                built.append(
                    RowError(
                        start,
                        start,
                        f"column {extra + 1}",
                        f"the row has {len(cells)} cells; the header names {len(header)} columns",
                    )
                )
                continue
            for i, name in enumerate(header):
                cell = unguard_cell(cells[i]) if i < len(cells) else ""
                values[name or f"column {i + 1}"] = cell
            built.append(build_row(values, {}, start, start))
    except csv.Error as exc:
        raise ShotListError("file", f"is not valid CSV: {exc}", end + 1) from None
    return _finish("csv", built, {})


def _check_header(header: list[str], cells: list[str], line: int) -> None:
    if len(header) == 1 and (";" in cells[0] or "\t" in cells[0]):
        raise ShotListError(
            "header",
            "names one column; Slate reads comma-separated files (save as CSV UTF-8, "
            "comma-delimited)",
            line,
        )
    if not any(name in COLUMNS for name in header):
        raise ShotListError(
            "header", f"the first row must name the columns, e.g. {','.join(COLUMNS[:3])}", line
        )
    seen: dict[str, int] = {}
    for i, name in enumerate(header, start=1):
        if name and name in seen:
            raise ShotListError(name, f"is column {seen[name]} and column {i}", line)
        seen[name] = i


class _Loader(yaml.SafeLoader):
    """YAML whose plain scalars are all text except null (~, null, empty): the column decides
    what a value means, as in CSV, so ``no``, ``010`` or ``2026-08-16`` are never guessed."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag.endswith((":null", ":merge"))]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


_SHAPE = "a YAML shot list is a list of rows, or a mapping with defaults and rows"


def _parse_yaml(text: str) -> ShotList:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return ShotList("yaml", ())
        # Read the nodes before constructing: construction merges ``<<`` keys into the nodes.
        rows_node, defaults_node = _shape(node)
        items = list(rows_node.value) if isinstance(rows_node, yaml.SequenceNode) else []
        row_lines = [item.start_mark.line + 1 for item in items]
        walked: dict[int, _FieldError | None] = {}
        row_dups = [_duplicate_key(item, walked) for item in items]
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        raise ShotListError("file", f"is not valid YAML: {problem}", line) from None
    finally:
        loader.dispose()
    defaults: dict[str, object] = {}
    if isinstance(data, dict):
        if defaults_node is not None and data.get("defaults") is not None:
            d_line = defaults_node.start_mark.line + 1
            if not isinstance(data["defaults"], dict):
                raise ShotListError("defaults", "must be a mapping of options", d_line)
            defaults = _check_defaults({str(k): v for k, v in data["defaults"].items()}, d_line)
        data = data.get("rows") or []
    if not isinstance(data, list):
        raise ShotListError("rows", _SHAPE, rows_node.start_mark.line + 1)
    built: list[ShotRow | RowError] = []
    for number, item in enumerate(data, start=1):
        line = row_lines[number - 1] if number <= len(row_lines) else 0
        dup = row_dups[number - 1] if number <= len(row_dups) else None
        if dup is not None:
            built.append(RowError(number, line, dup.field, dup.message))
        elif not isinstance(item, dict):
            what = _what(item) if item is not None else "empty"
            built.append(RowError(number, line, "row", f"must be a mapping of options, not {what}"))
        else:
            built.append(build_row({str(k): v for k, v in item.items()}, defaults, number, line))
    return _finish("yaml", built, defaults)


def _shape(node: yaml.Node) -> tuple[yaml.Node, yaml.Node | None]:
    """The rows node and the defaults node of a document (a list, or {defaults, rows})."""
    if not isinstance(node, yaml.MappingNode):
        return node, None
    by_key: dict[str, yaml.Node] = {}
    for key, value in node.value:
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        line = key.start_mark.line + 1
        if name not in ("defaults", "rows"):
            raise ShotListError(str(name), _SHAPE, line)
        if name in by_key:
            raise ShotListError(name, f"is given twice (line {line})", line)
        by_key[name] = value
    if "rows" not in by_key:
        raise ShotListError("rows", "is required (the list of rows)", node.start_mark.line + 1)
    defaults = by_key.get("defaults")
    if defaults is not None:
        dup = _duplicate_key(defaults)
        if dup is not None:
            raise ShotListError(f"defaults.{dup.field}", dup.message, defaults.start_mark.line + 1)
    return by_key["rows"], defaults


def _duplicate_key(
    node: yaml.Node, walked: dict[int, _FieldError | None] | None = None
) -> _FieldError | None:
    """PyYAML keeps the last of two equal keys silently; a shot list refuses them.

    An alias is the node of its anchor, shared: each node is walked once (``walked``: the
    answer of each node already walked, by id), so nested aliases cost their size, not their
    expansion (1.2 KB of aliases ten deep expand to 10^10 nodes and kept ``batch`` spinning)."""
    if walked is None:
        walked = {}
    if id(node) in walked:
        return walked[id(node)]
    walked[id(node)] = None  # a node inside itself (a recursive alias) is being walked
    found = _duplicate_key_of(node, walked)
    walked[id(node)] = found
    return found


def _duplicate_key_of(node: yaml.Node, walked: dict[int, _FieldError | None]) -> _FieldError | None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[object, int] = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                line = key.start_mark.line + 1
                if key.value in seen:
                    return _FieldError(
                        str(key.value), f"is given twice (lines {seen[key.value]} and {line})"
                    )
                seen[key.value] = line
            found = _duplicate_key(value, walked)
            if found is not None:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found = _duplicate_key(item, walked)
            if found is not None:
                return found
    return None


# -- writing -------------------------------------------------------------------------------


def _row_values(row: ShotRow) -> dict[str, Any]:
    """A row as shot-list columns, in column order."""
    out: dict[str, Any] = {}
    if row.name is not None:
        out.update(
            series=row.name.series,
            date=row.name.date,
            project=row.name.project,
            scene=row.name.scene,
        )
    else:
        out["request_id"] = row.request_id
    out["kind"] = row.kind
    for column in OPTION_COLUMNS:
        value = row.params.get(PARAM_OF.get(column, column))
        if value is not None:
            out[column] = value
    return out


def _check_writable(column: str, value: Any) -> None:
    """Refuse what would not read back as written (a writer that loses data is worse)."""
    if column in LIST_COLUMNS:
        if not isinstance(value, (list, tuple)) or not value:
            raise ValueError(f"{column}: must be a non-empty list")
        for item in value:
            if (
                not isinstance(item, str)
                or not item
                or item != item.strip()
                or (len(_LIST_SEPARATOR.split(item)) > 1)
            ):
                raise ValueError(f"{column}: {item!r} cannot be written as one list value")
        return
    if column in INT_COLUMNS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{column}: must be a whole number")
        return
    if column in BOOL_COLUMNS:
        if not isinstance(value, bool):
            raise ValueError(f"{column}: must be true or false")
        return
    if column in NUMBER_COLUMNS and isinstance(value, float):
        return
    if (
        not isinstance(value, str)
        or value == ""
        or (column not in EXACT_COLUMNS and value != value.strip())
    ):
        raise ValueError(f"{column}: {value!r} cannot be written faithfully")


#: What a spreadsheet app reads as the start of a formula (OWASP "CSV Injection"): a cell of
#: text beginning so is written behind a ``'``, which such apps take as "this is text".
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _guarded(text: str) -> bool:
    """Text a CSV cell holds behind a guard: a formula start, or one already behind ``'``s (so
    the guard is stripped exactly once on reading, and ``'=x`` reads back as ``'=x``)."""
    return text.lstrip("'")[:1] in FORMULA_STARTS if text else False


def guard_cell(text: str) -> str:
    """A text cell as written to CSV: ``'`` before a formula start (docs/DECISIONS.md)."""
    return "'" + text if _guarded(text) else text


def unguard_cell(text: str) -> str:
    """A CSV cell as read: the one ``'`` :func:`guard_cell` puts before a formula start (or
    before ``'``s leading to one) is not part of the value."""
    return text[1:] if text.startswith("'") and _guarded(text) else text


def _cell(column: str, value: Any) -> str:
    _check_writable(column, value)
    if column in LIST_COLUMNS:
        return guard_cell(";".join(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return guard_cell(value)
    return str(value)  # a number: a spreadsheet reads -3 as a number, never a formula


def write_csv(rows: Sequence[ShotRow]) -> str:
    """Rows as CSV text with a header row (only the columns the rows use). Text that a
    spreadsheet app would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR first) is written
    behind a ``'`` (:func:`guard_cell`); :func:`parse` takes it off again, so the file reads back
    as the rows written."""
    table = [_row_values(r) for r in rows]
    used = {c for values in table for c in values}
    columns = [c for c in COLUMNS if c in used]
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for values in table:
        writer.writerow([_cell(c, values[c]) if c in values else "" for c in columns])
    return out.getvalue()


class _Dumper(yaml.SafeDumper):
    """Multi-line prompts as literal blocks, so the file stays easy to edit."""


#: Characters PyYAML's emitter may write raw in a plain, quoted or block scalar although its
#: reader takes them as line breaks (NEL, LS, PS) or drops them: only double quotes escape them.
_ESCAPE_ONLY = re.compile("[\r\x85\u2028\u2029\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if _ESCAPE_ONLY.search(value) else "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def write_yaml(rows: Sequence[ShotRow], defaults: Mapping[str, Any] | None = None) -> str:
    """Rows as YAML. With ``defaults`` None, a value every row shares (but the scene) moves to
    ``defaults`` once; with ``defaults`` given, those are written and left out of the rows."""
    table = [_row_values(r) for r in rows]
    for values in table:
        for column, value in values.items():
            _check_writable(column, value)
    if defaults is None:
        shared: dict[str, Any] = {}
        if len(table) > 1:
            for column in COLUMNS:
                if column in ("request_id", "scene"):
                    continue
                if all(column in v for v in table) and all(
                    v[column] == table[0][column] for v in table
                ):
                    shared[column] = table[0][column]
    else:
        shared = dict(defaults)
        if "request_id" in shared:
            raise ValueError("request_id: a RequestId names one row; it cannot be a default")
        for column, value in shared.items():
            _check_writable(column, value)
    for values in table:
        missing = [
            c
            for c in shared
            if c not in values and not (c in NAMING_COLUMNS and "request_id" in values)
        ]
        if missing:
            raise ValueError(f"{missing[0]}: a row without it would take the default")
    rows_out = [
        {c: v for c, v in values.items() if c not in shared or shared[c] != v} for values in table
    ]
    doc: Any = {"defaults": shared, "rows": rows_out} if shared else rows_out
    return yaml.dump(
        doc,
        Dumper=_Dumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=10**9,
    )


def write(rows: Sequence[ShotRow], fmt: Format) -> bytes:
    """A shot list file's bytes: UTF-8; CSV with a BOM so spreadsheets read Chinese text right."""
    if fmt == "csv":
        return "\ufeff".encode() + write_csv(rows).encode("utf-8")
    if fmt == "yaml":
        return write_yaml(rows).encode("utf-8")
    raise ValidationError("format", f"{fmt!r}: use csv or yaml")
