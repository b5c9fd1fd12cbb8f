#!/bin/sh
# screenshot-report.sh REPORT.html [OUT.png]
#
# Opens an ecotune HTML report in headless Chromium (Debian's chromium
# package: apt-get install -y chromium) and writes a 1280×2000 screenshot,
# to check that the report renders its embedded plots offline.
#
# Example:
#   ecotune report runs/nasa
#   scripts/screenshot-report.sh runs/nasa/report/report.html nasa.png
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 REPORT.html [OUT.png]" >&2
	exit 2
fi
html=$1
out=${2:-report.png}
if [ ! -f "$html" ]; then
	echo "$0: $html: no such file" >&2
	exit 1
fi

browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "$0: no chromium found (Debian: apt-get install -y chromium)" >&2
	exit 1
fi

abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --screenshot="$out" --window-size=1280,2000 \
	"file://$abs" >/dev/null 2>&1

if [ ! -s "$out" ]; then
	echo "$0: chromium wrote no screenshot" >&2
	exit 1
fi
echo "$out"
