#!/usr/bin/env bash
# Fails when the checked-in generated code (internal/pb/probev1 for Go,
# plugins/torch/probe_torch/pb/probe/v1 for Python) does not match what
# scripts/gen-proto.sh produces from sdk/proto.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg_dir="internal/pb/probev1"
py_dir="plugins/torch/probe_torch/pb/probe/v1"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/probe-check-proto.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

"$root/scripts/gen-proto.sh" "$tmp" || { echo "check-proto: generation failed" >&2; exit 2; }

# Compare only the generated files (*.pb.go, *_pb2.py) on both sides.
mkdir -p "$tmp/a/go" "$tmp/b/go" "$tmp/a/py" "$tmp/b/py"
cp "$tmp/$pkg_dir"/*.pb.go "$tmp/a/go/"
cp "$tmp/$py_dir"/*_pb2.py "$tmp/a/py/"
if compgen -G "$root/$pkg_dir/*.pb.go" >/dev/null; then
	cp "$root/$pkg_dir"/*.pb.go "$tmp/b/go/"
fi
if compgen -G "$root/$py_dir/*_pb2.py" >/dev/null; then
	cp "$root/$py_dir"/*_pb2.py "$tmp/b/py/"
fi
if ! diff -ru "$tmp/b" "$tmp/a" >"$tmp/diff"; then
	echo "check-proto: generated protobuf code in $pkg_dir or $py_dir is stale." >&2
	echo "check-proto: run scripts/gen-proto.sh and commit the result. Differences (checked-in -> fresh):" >&2
	sed -e "s#$tmp/b#checked-in#g" -e "s#$tmp/a#fresh#g" "$tmp/diff" | head -n 80 >&2
	exit 1
fi
echo "check-proto: $pkg_dir and $py_dir are up to date" >&2
