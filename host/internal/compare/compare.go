// Package compare is probe's NPU-vs-GPU verdict, msprobe's
// api_precision_compare (pytorch-precheck §10): it reads the run_ut details
// CSVs of the device under test ("NPU") and of a peer device ("GPU"), judges
// every output of the NPU by the precision standard of its API, using the
// GPU's error against the same bench as the yardstick, and writes
// api_precision_compare_result_<ts>.csv and
// api_precision_compare_details_<ts>.csv.
//
// With Options.Compat the output is msprobe's, byte for byte, defects
// included. Without it, probe fixes the defects listed in docs/compat.md
// ("probe compare"); on inputs that do not trigger them both modes write the
// same bytes.
package compare

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/probe-dev/probe/host/internal/standard"
)

// DefaultPrecision is the number of decimals msprobe writes (config.yaml's
// precision).
const DefaultPrecision = 14

// Options configure a comparison.
type Options struct {
	// Compat reproduces msprobe's output exactly, defects included.
	Compat bool
	// Precision is the number of decimals of numbers written with fixed
	// notation; 0 means DefaultPrecision.
	Precision int
	// Warn receives the warnings msprobe logs (an NPU row missing on the
	// GPU side, ...) and the reasons of rows probe had to skip; nil drops
	// them.
	Warn func(string)
}

// Output is what a comparison writes: the details and result rows (without
// headers), in order.
type Output struct {
	Details [][]string
	Results [][]string
	// Stopped is set when msprobe's analysis would stop early (compat only:
	// several GPU rows for one name, or a row name that looks like a CSV
	// formula). The rows written until then are kept, as in msprobe.
	Stopped error
}

// analysis is the state of the main loop (§10.3).
type analysis struct {
	npu, gpu *Table
	opt      Options
	out      *Output
	gpuIndex map[string][]int

	pending     string // full API name whose result row is not written yet
	pendingType value  // NPU DEVICE Dtype of the pending API's last row
	fwd, bwd    []string
	skipMsg     string

	// default mode: GPU rows without an NPU row, by full API name
	gpuOnly     map[string][]int
	gpuOnlyAPIs []string
}

// injection is msprobe's CSV-injection blacklist for names (§3.3 step 1).
var injection = regexp.MustCompile(`^[＋－＝％＠+\-=%@]|;[＋－＝％＠+\-=%@]`)

// Compare runs api_precision_compare on two parsed details CSVs. The
// tables must have the required columns (Table.CheckColumns).
func Compare(npu, gpu *Table, opt Options) *Output {
	if opt.Precision == 0 {
		opt.Precision = DefaultPrecision
	}
	if opt.Warn == nil {
		opt.Warn = func(string) {}
	}
	a := &analysis{npu: npu, gpu: gpu, opt: opt, out: &Output{}, gpuIndex: map[string][]int{}}
	for i := range gpu.Rows {
		n := gpu.text(i, colAPIName)
		a.gpuIndex[n] = append(a.gpuIndex[n], i)
	}
	if !opt.Compat {
		a.findGPUOnly()
	}
	if err := a.loop(); err != nil {
		a.out.Stopped = err
		return a.out
	}
	a.flush()
	if !opt.Compat {
		a.writeGPUOnlyAPIs()
	}
	return a.out
}

// parseRowName splits "<T>.<name>.<idx>.<dir>.output.<k>" (6 segments, or 7
// with a two-part name) into the short API name, the full API name and the
// direction; ok is false for any other shape (§10.3 step 2).
func parseRowName(s string) (api, full, dir string, ok bool) {
	p := strings.Split(s, ".")
	switch len(p) {
	case 6:
		return p[1], strings.Join(p[:3], "."), p[3], true
	case 7:
		return p[1] + "." + p[2], strings.Join(p[:4], "."), p[4], true
	}
	return "", "", "", false
}

// shortName is the short API name of a full API name (3 or 4 segments).
func shortName(full string) string {
	p := strings.Split(full, ".")
	switch len(p) {
	case 3:
		return p[1]
	case 4:
		return p[1] + "." + p[2]
	}
	return ""
}

func (a *analysis) newDetail(name string) []string {
	d := make([]string, numDetailCols)
	for i := range d {
		d[i] = standard.Space
	}
	d[dName] = name
	return d
}

