// Package dump reads the dump.json files written by msprobe's
// PrecisionDebugger (PyTorch and MindSpore, level L1 or mix, statistics or
// tensor mode) and turns every dumped API call into an Entry: its forward
// call (argument descriptors as framework.Arg trees plus the tensor
// statistics by path) and its paired backward gradients.
//
// The reader accepts Python's non-standard NaN / Infinity / -Infinity
// tokens, keeps the key order of "data" (the processing order) and reports
// malformed JSON with line:column. Problems confined to one entry (a broken
// descriptor, an unsupported name) never fail the whole dump: the entry
// gets a Skip reason and, for malformed bodies, an Err naming the file, the
// entry and the field.
package dump

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Framework names accepted by Load.
const (
	PyTorch   = "pytorch"
	MindSpore = "mindspore"
)

// Task values of Dump.Task.
const (
	TaskStatistics = "statistics"
	TaskTensor     = "tensor"
)

// Dump is one parsed dump.json.
type Dump struct {
	// Path is the dump file as given to Load (made absolute).
	Path string
	// Framework is the framework the dump is checked as: "pytorch" or
	// "mindspore".
	Framework string
	// FileFramework is the dump's own "framework" key ("pytorch",
	// "mindspore", "mindtorch"), or "" when absent.
	FileFramework string
	// Task is "statistics" (inputs are generated from the statistics) or
	// "tensor" (real data is loaded from DataDir).
	Task string
	// RawTask is the dump's "task" key as written ("" when absent).
	RawTask string
	// Level is the dump's "level" key ("L1", "mix"), "" when absent.
	Level string
	// DataDir is the resolved root of the real tensor files, or "" when the
	// dump has none. PyTorch: <directory of dump.json>/dump_tensor_data when
	// dump_data_dir is truthy (the recorded absolute path is never used, so
	// dumps can be moved). MindSpore tensor mode: dump_data_dir, made
	// absolute against the working directory, falling back to
	// <directory of dump.json>/dump_tensor_data when the recorded directory
	// does not exist but that one does.
	DataDir string
	// Entries are the dump's entries in file order: one per API call
	// (forward and backward paired) and one per non-API key (Module, Cell,
	// ...), the latter always with a Skip reason.
	Entries []*Entry
	// Warnings are non-fatal observations (empty data, framework fallback,
	// skipped names that cannot be written safely, ...).
	Warnings []string

	// src is the file's content and conv the body converter, for
	// Materialize; lazy says that bodies are converted on demand (Open)
	// rather than all at once (Load, Parse).
	src   []byte
	conv  converter
	lazy  bool
	lines lines
}

// Entry is one dumped API call (or one non-API key, with Skip set).
type Entry struct {
	// Name is the full API name without direction ("Functional.conv2d.0");
	// for entries that are not API calls (Module, Cell, malformed names) it
	// is the whole key.
	Name string
	// Key is the dump key: the forward key when there is one
	// ("Functional.conv2d.0.forward"), else the backward key.
	Key string
	// Type is the first name segment: "Functional", "Tensor", "Torch",
	// "NPU", "Aten", "Mint", "MintFunctional", "Module", "Cell",
	// "Distributed", "Primitive", "Jit", ...
	Type string
	// API is the short API name: "conv2d", "linalg.vector_norm",
	// "add.Tensor" ("" when the name cannot be parsed).
	API string
	// Index is the call-counter segment ("0"), "" when not parsed.
	Index string
	// Skip, when not empty, says why the entry is not checked.
	Skip string
	// Silent marks skipped entries for which msprobe writes no CSV row at
	// all (Module/Cell entries, MindSpore entries that fail the
	// checkability test, names that cannot be written to a CSV safely).
	// Entries with Skip and not Silent get a SKIP row.
	Silent bool
	// MsprobeSkip, when set, is the reason msprobe does not check an entry
	// that probe checks (MindSpore's functional equivalents of the fused
	// torch_npu operators): with --compat msprobe the entry is silently
	// skipped, as msprobe writes no row for it.
	MsprobeSkip string
	// Err is set when the forward body could not be parsed; Skip then holds
	// the field and the problem, Err the full message with file and entry.
	Err error
	// Forward is the forward call; nil for a backward-only key.
	Forward *Call
	// Backward is the paired ".backward" entry, nil if absent.
	Backward *Backward

	// fwd and bwd locate the bodies of the forward and backward keys;
	// loaded says that Materialize converted them.
	fwd, bwd body
	loaded   bool
	// dialect is the PlanRequest.Dialect of the entry's calls: "mindtorch"
	// in a MindSpore dump written by MsAdapter, else "".
	dialect string
}

