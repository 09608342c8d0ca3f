#!/usr/bin/env bash
# Fails when the checked-in generated code in internal/pb/probev1 does not
# match what scripts/gen-proto.sh produces from sdk/proto.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg_dir="internal/pb/probev1"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/probe-check-proto.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

"$root/scripts/gen-proto.sh" "$tmp" || { echo "check-proto: generation failed" >&2; exit 2; }

# Compare only the generated files (*.pb.go) on both sides.
mkdir -p "$tmp/a" "$tmp/b"
cp "$tmp/$pkg_dir"/*.pb.go "$tmp/a/"
if compgen -G "$root/$pkg_dir/*.pb.go" >/dev/null; then
	cp "$root/$pkg_dir"/*.pb.go "$tmp/b/"
fi
if ! diff -ru "$tmp/b" "$tmp/a" >"$tmp/diff"; then
	echo "check-proto: generated protobuf code in $pkg_dir is stale." >&2
	echo "check-proto: run scripts/gen-proto.sh and commit the result. Differences (checked-in -> fresh):" >&2
	sed -e "s#$tmp/b#checked-in#g" -e "s#$tmp/a#fresh#g" "$tmp/diff" | head -n 80 >&2
	exit 1
fi
echo "check-proto: $pkg_dir is up to date" >&2
