#!/usr/bin/env bash
# Coverage of msprobe's `functional`, `tensor` and `torch` API lists by `probe run`:
# builds probe, writes a tensor-mode dump calling every listed name with real
# PyTorch (scripts/make_every_api_dump.py, /usr/bin/python3 with torch 1.13),
# runs probe on it and summarises the result CSV: APIs called, rows by status,
# SKIP reasons grouped and counted, and the APIs with an `error` row.
#
#   scripts/every_api_coverage.sh [--keep] [--vs-torch] [-- extra flags for probe run]
#
# --vs-torch also runs the dump on the torch device plugin (real PyTorch)
# and lists every row whose forward or backward status differs between the
# emulated device and torch (they must be equal).
#
# Environment: PYTHON (default /usr/bin/python3), DTYPES (default
# float32,bfloat16), ONLY (--only of the dump script).  Everything is written to
# a temporary directory, removed at the end unless --keep.
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
keep=0
vs_torch=0
while [[ $# -gt 0 ]]; do
	case $1 in
	--keep) keep=1 ;;
	--vs-torch) vs_torch=1 ;;
	--) shift; break ;;
	*) break ;;
	esac
	shift
done

TMP=$(mktemp -d /tmp/every-api.XXXXXX)
if [[ $keep == 0 ]]; then trap 'rm -rf "$TMP"' EXIT; fi

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
go build -o "$TMP/probe" ./host/cmd/probe
t1=$(now)
gen_args=(--out "$TMP/dump" --dtypes "${DTYPES:-float32,bfloat16}")
[[ -n ${ONLY:-} ]] && gen_args+=(--only "$ONLY")
"$PYTHON" scripts/make_every_api_dump.py "${gen_args[@]}" >"$TMP/generate.log" 2>&1 ||
	{ cat "$TMP/generate.log"; exit 1; }
t2=$(now)
rc=0
"$TMP/probe" run --framework pytorch --api-info "$TMP/dump/dump.json" -o "$TMP/out" --quiet "$@" \
	>"$TMP/probe.log" 2>&1 || rc=$?
t3=$(now)

echo "== dump (scripts/make_every_api_dump.py)"
grep -v '^left out\|^forward only' "$TMP/generate.log" | sed 's/^/  /'
echo "  left out (name, dtype): $(grep -c '^left out' "$TMP/generate.log" || true)" \
	"(list: $TMP/generate.log)"
echo "  size $(du -sh "$TMP/dump" | cut -f1), $(find "$TMP/dump" -type f | wc -l) files"
echo "== timings: go build $(secs "$t0" "$t1")s, dump $(secs "$t1" "$t2")s, probe run $(secs "$t2" "$t3")s (exit $rc)"
if [[ $rc != 0 ]]; then echo "== probe run failed:"; tail -20 "$TMP/probe.log"; fi

csv=$(ls "$TMP"/out/accuracy_checking_result_*.csv 2>/dev/null | head -1 || true)
if [[ -z $csv ]]; then echo "no result CSV"; exit 1; fi
"$PYTHON" - "$csv" "$TMP/dump/dump.json" <<'EOF'
import collections, csv, json, re, sys

path, dump = sys.argv[1], sys.argv[2]
with open(path, newline="", encoding="utf-8-sig") as f:
    rows = list(csv.reader(f))
head, rows = rows[0], rows[1:]
with open(dump) as f:
    text = re.sub(r"\b(NaN|-?Infinity)\b", "null", f.read())
fwd = [k[:-len(".forward")] for k in json.loads(text)["data"] if k.endswith(".forward")]

def short(api):  # Tensor.add.3 -> Tensor.add
    return api.rsplit(".", 1)[0]

print("== result CSV %s" % path)
print("  forward entries in the dump: %d (%d distinct Type.name); result rows: %d" % (
    len(fwd), len(set(map(short, fwd))), len(rows)))