// HasForward reports whether the dump has a forward key for the entry
// (whether or not its body could be parsed).
func (e *Entry) HasForward() bool { return e.fwd.at > 0 || e.Forward != nil }

// HasBackward reports whether the dump has a backward key for the entry.
func (e *Entry) HasBackward() bool { return e.bwd.at > 0 || e.Backward != nil }

// Call is one forward call: its argument descriptors and the statistics of
// every tensor among them.
type Call struct {
	Args    []framework.Arg
	Kwargs  []framework.NamedArg
	Outputs []framework.Arg
	// Tensors holds the descriptor of every tensor in Args, Kwargs and
	// Outputs (nested ones included), by Arg.Path.
	Tensors map[string]*TensorDesc
	// FilterSig and FilterSigMsprobe identify the call for -f/--filter_api
	// (pytorch-precheck §3.6): calls of one API with equal signatures are
	// duplicates. FilterSig compares every input descriptor, list contents
	// included, without statistics and data file names (§12 #15);
	// FilterSigMsprobe is msprobe's rule. Both are opaque digests.
	FilterSig, FilterSigMsprobe string
}

// Backward is the backward entry paired with a forward call.
type Backward struct {
	// Inputs are the gradients flowing into the backward, i.e. w.r.t. the
	// forward outputs; paths "grad.0", "grad.1", ...
	Inputs []framework.Arg
	// Outputs are the gradients w.r.t. the forward inputs; paths
	// "gradout.0", ...
	Outputs []framework.Arg
	// Tensors holds every tensor descriptor of Inputs and Outputs by path.
	Tensors map[string]*TensorDesc
	// Key is the dump key ("Functional.conv2d.0.backward").
	Key string
	// Skip and Err are set when the backward body could not be parsed; the
	// backward side is then SKIP with this reason (the forward is not
	// affected).
	Skip string
	Err  error
}

// TensorDesc is the statistics descriptor of one dumped tensor.
type TensorDesc struct {
	// Path is the tensor's Arg.Path ("args.0", "kwargs.bias", "grad.0").
	Path string
	// TypeName is the descriptor's "type" ("torch.Tensor",
	// "mindspore.Tensor", "numpy.ndarray", ...).
	TypeName string
	// DType is the parsed dtype, Invalid for dtypes probe does not support
	// (float8, complex, HiFloat8, UInt16, ...); DTypeName is the spelling
	// in the dump.
	DType     tensor.DType
	DTypeName string
	Shape     []int
	// Min and Max are the dumped statistics (NaN and ±Inf kept). HasMin /
	// HasMax report whether they were numbers (JSON booleans count, as 0/1,
	// like Python's isinstance(x, (int, float))).
	Min, Max       float64
	HasMin, HasMax bool
	// MinBool / MaxBool are set when the statistic was a JSON boolean (bool
	// tensors: Max = any(x), Min = all(x)).
	MinBool, MaxBool *bool
	// MinRepr / MaxRepr render the raw statistic the way Python's str()
	// does ("None", "True", "1.5", "nan"), for error messages.
	MinRepr, MaxRepr string
	// DataName is the tensor file relative to the data root: the legacy
	// "datapath" when present, else "data_name"; "" when not saved.
	DataName     string
	RequiresGrad bool
	// MinExceptInfNan / MaxExceptInfNan are the legacy optional keys
	// honoured by the generator.
	MinExceptInfNan, MaxExceptInfNan *float64
}

// NumElements is the product of the shape (1 for a 0-d tensor).
func (t *TensorDesc) NumElements() int { return tensor.NumElements(t.Shape) }

// Load reads and parses one dump.json. framework is "pytorch" or
// "mindspore". A returned error is fatal for the whole dump (unreadable
// file, malformed JSON, bad top-level keys); problems of single entries are
// reported on the entries.
func Load(path string, framework string) (*Dump, error) {
	data, abs, dir, err := read(path)
	if err != nil {
		return nil, err
	}
	return parse(data, abs, dir, framework)
}

// Open reads one dump.json like Load but converts no entry body: the file
// is checked whole (its syntax, its top-level keys, every entry name) and
// indexed, and each entry's Forward and Backward are built by Materialize
// when the entry is needed and dropped by Release after it. A dump of
// 100,000 API calls then costs its file's bytes and a few hundred bytes
// per entry instead of every descriptor at once. Entry fields that come
// from the name (Name, Key, Type, API, Index, Skip and Silent of names
// that are not checked) are set at once; Skip and Err of a malformed body
// are set by Materialize.
func Open(path string, framework string) (*Dump, error) {
	data, abs, dir, err := read(path)
	if err != nil {
		return nil, err
	}
	return open(data, abs, dir, framework)
}

