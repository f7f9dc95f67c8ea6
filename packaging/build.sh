#!/bin/sh
# Builds the one-folder bundle and its tarball from a clean checkout:
#   packaging/build.sh        -> dist/carrom-referee/ and dist/carrom-referee-VERSION-linux-ARCH.tar.gz
# Needs only Python 3.11+ with venv (and network access to PyPI for PyInstaller).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
VERSION=$(python3 -c 'import re; print(re.search(r"^version = \"(.+)\"", open("pyproject.toml").read(), re.M).group(1))')
ARCH=$(uname -m)
rm -rf build/bundle-venv build/locale build/icons build/pyinstaller dist/carrom-referee
python3 -m venv build/bundle-venv
PY=build/bundle-venv/bin/python
$PY -m pip install -q --upgrade pip
$PY -m pip install -q . "pyinstaller==6.22.3"

# The catalogs, compiled (they are never committed), and the icon in the usual PNG sizes.
$PY - <<'PYCODE'
from pathlib import Path
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
for po in sorted(Path("translations").glob("*.po")):
    out = Path("build/locale") / po.stem / "LC_MESSAGES" / "carrom_referee.mo"
    out.parent.mkdir(parents=True, exist_ok=True)
    with po.open("rb") as f:
        catalog = read_po(f, locale=po.stem)
    with out.open("wb") as f:
        write_mo(f, catalog)
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
app = QGuiApplication([])
renderer = QSvgRenderer("packaging/icons/carrom-referee.svg")
for size in (32, 48, 64, 128, 256, 512):
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    out = Path(f"build/icons/hicolor/{size}x{size}/apps/io.github.carrom_referee.png")
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(str(out))
PYCODE

$PY -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/carrom-referee.spec

# Desktop integration files beside the program, as a system install would lay them out.
SHARE=dist/carrom-referee/share
mkdir -p "$SHARE/applications" "$SHARE/metainfo" "$SHARE/icons/hicolor/scalable/apps"
cp packaging/io.github.carrom_referee.desktop "$SHARE/applications/"
cp packaging/io.github.carrom_referee.metainfo.xml "$SHARE/metainfo/"
cp packaging/icons/carrom-referee.svg "$SHARE/icons/hicolor/scalable/apps/io.github.carrom_referee.svg"
cp -r build/icons/hicolor "$SHARE/icons/"

tar -C dist -czf "dist/carrom-referee-$VERSION-linux-$ARCH.tar.gz" carrom-referee
echo "built dist/carrom-referee ($(du -sh dist/carrom-referee | cut -f1)) and dist/carrom-referee-$VERSION-linux-$ARCH.tar.gz ($(du -sh "dist/carrom-referee-$VERSION-linux-$ARCH.tar.gz" | cut -f1))"