// skipRow writes a SKIP details row and, at once, a result row named after
// the row (msprobe's handling of invalid names and of rows whose status
// cannot be computed).
func (a *analysis) skipRow(name, msg string) {
	d := a.newDetail(name)
	d[dResult] = standard.Skip
	d[dMessage] = msg
	a.out.Details = append(a.out.Details, d)
	a.out.Results = append(a.out.Results, []string{name, standard.Skip, standard.Skip, msg})
}

func (a *analysis) loop() error {
	for i := range a.npu.Rows {
		nameV := a.npu.cell(i, colAPIName, a.opt.Compat)
		if nameV.k != kText {
			// pandas read the name as a number or NaN: msprobe's str.split
			// raises outside its per-row handler and the analysis stops.
			return fmt.Errorf("NPU %s: API Name %q is not text ('%s' object has no attribute 'split')", a.npu.where(i, colAPIName), nameV.s, nameV.pyTypeName())
		}
		name := nameV.s
		if injection.MatchString(name) {
			if a.opt.Compat {
				return fmt.Errorf("NPU %s: api name contains special characters, please check! (%q could be read as a formula)", a.npu.where(i, colAPIName), name)
			}
			a.opt.Warn(fmt.Sprintf("NPU %s: row %q not compared and not written: the name could be read as a CSV formula", a.npu.where(i, colAPIName), name))
			continue
		}
		gpuRows := a.gpuIndex[name]
		api, full, dir, ok := parseRowName(name)
		if !ok {
			a.skipRow(name, fmt.Sprintf("The API name %s is invalid.", name))
			continue
		}
		var status string
		var det []string
		switch {
		case len(gpuRows) == 0 && a.opt.Compat:
			a.opt.Warn(fmt.Sprintf("This API : %s does not exist in the GPU data.", name))
			continue
		case len(gpuRows) == 0:
			det = a.newDetail(name)
			det[dResult], det[dMessage] = standard.Skip, fmt.Sprintf("This API : %s does not exist in the GPU data.", name)
			status = standard.Skip
			a.opt.Warn(fmt.Sprintf("NPU %s: %s has no row in the GPU details CSV; reported as SKIP", a.npu.where(i, colAPIName), name))
		case len(gpuRows) > 1 && a.opt.Compat:
			return fmt.Errorf("NPU %s: This API : %s has multiple records in the GPU data.", a.npu.where(i, colAPIName), name)
		default:
			gi := gpuRows[len(gpuRows)-1]
			if len(gpuRows) > 1 {
				a.opt.Warn(fmt.Sprintf("GPU details CSV %s has %d rows named %s; the last one (line %d) is used", a.gpu.Path, len(gpuRows), name, a.gpu.Lines[gi]))
			}
			r := &row{a: a, ni: i, gi: gi, api: api, det: a.newDetail(name)}
			var err error
			if status, err = r.status(); err != nil {
				var pe *pyError
				if !errors.As(err, &pe) {
					pe = &pyError{msg: err.Error(), info: a.npu.where(i, colAPIName)}
				}
				msg := pe.msg
				if !a.opt.Compat {
					msg += " (" + pe.info + ")"
				}
				a.opt.Warn(fmt.Sprintf("%s: not compared: %s (%s)", name, pe.msg, pe.info))
				a.skipRow(name, msg)
				continue
			}
			det = r.det
		}
		a.out.Details = append(a.out.Details, det)
		if a.pending != "" && full != a.pending {
			a.flush()
		}
		a.pending = full
		a.pendingType = a.npu.cell(i, colDeviceDType, a.opt.Compat)
		if a.opt.Compat && a.pendingType.k == kText && unsupportedDTypes[a.pendingType.s] {
			continue
		}
		a.record(dir, status, func() string { return a.npu.cell(i, colMessage, a.opt.Compat).pyStr() }, det)
	}
	return nil
}

// record adds a row status to the pending API (§10.3 step 10).
func (a *analysis) record(dir, status string, npuMessage func() string, det []string) {
	switch dir {
	case "forward":
		a.fwd = append(a.fwd, status)
		a.skipMsg = ""
		if status == standard.Skip {
			if a.opt.Compat {
				a.skipMsg = npuMessage()
			} else {
				a.skipMsg = det[dMessage]
			}
		}
	case "backward":
		a.bwd = append(a.bwd, status)
	default:
		a.opt.Warn(fmt.Sprintf("Invalid direction status: %s (row %s)", dir, det[dName]))
	}
}