// read reads a dump file and says where it is: its absolute path and the
// directory of its resolved location, the root of its real-data files.
func read(path string) (data []byte, abs, dir string, err error) {
	abs, err = filepath.Abs(path)
	if err != nil {
		return nil, "", "", fmt.Errorf("dump %s: %w", path, err)
	}
	data, err = os.ReadFile(abs)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, "", "", fmt.Errorf("dump %s: cannot read: %w", path, err)
	}
	// The real-data root is computed from the resolved location of the
	// file, like msprobe does.
	dir = filepath.Dir(abs)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		dir = filepath.Dir(real)
	}
	return data, abs, dir, nil
}

// Parse parses the content of a dump.json; path names the file in messages
// and locates the real-data root (its directory).
func Parse(data []byte, path string, framework string) (*Dump, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return parse(data, abs, filepath.Dir(abs), framework)
}

// entryError is the error of one malformed entry.
type entryError struct {
	file, key, field, msg string
	line, col             int
}

func (e *entryError) Error() string {
	s := fmt.Sprintf("dump %s: %s: ", e.file, e.key)
	if e.field != "" {
		s += e.field + ": "
	}
	s += e.msg
	if e.line > 0 {
		s += fmt.Sprintf(" (line %d, column %d)", e.line, e.col)
	}
	return s
}

// reason is the entry-relative part used as the Skip text.
func (e *entryError) reason() string {
	if e.field == "" {
		return e.msg
	}
	return e.field + ": " + e.msg
}

// fieldError is a descriptor problem, located by field path and offset.
type fieldError struct {
	field string
	off   int
	msg   string
}

func (e *fieldError) Error() string { return e.field + ": " + e.msg }

func truthy(v *jvalue) bool {
	if v == nil {
		return false
	}
	switch v.kind {
	case jNull:
		return false
	case jBool:
		return v.b
	case jNumber:
		return v.f != 0 // NaN is truthy in Python, and NaN != 0 is true
	case jString:
		return v.s != ""
	case jArray:
		return len(v.arr) > 0
	}
	return len(v.obj) > 0
}

// rawEntry is one key of "data" and where its body is: the index of the
// dump. Bodies are converted by Dump.Materialize.
type rawEntry struct {
	key string
	off int    // offset of the key
	dir string // "forward", "backward" or "" (not an API direction)
	at  int    // offset of the body (a JSON value)
}

// body locates one entry body in Dump.src.
type body struct {
	key string
	at  int // offset of the value; 0 when there is none (an offset of 0 is the top-level object)
}

// parse reads the whole dump: the index (open), then every entry body.
func parse(data []byte, path, dir, fw string) (*Dump, error) {
	d, err := open(data, path, dir, fw)
	if err != nil {
		return nil, err
	}
	for _, e := range d.Entries {
		d.Materialize(e)
	}
	d.lazy, d.src = false, nil
	return d, nil
}

