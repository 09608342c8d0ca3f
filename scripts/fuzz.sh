#!/usr/bin/env bash
# Runs every Go fuzz target of the repository (each `func FuzzXxx(f
# *testing.F)` in a *_test.go file, found afresh on every run) for a short
# fixed time, one after the other, and fails when any of them fails.
#
#   scripts/fuzz.sh                       every target, $FUZZTIME each
#   FUZZTIME=10m scripts/fuzz.sh Resume   the targets whose name matches
#                                         the regexp "Resume", 10 min each
#
# FUZZTIME (default 4s) is passed to -fuzztime; FUZZMINIMIZETIME (default
# 1s) to -fuzzminimizetime, which bounds the time Go spends shrinking each
# new input (unbounded, it can eat a short run). The seed corpora
# (testdata/fuzz) run in plain `go test` as well; a failing input found here
# is written into the package's testdata/fuzz/<Target>/, and is then one
# more seed to commit with the fix.
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime expires while a worker is mid-call
# (golang/go#75804, fixed in Go 1.27): no input is written and nothing was
# found. Such a run is tried again, twice at most; a target that only ever
# ends that way is reported as FLAKE, not as a failure. Any other failure,
# and every failure that wrote an input, fails the script.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fuzztime="${FUZZTIME:-4s}"
minimize="${FUZZMINIMIZETIME:-1s}"
filter="${1:-.}"

# The test files of the checkout, committed or not (.gitignore respected);
# every one under the root outside a git checkout.
test_files() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard -- '*_test.go'
	else
		find . -name '*_test.go' -print0 | sed -z 's|^\./||'
	fi
}

# file:name for every fuzz target, but those in directories Go ignores
# (testdata, _*, .*).
mapfile -t targets < <(
	test_files |
		grep -zvE '(^|/)(testdata|[._][^/]*)/' |
		xargs -0 -r grep -HoE '^func Fuzz[A-Za-z0-9_]*\([A-Za-z_][A-Za-z0-9_]* \*testing\.F\)' |
		sed -E 's/^(.*):func (Fuzz[A-Za-z0-9_]*)\(.*/\1:\2/' | sort -u
)
if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi

# deadline_only says whether a failed run's log is the coordinator's race:
# "context deadline exceeded" and no failing input, panic or test error.
deadline_only() {
	grep -q 'context deadline exceeded' "$1" &&
		! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$1"
}

log="$(mktemp "${TMPDIR:-/tmp}/probe-fuzz.XXXXXX")"
trap 'rm -f "$log"' EXIT
failed=0
ran=0
start=$SECONDS
for t in "${targets[@]}"; do
	file="${t%%:*}" name="${t##*:}"
	[[ "$name" =~ $filter ]] || continue
	# The module holding the package: the nearest go.mod above it.
	dir="$(dirname "$file")"
	mod="$dir"
	while [ "$mod" != "." ] && [ ! -f "$mod/go.mod" ]; do mod="$(dirname "$mod")"; done
	if [ "$mod" = "." ]; then
		pkg="./$dir"
	elif [ "$mod" = "$dir" ]; then
		pkg=.
	else
		pkg="./${dir#"$mod"/}"
	fi
	t0=$SECONDS
	flaky=0
	for try in 1 2 3; do
		(cd "$mod" && go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize") >"$log" 2>&1
		rc=$?
		flaky=0
		if [ $rc -ne 0 ] && deadline_only "$log"; then
			flaky=1
			continue
		fi
		break
	done
	execs="$(grep -oE 'execs: [0-9]+' "$log" | tail -n 1 | cut -d' ' -f2)"
	where="./$dir"
	ran=$((ran + 1))
	if [ $rc -eq 0 ]; then
		printf 'ok    %-16s %-32s %4ss %10s execs\n' "$name" "$where" $((SECONDS - t0)) "${execs:-0}"
	elif [ $flaky -eq 1 ]; then
		printf 'FLAKE %-16s %-32s %4ss %10s execs  (3 runs ended by the -fuzztime deadline race, golang/go#75804; no input written)\n' "$name" "$where" $((SECONDS - t0)) "${execs:-0}"
	else
		failed=$((failed + 1))
		printf 'FAIL  %-16s %-32s %4ss %10s execs\n' "$name" "$where" $((SECONDS - t0)) "${execs:-0}"
		sed 's/^/    /' "$log"
	fi
done
if [ $ran -eq 0 ]; then
	echo "fuzz: no fuzz target matches $filter" >&2
	exit 1
fi
echo "fuzz: $ran targets, $failed failed, $((SECONDS - start))s"
[ $failed -eq 0 ]
