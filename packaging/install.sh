#!/bin/sh
# Install Slate from this unpacked tarball for the current user (no root needed):
# the app stays in this folder; ~/.local/bin/slate points at it, and the launcher, the
# AppStream metadata and the icons go to ~/.local/share. Run it again after moving the folder.
# To remove: rm ~/.local/bin/slate ~/.local/share/applications/io.slate.Slate.desktop
#            ~/.local/share/metainfo/io.slate.Slate.metainfo.xml ~/.local/share/icons/hicolor/*/apps/io.slate.Slate.*
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
mkdir -p "$PREFIX/bin" "$PREFIX/share/applications" "$PREFIX/share/metainfo" "$PREFIX/share/icons"
ln -sf "$HERE/slate/slate" "$PREFIX/bin/slate"
sed "s|^Exec=slate |Exec=$HERE/slate/slate |" "$HERE/share/applications/io.slate.Slate.desktop" \
  > "$PREFIX/share/applications/io.slate.Slate.desktop"
cp "$HERE/share/metainfo/io.slate.Slate.metainfo.xml" "$PREFIX/share/metainfo/"
cp -R "$HERE/share/icons/hicolor" "$PREFIX/share/icons/"
command -v update-desktop-database >/dev/null && update-desktop-database "$PREFIX/share/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q "$PREFIX/share/icons/hicolor" || true
echo "Slate is installed: start it from your applications menu, or run $PREFIX/bin/slate"