// open reads the dump's top level and indexes "data": every key, its
// direction and where its body is, with the whole syntax checked (so a
// malformed file fails here, with line:column) but no body converted.
func open(data []byte, path, dir, fw string) (d *Dump, err error) {
	if fw != PyTorch && fw != MindSpore {
		return nil, fmt.Errorf("dump %s: unknown framework %q, expected %q or %q", path, fw, PyTorch, MindSpore)
	}
	defer func() {
		// The parser is written not to panic; this guard keeps a bug from
		// crossing the package boundary.
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("dump %s: internal error while parsing: %v", path, r)
		}
	}()
	d = &Dump{Path: path, Framework: fw, src: data, conv: converter{fw: fw}, lazy: true}
	p := &parser{data: data}
	posErr := func(e error) error {
		var se *syntaxError
		if errors.As(e, &se) {
			line, col := positionOf(data, se.off)
			return fmt.Errorf("dump %s:%d:%d: %s", path, line, col, se.msg)
		}
		return fmt.Errorf("dump %s: %w", path, e)
	}
	// Skip a UTF-8 byte order mark.
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		p.pos = 3
	}
	p.skipSpace()
	if p.pos >= len(data) {
		return nil, fmt.Errorf("dump %s: the file is empty", path)
	}
	if data[p.pos] != '{' {
		v, err := p.value()
		if err != nil {
			return nil, posErr(err)
		}
		line, col := positionOf(data, v.off)
		return nil, fmt.Errorf("dump %s:%d:%d: the top-level JSON value is %s %s, expected an object", path, line, col, article(v.kind), v.kind)
	}
	var (
		top      = map[string]*jvalue{}
		entries  []*rawEntry // from "data"
		bare     []*rawEntry // object members of a top level without "data"
		hasData  bool
		dataNull bool
	)
	empty, err := p.objectHead()
	if err != nil {
		return nil, posErr(err)
	}
	for !empty {
		key, off, err := p.memberKey()
		if err != nil {
			return nil, posErr(err)
		}
		switch key {
		case "task", "level", "framework", "dump_data_dir":
			v, err := p.value()
			if err != nil {
				return nil, posErr(err)
			}
			top[key] = v
		case "data":
			hasData = true
			p.skipSpace()
			if p.pos < len(data) && data[p.pos] == '{' {
				dataNull = false
				entries, err = p.entries()
				if err != nil {
					return nil, posErr(err)
				}
				break
			}
			v, err := p.value()
			if err != nil {
				return nil, posErr(err)
			}
			if v.kind != jNull {
				line, col := positionOf(data, v.off)
				return nil, fmt.Errorf("dump %s:%d:%d: \"data\" is %s %s, expected an object mapping entry names to entries", path, line, col, article(v.kind), v.kind)
			}
			dataNull, entries = true, nil
		default:
			p.skipSpace()
			at := p.pos
			kind, err := p.skip()
			if err != nil {
				return nil, posErr(err)
			}
			if kind == jObject {
				bare = append(bare, newRawEntry(key, off, at))
			}
		}
		done, err := p.memberEnd()
		if err != nil {
			return nil, posErr(err)
		}
		empty = done
	}
	if err := p.expectEnd(); err != nil {
		return nil, posErr(err)
	}

	// Top-level keys.
	str := func(key string) (string, error) {
		v := top[key]
		if v == nil || v.kind == jNull {
			return "", nil
		}
		if v.kind != jString {
			line, col := positionOf(data, v.off)
			return "", fmt.Errorf("dump %s:%d:%d: %q is %s %s, expected a string", path, line, col, key, article(v.kind), v.kind)
		}
		return v.s, nil
	}
	if d.RawTask, err = str("task"); err != nil {
		return nil, err
	}
	if d.Level, err = str("level"); err != nil {
		return nil, err
	}
	if d.FileFramework, err = str("framework"); err != nil {
		return nil, err
	}
	switch ff := strings.ToLower(d.FileFramework); {
	case ff == "":
	case fw == PyTorch && (ff == "mindspore" || ff == "mindtorch"):
		return nil, fmt.Errorf("dump %s: the dump says \"framework\": %q but it is being checked as a %s dump", path, d.FileFramework, fw)
	case fw == MindSpore && ff == "pytorch":
		return nil, fmt.Errorf("dump %s: the dump says \"framework\": %q but it is being checked as a %s dump", path, d.FileFramework, fw)
	}

	if !hasData {
		if fw == MindSpore {
			return nil, fmt.Errorf("dump %s: \"data\" is missing (MindSpore dumps need the top-level keys \"task\", \"dump_data_dir\" and \"data\")", path)
		}
		if len(bare) == 0 {
			return nil, fmt.Errorf("dump %s: \"data\" is missing and the file holds no API entries", path)
		}
		// A bare entry map (what msprobe's own tests feed run_ut):
		// statistics mode, no real data.
		entries = bare
		d.Warnings = append(d.Warnings, "no top-level \"data\" key: the file is read as a bare map of entries in statistics mode")
	} else if dataNull {
		return nil, fmt.Errorf("dump %s: something wrong with dump, no data found in dump.json (\"data\" is null)", path)
	}
	if hasData && len(entries) == 0 {
		d.Warnings = append(d.Warnings, "\"data\" is empty: nothing to check")
	}

	switch fw {
	case PyTorch:
		if truthy(top["dump_data_dir"]) {
			d.DataDir = filepath.Join(dir, "dump_tensor_data")
		}
		switch d.RawTask {
		case TaskStatistics, TaskTensor:
			d.Task = d.RawTask
		default:
			// run_ut does not read the task; the data root decides.
			d.Task = TaskStatistics
			if d.DataDir != "" {
				d.Task = TaskTensor
			}
		}
	case MindSpore:
		switch d.RawTask {
		case TaskStatistics, TaskTensor:
			d.Task = d.RawTask
		case "":
			return nil, fmt.Errorf("dump %s: \"task\" is missing; it must be \"statistics\" or \"tensor\"", path)
		default:
			return nil, fmt.Errorf("dump %s: \"task\" is %q; it must be \"statistics\" or \"tensor\"", path, d.RawTask)
		}
		switch strings.ToLower(d.FileFramework) {
		case "mindspore", "mindtorch":
		case "":
			d.Warnings = append(d.Warnings, "no \"framework\" key: the dump is read as a mindspore dump")
		default:
			d.Warnings = append(d.Warnings, fmt.Sprintf("unknown \"framework\" %q: the dump is read as a mindspore dump", d.FileFramework))
		}
		if d.Task == TaskTensor {
			v := top["dump_data_dir"]
			if v == nil || v.kind != jString {
				what := "missing"
				if v != nil {
					what = article(v.kind) + " " + v.kind.String()
				}
				return nil, fmt.Errorf("dump %s: tensor mode needs \"dump_data_dir\" (the directory of the .npy files) as a string, but it is %s", path, what)
			}
			d.DataDir = resolveMindSporeDataDir(v.s, dir)
			if !filepath.IsAbs(v.s) && d.DataDir != filepath.Join(dir, "dump_tensor_data") {
				d.Warnings = append(d.Warnings, fmt.Sprintf("\"dump_data_dir\" %q is relative: the tensor files are read from %s (relative to the working directory, as msprobe does)", v.s, d.DataDir))
			}
		}
	}

	d.Entries = classify(d, entries)
	if n := len(p.badUTF8); n > 0 {
		line, col := positionOf(data, p.badUTF8[0])
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d string(s) are not valid UTF-8, the first at %d:%d; their bad bytes read as U+FFFD", n, line, col))
	}
	return d, nil
}