// aggregate is msprobe's get_api_checker_result: SPACE when empty, SKIP
// when all are SKIP, else error > Warning > pass.
func aggregate(st []string) string {
	if len(st) == 0 {
		return standard.Space
	}
	all := true
	for _, s := range st {
		if s != standard.Skip {
			all = false
		}
	}
	if all {
		return standard.Skip
	}
	for _, want := range []string{standard.Error, standard.Warning} {
		for _, s := range st {
			if s == want {
				return want
			}
		}
	}
	return standard.Pass
}

// flush writes the pending API's result row (§10.6).
func (a *analysis) flush() {
	if a.pending == "" {
		return
	}
	if !a.opt.Compat {
		a.addGPUOnly(a.pending)
	}
	if a.opt.Compat && a.pendingType.k == kText && unsupportedDTypes[a.pendingType.s] {
		a.out.Results = append(a.out.Results, []string{a.pending, standard.Skip, standard.Skip, MsgUnsupportedDType})
	} else {
		f, b := aggregate(a.fwd), aggregate(a.bwd)
		msg := ""
		if f == standard.Error && shortName(a.pending) == "topk" {
			msg += msgTopK
		}
		if f == standard.Skip {
			msg += a.skipMsg
		}
		a.out.Results = append(a.out.Results, []string{a.pending, f, b, msg})
		a.skipMsg = ""
	}
	a.fwd, a.bwd = nil, nil
	a.pending = ""
}

// findGPUOnly collects the GPU rows that have no NPU row of the same name
// (default mode reports them; msprobe ignores them).
func (a *analysis) findGPUOnly() {
	npuNames := map[string]bool{}
	for i := range a.npu.Rows {
		npuNames[a.npu.text(i, colAPIName)] = true
	}
	a.gpuOnly = map[string][]int{}
	for i := range a.gpu.Rows {
		name := a.gpu.text(i, colAPIName)
		if npuNames[name] {
			continue
		}
		if injection.MatchString(name) {
			a.opt.Warn(fmt.Sprintf("GPU %s: row %q not written: the name could be read as a CSV formula", a.gpu.where(i, colAPIName), name))
			continue
		}
		_, full, _, ok := parseRowName(name)
		if !ok {
			full = name
		}
		if _, seen := a.gpuOnly[full]; !seen {
			a.gpuOnlyAPIs = append(a.gpuOnlyAPIs, full)
		}
		a.gpuOnly[full] = append(a.gpuOnly[full], i)
	}
}

// addGPUOnly writes SKIP rows for the GPU-only rows of API full into the
// pending API, once.
func (a *analysis) addGPUOnly(full string) {
	rows, ok := a.gpuOnly[full]
	if !ok {
		return
	}
	delete(a.gpuOnly, full)
	for _, gi := range rows {
		name := a.gpu.text(gi, colAPIName)
		_, _, dir, _ := parseRowName(name)
		d := a.newDetail(name)
		d[dResult], d[dMessage] = standard.Skip, fmt.Sprintf("This API : %s does not exist in the NPU data.", name)
		a.out.Details = append(a.out.Details, d)
		a.opt.Warn(fmt.Sprintf("GPU %s: %s has no row in the NPU details CSV; reported as SKIP", a.gpu.where(gi, colAPIName), name))
		a.record(dir, standard.Skip, nil, d)
	}
}

// writeGPUOnlyAPIs reports the APIs that only the GPU file has, after the
// NPU's, in GPU file order.
func (a *analysis) writeGPUOnlyAPIs() {
	for _, full := range a.gpuOnlyAPIs {
		rows, ok := a.gpuOnly[full]
		if !ok {
			continue
		}
		if _, _, _, valid := parseRowName(a.gpu.text(rows[0], colAPIName)); !valid {
			delete(a.gpuOnly, full)
			for _, gi := range rows {
				name := a.gpu.text(gi, colAPIName)
				a.skipRow(name, fmt.Sprintf("The API name %s is invalid.", name))
			}
			continue
		}
		a.pending = full
		a.flush()
	}
}
