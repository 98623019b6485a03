"""A placeholder app icon (hicolor 256x256 PNG) for builds of a checkout without
resources/icons/: a slate-grey rounded tile with a light frame.

    python packaging/placeholder_icon.py OUT/hicolor
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw


def main(out: str) -> None:
    target = Path(out) / "256x256" / "apps" / "io.slate.Slate.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGBA", (256, 256), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((16, 16, 240, 240), radius=40, fill=(58, 66, 80, 255))
    draw.rounded_rectangle((56, 72, 200, 184), radius=12, outline=(232, 236, 242, 255), width=12)
    image.save(target)


if __name__ == "__main__":
    main(sys.argv[1])