for i, col in ((1, "forward"), (2, "backward")):
    c = collections.Counter((r[i].strip() if len(r) > i else "") or "(none)" for r in rows)
    print("  %s status: %s" % (col, ", ".join("%s %d" % kv for kv in c.most_common())))
skips = collections.Counter()
skip_apis = collections.defaultdict(set)
for r in rows:
    if len(r) > 3 and r[3] and "SKIP" in (r[1], r[2]):
        msg = r[3]
        # group messages that differ only by the API name or numbers
        key = re.sub(r"\b(Tensor|Torch|Functional)\.[A-Za-z0-9_.]+", "<api>", msg)
        key = re.sub(r"\b(float32|bfloat16|float16|float64|int64|bool)\b", "<dtype>", key)
        key = re.sub(r"\[[^\]]*\]", "[..]", key)
        skips[key] += 1
        skip_apis[key].add(short(r[0]))
fskip = sum(1 for r in rows if r[1].strip() == "SKIP")
print("  SKIP rows: %d (%d forward+backward, %d backward only), %d distinct reasons" % (
    sum(skips.values()), fskip, sum(skips.values()) - fskip, len(skips)))
print("  'not supported' in %d rows, of which %d 'not supported by the pytorch framework plugin'" % (
    sum(n for k, n in skips.items() if "not supported" in k.lower()),
    sum(n for k, n in skips.items() if "not supported by the pytorch framework plugin" in k)))
for k, n in skips.most_common():
    apis = sorted(skip_apis[k])
    print("  %5d  %s  [%d APIs: %s%s]" % (n, k[:150], len(apis), " ".join(apis[:6]),
                                          " ..." if len(apis) > 6 else ""))
errs = [r for r in rows if "error" in (r[1].strip(), r[2].strip() if len(r) > 2 else "")]
print("  rows with an error status: %d" % len(errs))
for r in errs:
    print("    %s: forward %s, backward %s%s" % (r[0], r[1], r[2] if len(r) > 2 else "",
                                                (" - " + r[3][:120]) if len(r) > 3 and r[3] else ""))
checked = set(short(r[0]) for r in rows if r[1].strip() in ("pass", "Warning", "error"))
print("  distinct Type.name with a forward verdict (pass/Warning/error): %d of %d" % (
    len(checked), len(set(map(short, fwd)))))
EOF
if [[ $vs_torch == 1 ]]; then
	t4=$(now)
	trc=0
	"$TMP/probe" run --framework pytorch --device torch --api-info "$TMP/dump/dump.json" -o "$TMP/out-torch" --quiet "$@" \
		>"$TMP/probe-torch.log" 2>&1 || trc=$?
	echo "== emulated device against the torch device (probe run --device torch: $(secs "$t4" "$(now)")s, exit $trc)"
	tcsv=$(ls "$TMP"/out-torch/accuracy_checking_result_*.csv 2>/dev/null | head -1 || true)
	if [[ -z $tcsv ]]; then echo "  no result CSV from the torch device:"; tail -5 "$TMP/probe-torch.log"; exit 1; fi
	"$PYTHON" - "$csv" "$tcsv" <<'EOF'
import collections, csv, sys

def load(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    return {r[0]: r for r in rows[1:]}

emu, tor = load(sys.argv[1]), load(sys.argv[2])
diff, kinds = [], collections.Counter()
for api, r in emu.items():
    t = tor.get(api)
    if t is None:
        diff.append((api, "row", "present", "missing"))
        continue
    for col, name in ((1, "forward"), (2, "backward")):
        a, b = r[col].strip() or "-", t[col].strip() or "-"
        if a != b:
            diff.append((api, name, a, b))
            kinds[(name, a, b)] += 1
print("  rows compared: %d; statuses that differ: %d" % (len(emu), len(diff)))
for (name, a, b), n in kinds.most_common():
    print("  %5d  %s: emulated %s, torch %s" % (n, name, a, b))
for api, name, a, b in diff:
    print("    %s %s: emulated %s, torch %s" % (api, name, a, b))
EOF
fi
if [[ $keep == 1 ]]; then echo "kept $TMP"; fi
