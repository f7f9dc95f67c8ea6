#!/bin/sh
# Smoke-tests a built bundle offscreen: the window opens, a ruling and a search answer correctly,
# and the desktop entry and AppStream metadata validate. Prints the start time of the window.
#   packaging/smoke_test.sh [dist/carrom-referee]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUNDLE=$(cd "${1:-$ROOT/dist/carrom-referee}" && pwd)
EXE="$BUNDLE/carrom-referee"
for tool in desktop-file-validate:desktop-file-utils appstreamcli:appstream; do
    command -v "${tool%%:*}" >/dev/null 2>&1 && continue
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${tool##*:}"
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config"
cd "$WORK"

ruling=$(printf '%s\n' 'before: {own_on_board: 1, opponent_on_board: 3, queen: covered_by_striker, score: {striker: 10, opponent: 4}}' \
    'stroke: {pocketed: {own: 1}}' | "$EXE" rule --json -)
echo "$ruling" | grep -q '"winner": "striker"' && echo "$ruling" | grep -q '"striker": 6' \
    || { echo "smoke: wrong ruling: $ruling"; exit 1; }
echo "smoke: rule ok (board won 6-0, icf-fr:3.7.b)"

hits=$("$EXE" search --json --limit 10 "reine confirmer")
echo "$hits" | grep -q '"icf-fr:3.12.[de]"' || { echo "smoke: search missed icf-fr:3.12.d/e: $hits"; exit 1; }
echo "smoke: search ok"

# the records database's migrations are read from the bundle's folder, not its archive
"$EXE" db migrate >/dev/null || { echo "smoke: db migrate failed"; exit 1; }
check=$("$EXE" db check --json)
echo "$check" | grep -q '"up_to_date": true' || { echo "smoke: the records database is not at its schema's head: $check"; exit 1; }
echo "smoke: records database at its schema's head"

start=$(date +%s.%N)
out=$(CARROM_REFEREE_QUIT_WHEN_SHOWN=1 timeout 60 "$EXE" 2>&1) || { echo "smoke: the window did not open: $out"; exit 1; }
end=$(date +%s.%N)
echo "$out" | grep -q "window shown" || { echo "smoke: no window: $out"; exit 1; }
echo "smoke: window shown in $(python3 -c "print(round($end - $start, 2))") s"

desktop-file-validate "$BUNDLE/share/applications/io.github.carrom_referee.desktop"
appstreamcli validate --no-net "$BUNDLE/share/metainfo/io.github.carrom_referee.metainfo.xml"
echo "smoke: desktop entry and metainfo valid; bundle $(du -sh "$BUNDLE" | cut -f1)"
