#!/bin/sh
# Runs the built bundle on a bare Debian 12 (a debootstrap minbase chroot, no Python) that has only
# the system libraries the README names: a ruling, a search, and the window opened offscreen.
#   packaging/debian12_check.sh [dist/carrom-referee]      (needs root, and Debian's package mirror)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUNDLE=$(cd "${1:-$ROOT/dist/carrom-referee}" && pwd)
LIBS="libgl1 libegl1 libfontconfig1 libglib2.0-0 libdbus-1-3 libxkbcommon0"
[ "$(id -u)" -eq 0 ] || { echo "debian12 check: needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
CHROOT=$(mktemp -d /tmp/carrom-deb12.XXXXXX)
cleanup() { umount "$CHROOT/proc" 2>/dev/null || true; rm -rf "$CHROOT"; }
trap cleanup EXIT
debootstrap --variant=minbase bookworm "$CHROOT" http://deb.debian.org/debian >/dev/null
cp /etc/resolv.conf "$CHROOT/etc/" 2>/dev/null || true
mount -t proc proc "$CHROOT/proc" 2>/dev/null || true
chroot "$CHROOT" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $LIBS >/dev/null"
chroot "$CHROOT" sh -c 'command -v python3' >/dev/null 2>&1 && { echo "debian12 check: the chroot has a Python"; exit 1; }
cp -r "$BUNDLE" "$CHROOT/opt/carrom-referee"
cat > "$CHROOT/opt/check.sh" <<'CHECK'
#!/bin/sh
set -eu
export QT_QPA_PLATFORM=offscreen HOME=/tmp/home XDG_CACHE_HOME=/tmp/home/cache XDG_DATA_HOME=/tmp/home/data XDG_CONFIG_HOME=/tmp/home/config
mkdir -p /tmp/home && cd /tmp/home
EXE=/opt/carrom-referee/carrom-referee
printf '%s\n' 'before: {own_on_board: 1, opponent_on_board: 3, queen: covered_by_striker, score: {striker: 10, opponent: 4}}' \
    'stroke: {pocketed: {own: 1}}' | $EXE rule --json - | grep -q '"winner": "striker"'
$EXE search --json --limit 10 "regina confermare" | grep -q '"icf-fr:3.12.[de]"'
CARROM_REFEREE_QUIT_WHEN_SHOWN=1 $EXE 2>/dev/null | grep -q "window shown"
CHECK
chmod +x "$CHROOT/opt/check.sh"
chroot "$CHROOT" /opt/check.sh
echo "debian12 check: on a bare Debian 12 with only $LIBS, the bundle rules, searches and opens its window"