func article(k jkind) string {
	if k == jArray || k == jObject {
		return "an"
	}
	return "a"
}

// resolveMindSporeDataDir applies §4.4 of the MindSpore spec: the recorded
// directory, relative ones against the working directory; when it does not
// exist but the dump_tensor_data directory next to dump.json does (the dump
// was moved), that one.
func resolveMindSporeDataDir(recorded, jsonDir string) string {
	p := recorded
	if !filepath.IsAbs(p) {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return p
	}
	sib := filepath.Join(jsonDir, "dump_tensor_data")
	if st, err := os.Stat(sib); err == nil && st.IsDir() {
		return sib
	}
	return p
}

// entries indexes the "data" object member by member: the key, its
// direction and the offset of the body, which is checked but not
// converted, so that nothing of the bodies is held in memory.
func (p *parser) entries() ([]*rawEntry, error) {
	empty, err := p.objectHead()
	if err != nil || empty {
		return nil, err
	}
	var out []*rawEntry
	for {
		key, off, err := p.memberKey()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		at := p.pos
		if _, err := p.skip(); err != nil {
			return nil, err
		}
		out = append(out, newRawEntry(key, off, at))
		done, err := p.memberEnd()
		if err != nil {
			return nil, err
		}
		if done {
			return out, nil
		}
	}
}

// newRawEntry classifies one key by its direction. Module and Cell bodies
// are never needed.
func newRawEntry(key string, off, at int) *rawEntry {
	r := &rawEntry{key: key, off: off, at: at}
	if isModuleType(key[:strings.IndexByte(key+".", '.')]) {
		return r
	}
	last := key[strings.LastIndexByte(key, '.')+1:]
	if len(last) == len(key) || (last != "forward" && last != "backward") || len(key) == len(last)+1 {
		return r
	}
	r.dir = last
	return r
}

func isModuleType(t string) bool { return t == "Module" || t == "Cell" }

// PlanRequest is what a framework plugin is asked to plan for the entry:
// its forward call, whether a backward entry exists, the run's compat
// mode ("msprobe" or "") and the dump's dialect ("mindtorch" for a
// MindSpore dump whose "framework" is "mindtorch"). It is nil when the
// forward body was not parsed.
func (e *Entry) PlanRequest(compat string) *framework.PlanRequest {
	if e.Forward == nil {
		return nil
	}
	return &framework.PlanRequest{API: e.Name, Args: e.Forward.Args, Kwargs: e.Forward.Kwargs, Outputs: e.Forward.Outputs,
		HasBackward: e.Backward != nil, Compat: compat, Dialect: e.dialect}
}

// PlanRequests is the PlanRequest of every entry with a parsed forward
// call, in dump order.
func (d *Dump) PlanRequests(compat string) []*framework.PlanRequest {
	var out []*framework.PlanRequest
	for _, e := range d.Entries {
		if r := e.PlanRequest(compat); r != nil {
			out = append(out, r)
		}
	}
	return out
}
