"""Every way QtCore calls into ICU, answered as JSON: ``python -m tests.support.qt_icu_probe``.

QtCore imports 31 ICU functions, for four things; this asks each of them across every locale Qt
knows (time zones: every zone in 16 locales; codecs: every converter ICU lists):

* ``collation`` — QCollator (``ucol_*``): a word list sorted plain, and numeric + case-blind;
* ``case`` — QLocale.toUpper/toLower (``u_strToUpper``/``u_strToLower``), language rules;
* ``zones`` — QTimeZone.displayName (``ucal_*``), every time type and name type, and at two dates;
* ``codecs`` — QStringConverter's list and ICU converters (``ucnv_*``), opened by name and
  decoding an XML document declared in that encoding.

Run twice, with Qt's full ICU data and with another ``libicudata`` first on
``LD_LIBRARY_PATH``, the answers must be equal (tests/integration/test_bundle_parts.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCollator,
    QDate,
    QDateTime,
    QIODevice,
    QLocale,
    QStringConverter,
    QStringEncoder,
    Qt,
    QTime,
    QTimeZone,
    QXmlStreamReader,
)

WORDS = [
    "cote",
    "côte",
    "coté",
    "côté",
    "Zebra",
    "zebra",
    "Äpfel",
    "apfel",
    "ångström",
    "Ölçek",
    "ıslak",
    "İstanbul",
    "file10",
    "file2",
    "File1",
    "中国",
    "日本",
    "北京",
    "上海",
    "한국",
    "Ελλάδα",
    "Россия",
    "ch",
    "cz",
    "ll",
    "lz",
    "ñ",
    "n",
    "ø",
    "z",
    "þ",
]
UPPER = "istanbul ıi ß ǆ ﬁ ἀι i̇ ﬀ"
LOWER = "İSTANBUL ΣΑΣ IÌ Ĩ"
ZONE_LOCALES = [
    "en_US",
    "zh_CN",
    "zh_TW",
    "de_DE",
    "ja_JP",
    "fr_FR",
    "ar_EG",
    "ru_RU",
    "es_ES",
    "pt_BR",
    "hi_IN",
    "ko_KR",
    "tr_TR",
    "en_GB",
    "fa_IR",
    "th_TH",
]
SAMPLE = "Slate 石板 Ölçek ß € ¥ “quotes” 한국 Россия"


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode()).hexdigest()[:16]


def locales() -> list[str]:
    found = QLocale.matchingLocales(
        QLocale.Language.AnyLanguage, QLocale.Script.AnyScript, QLocale.Country.AnyTerritory
    )
    return sorted({loc.name() for loc in found})


def collation(names: list[str]) -> dict[str, str]:
    out = {}
    for name in names:
        c = QCollator(QLocale(name))
        plain = sorted(WORDS, key=functools.cmp_to_key(c.compare))
        c.setNumericMode(True)
        c.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        out[name] = digest([plain, sorted(WORDS, key=functools.cmp_to_key(c.compare))])
    return out


def case(names: list[str]) -> dict[str, str]:
    return {n: digest([QLocale(n).toUpper(UPPER), QLocale(n).toLower(LOWER)]) for n in names}


def zones() -> dict[str, str]:
    when = [
        QDateTime(QDate(2026, 1, 15), QTime(12, 0), QTimeZone.utc()),
        QDateTime(QDate(2026, 7, 15), QTime(12, 0), QTimeZone.utc()),
    ]
    types = (
        QTimeZone.TimeType.StandardTime,
        QTimeZone.TimeType.DaylightTime,
        QTimeZone.TimeType.GenericTime,
    )
    kinds = (
        QTimeZone.NameType.DefaultName,
        QTimeZone.NameType.LongName,
        QTimeZone.NameType.ShortName,
        QTimeZone.NameType.OffsetName,
    )
    out = {}
    for raw in QTimeZone.availableTimeZoneIds():
        tz = QTimeZone(raw)
        row = []
        for name in ZONE_LOCALES:
            loc = QLocale(name)
            row += [tz.displayName(t, k, loc) for t in types for k in kinds]
            row += [tz.displayName(w, QTimeZone.NameType.LongName, loc) for w in when]
        out[bytes(raw).decode()] = digest(row)
    return out


def codecs() -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for name in QStringConverter.availableCodecs():
        enc = QStringEncoder(name)
        try:
            raw = SAMPLE.encode(name, "replace")
        except LookupError:
            raw = b"Slate " + bytes(range(0x30, 0x7B))
        buf = QBuffer()
        buf.setData(
            QByteArray(f'<?xml version="1.0" encoding="{name}"?><a>'.encode() + raw + b"</a>")
        )
        buf.open(QIODevice.OpenModeFlag.ReadOnly)
        xml = QXmlStreamReader(buf)
        text = ""
        while not xml.atEnd():
            if xml.readNext() == QXmlStreamReader.TokenType.Characters:
                text += xml.text()
        out[name] = [enc.isValid(), enc.name(), digest(text), len(text), xml.errorString()]
    return out


def main() -> int:
    names = locales()
    result = {
        "collation": collation(names),
        "case": case(names),
        "zones": zones(),
        "codecs": codecs(),
        "icudata": sorted(
            {line.split()[-1] for line in open("/proc/self/maps") if "libicudata" in line}
        ),
        "samples": {
            "tr_upper_i": QLocale("tr_TR").toUpper("i"),
            "zh_order": sorted(
                WORDS, key=functools.cmp_to_key(QCollator(QLocale("zh_CN")).compare)
            )[:4],
            "berlin": [
                QTimeZone(b"Europe/Berlin").displayName(
                    QTimeZone.TimeType.StandardTime, QTimeZone.NameType.LongName, QLocale(n)
                )
                for n in ("de_DE", "zh_CN", "en_US")
            ],
            "gb18030": codecs_sample("GB18030"),
        },
    }
    json.dump(result, sys.stdout, ensure_ascii=False, sort_keys=True)
    return 0


def codecs_sample(name: str) -> str:
    buf = QBuffer()
    buf.setData(
        QByteArray(
            f'<?xml version="1.0" encoding="{name}"?><a>'.encode() + "石板".encode(name) + b"</a>"
        )
    )
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    xml = QXmlStreamReader(buf)
    text = ""
    while not xml.atEnd():
        if xml.readNext() == QXmlStreamReader.TokenType.Characters:
            text += xml.text()
    return text


if __name__ == "__main__":
    raise SystemExit(main())
