"""The command line's help: every command and option says what it is (a test walks the whole
parser), submit's options come grouped by kind with their defaults, and `slate help contract`
says where the JSON and exit codes are written."""

from __future__ import annotations

import argparse
import json

from app import cli
from app.cli_help import APP_VIDEO_MODEL, SUBMIT_GROUPS
from app.domain.params import DEFAULT_VIDEO_MODEL


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no commands")


def test_every_command_and_option_has_help() -> None:
    parser = cli.build_parser()
    missing = []
    for name, sub in [("slate", parser), *_commands(parser).items()]:
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                missing += [f"slate {c}" for c in action.choices if not helps.get(c)]
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_every_command_shows_an_example() -> None:
    for name, sub in _commands(cli.build_parser()).items():
        assert sub.epilog and f"slate {name}" in sub.epilog, name


def test_submit_groups_options_by_kind_with_defaults() -> None:
    text = _commands(cli.build_parser())["submit"].format_help()
    titles = [g.title for g in SUBMIT_GROUPS]
    assert any(t.startswith("image") for t in titles)
    assert any(t.startswith("video V1") for t in titles)
    assert any(t.startswith("video V2") for t in titles)
    for title in titles:
        assert f"{title}:" in text
    # the command line's video default and the app's, said where a person reads them
    assert DEFAULT_VIDEO_MODEL in text and "1080P, 6 s" in text and APP_VIDEO_MODEL in text
    assert "512-2048" in text and "1-9" in text  # ranges from the domain's tables


def test_help_contract_names_the_document(capsys) -> None:
    assert cli.main(["help", "contract"]) == 0
    said = capsys.readouterr().out
    assert "docs/CONTRACT.md" in said and "exit" in said
    assert cli.main(["--json", "help", "contract"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "ok" and out["help"]["path"] == "docs/CONTRACT.md"


def test_a_run_builds_its_commands_parser_alone_and_parses_as_the_whole_one() -> None:
    """Each run builds only its command's options (the whole parser cost most of a short
    command's start); what it parses is what the whole parser parses, help on every command
    and an unknown command's error still come from the whole one."""
    whole = _commands(cli.build_parser())
    cases = [
        (["--json", "status", "article:20260816:tide-eye:scene-02"], ["status"]),
        (["--store", "sqlite:///x.db", "wait", "r:1", "--max-seconds", "3"], ["wait"]),
        (["submit", "--request-id", "a:1", "--kind", "image", "--prompt", "gui"], ["submit"]),
        ([], ["gui"]),  # slate alone opens the window
        (["--data-dir", "/tmp/d"], ["gui"]),
        (["gui", "--screenshot", "x.png"], ["gui"]),
        (["--help"], sorted(whole)),  # help on every command
        (["-h", "status"], sorted(whole)),
        (["status", "--help"], ["status"]),
        (["bogus"], sorted(whole)),  # the error lists the commands
        (["--store"], sorted(whole)),  # a global option without its value: said in full
    ]
    for argv, built in cases:
        assert sorted(_commands(cli._parser_for(argv))) == built, argv
    for argv, _built in cases[:6]:
        assert cli._parser_for(argv).parse_args(argv) == cli.build_parser().parse_args(argv)
