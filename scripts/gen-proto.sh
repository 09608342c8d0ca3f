#!/usr/bin/env bash
# Regenerates the code of probe's plugin protocol from sdk/proto/probe/v1:
# Go (internal/pb/probev1) and Python for the torch device plugin
# (plugins/torch/probe_torch/pb/probe/v1, messages only: the plugin
# registers its gRPC handlers itself, so no grpc_tools is needed).
#
# Usage: scripts/gen-proto.sh [OUT_ROOT]
#
# OUT_ROOT defaults to the repository root; the files land in
# OUT_ROOT/internal/pb/probev1 and OUT_ROOT/plugins/torch/probe_torch/pb. The toolchain is pinned so that the
# output is byte-for-byte reproducible:
#   protoc              3.21.12 (Debian protobuf-compiler)
#   protoc-gen-go       v1.36.12
#   protoc-gen-go-grpc  v1.6.2
# The two Go plugins are built with `go install` into a temporary GOBIN
# (through the Go module proxy, or the module cache when already there).
set -euo pipefail

PROTOC_VERSION="3.21.12"
PROTOC_GEN_GO_VERSION="v1.36.12"
PROTOC_GEN_GO_GRPC_VERSION="v1.6.2"
MODULE="github.com/probe-dev/probe"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_root="${1:-$root}"
proto_root="$root/sdk/proto"
pkg_dir="internal/pb/probev1"
py_dir="plugins/torch/probe_torch/pb/probe/v1"

die() { echo "gen-proto: $*" >&2; exit 1; }

protoc_bin="${PROTOC:-}"
if [[ -z "$protoc_bin" ]]; then
	if [[ -x /usr/bin/protoc ]]; then
		protoc_bin=/usr/bin/protoc
	elif command -v protoc >/dev/null 2>&1; then
		protoc_bin="$(command -v protoc)"
	elif command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
		echo "gen-proto: protoc not found; installing Debian protobuf-compiler" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y protobuf-compiler >&2 ||
			{ apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y protobuf-compiler >&2; } ||
			die "could not install protobuf-compiler"
		protoc_bin=/usr/bin/protoc
	else
		die "protoc not found; install it with: apt-get install -y protobuf-compiler"
	fi
fi
got="$("$protoc_bin" --version | awk '{print $2}')"
[[ "$got" == "$PROTOC_VERSION" ]] ||
	die "$protoc_bin is libprotoc $got, need $PROTOC_VERSION (the version is recorded in the generated files)"

command -v go >/dev/null 2>&1 || die "go not found in PATH"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/probe-gen-proto.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

echo "gen-proto: building protoc-gen-go $PROTOC_GEN_GO_VERSION and protoc-gen-go-grpc $PROTOC_GEN_GO_GRPC_VERSION" >&2
(
	cd "$tmp"
	export GOBIN="$tmp/bin" GOFLAGS=-buildvcs=false GO111MODULE=on
	go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
	go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION"
) || die "go install of the protoc plugins failed"

gen="$tmp/gen"
mkdir -p "$gen/py"
(
	cd "$proto_root"
	# Sorted, relative file names keep the output independent of the checkout path.
	mapfile -t files < <(find probe/v1 -name '*.proto' | LC_ALL=C sort)
	[[ ${#files[@]} -gt 0 ]] || die "no .proto files under $proto_root/probe/v1"
	PATH="$tmp/bin:$PATH" "$protoc_bin" \
		-I . \
		--plugin=protoc-gen-go="$tmp/bin/protoc-gen-go" \
		--plugin=protoc-gen-go-grpc="$tmp/bin/protoc-gen-go-grpc" \
		--go_out="$gen" --go_opt=module="$MODULE" \
		--go-grpc_out="$gen" --go-grpc_opt=module="$MODULE" \
		--python_out="$gen/py" \
		"${files[@]}"
) || die "protoc failed"

[[ -d "$gen/$pkg_dir" ]] || die "protoc produced no $pkg_dir (check go_package options)"

dest="$out_root/$pkg_dir"
mkdir -p "$dest"
# Replace the generated files only; anything hand-written in the package stays.
find "$dest" -maxdepth 1 -name '*.pb.go' -delete
cp "$gen/$pkg_dir"/*.pb.go "$dest/"
echo "gen-proto: wrote $(ls "$gen/$pkg_dir" | wc -l) files to $dest" >&2

pydest="$out_root/$py_dir"
mkdir -p "$pydest"
find "$pydest" -maxdepth 1 -name '*_pb2.py' -delete
cp "$gen/py/probe/v1"/*_pb2.py "$pydest/"
echo "gen-proto: wrote $(ls "$gen/py/probe/v1" | wc -l) files to $pydest" >&2
