package errordata

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/probe-dev/probe/host/internal/standard"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Framework names accepted by New.
const (
	PyTorch   = "pytorch"
	MindSpore = "mindspore"
)

// Modes of the error-data directory and files (msprobe: 0o750 / 0o640).
const (
	DirMode  fs.FileMode = 0o750
	FileMode fs.FileMode = 0o640
)

// Ext is the suffix of every file written.
const Ext = ".npy"

// ShouldSave is msprobe run_ut's condition for saving an API's data, to be
// checked after a successful comparison: the forward status is not "pass",
// or the backward status is neither "pass" nor SPACE (so "Warning" and
// "SKIP" count as failures).
func ShouldSave(forward, backward string) bool {
	return forward != standard.Pass || (backward != standard.Pass && backward != standard.Space)
}

// Saver writes the error data of failing APIs into one directory. It is
// safe for concurrent use; the directory is created on the first save.
//
// File stems (before Ext), with <full> the full API name without direction
// ("Functional.conv2d.0", "Mint.add.0"):
//
// PyTorch, default (fix of spec §12 #20):
//
//	<full>.forward.input.args.<i>          positional args, one walk
//	<full>.forward.input.kwargs.<name>     a kwarg that is a tensor
//	<full>.forward.input.kwargs.<name>.<i> tensors inside a container kwarg (one walk per kwarg)
//	<full>.forward.output.bench.<i>        / .device.<i>
//	<full>.backward.input.<i>              the gradient fed to backward
//	<full>.backward.output.bench.<i>       / .device.<i>
//
// PyTorch, compat (msprobe): args and kwargs are both written as
// <full>.forward.input.<i>, each walk restarting at 0, so a kwargs tensor
// overwrites the args file of the same index. Every <i> is msprobe's index
// (see Walk): a lone tensor gets .0.
//
// MindSpore (directory error_data, device side only: bench data is never
// written): names follow msprobe's MindSpore dumper, where an element's
// suffix is its position path (list index or dict key at each level, so
// None and scalars take positions but there is no counter):
//
//	<full>.forward.input.<p>      positional args
//	<full>.forward.kwargs.<name>[.<p>]
//	<full>.forward.output.<p>     device outputs
//	<full>.backward.input.<p>     default: the gradient fed to backward;  compat: the device gradients
//	<full>.backward.output.<p>    default: the device gradients;          compat: the gradient fed to backward
//
// (msprobe swaps the backward names relative to its dump convention; compat
// reproduces that.) A tensor output or gradient that is not a list is
// treated as a one-element list, so it gets .0.
type Saver struct {
	dir       string
	framework string
	compat    bool

	mu   sync.Mutex
	made bool
}

// New returns a saver writing under dir: into <dir>/ut_error_data<ts>/
// for PyTorch, <dir>/error_data/ for MindSpore (ts unused). framework is
// PyTorch or MindSpore; compat selects msprobe's file naming (see Saver).
// Nothing is created until the first file is saved.
func New(dir, ts, framework string, compat bool) (*Saver, error) {
	var sub string
	switch framework {
	case PyTorch:
		sub = "ut_error_data" + ts
	case MindSpore:
		sub = "error_data"
	default:
		return nil, fmt.Errorf("error data: unknown framework %q (want %q or %q)", framework, PyTorch, MindSpore)
	}
	if strings.ContainsAny(sub, "/\\\x00") {
		return nil, fmt.Errorf("error data: timestamp %q contains a path separator or NUL", ts)
	}
	if dir == "" {
		dir = "."
	}
	return &Saver{dir: filepath.Join(dir, sub), framework: framework, compat: compat}, nil
}

// Dir is the directory the files go to (it may not exist yet).
func (s *Saver) Dir() string { return s.dir }

// SaveForwardInput saves the tensors of the positional args and of the
// keyword args of one call.
func (s *Saver) SaveForwardInput(full string, args []Node, kwargs []Kwarg) error {
	if s.framework == MindSpore {
		if err := s.savePaths(full+".forward.input", L(args...)); err != nil {
			return err
		}
		for _, kw := range kwargs {
			if err := checkPart(kw.Name); err != nil {
				return err
			}
			if err := s.savePaths(full+".forward.kwargs."+kw.Name, kw.Value); err != nil {
				return err
			}
		}
		return nil
	}
	if s.compat {
		if err := s.saveWalk(full+".forward.input", L(args...)); err != nil {
			return err
		}
		keys := make([]string, len(kwargs))
		vals := make([]Node, len(kwargs))
		for i, kw := range kwargs {
			keys[i], vals[i] = kw.Name, kw.Value
		}
		return s.saveWalk(full+".forward.input", D(keys, vals))
	}
	if err := s.saveWalk(full+".forward.input.args", L(args...)); err != nil {
		return err
	}
	for _, kw := range kwargs {
		if err := checkPart(kw.Name); err != nil {
			return err
		}
		stem := full + ".forward.input.kwargs." + kw.Name
		if kw.Value.Kind == KindTensor {
			if kw.Value.Tensor != nil {
				if err := s.write(stem, kw.Value.Tensor); err != nil {
					return err
				}
			}
			continue
		}
		if err := s.saveWalk(stem, kw.Value); err != nil {
			return err
		}
	}
	return nil
}

// SaveForwardOutput saves the bench and device outputs (each a tensor or a
// list/tuple). MindSpore savers ignore bench.
func (s *Saver) SaveForwardOutput(full string, bench, device Node) error {
	if s.framework == MindSpore {
		return s.savePaths(full+".forward.output", asList(device))
	}
	if err := s.saveWalk(full+".forward.output.bench", bench); err != nil {
		return err
	}
	return s.saveWalk(full+".forward.output.device", device)
}

// SaveBackwardInput saves the gradient fed to backward (a tensor or a
// list). A MindSpore saver in compat mode writes it as backward.output.
func (s *Saver) SaveBackwardInput(full string, grad Node) error {
	if s.framework == MindSpore {
		name := ".backward.input"
		if s.compat {
			name = ".backward.output"
		}
		return s.savePaths(full+name, asList(grad))
	}
	return s.saveWalk(full+".backward.input", grad)
}

// SaveBackwardOutput saves the bench and device gradients (each usually a
// list). MindSpore savers ignore bench and, in compat mode, write the
// device gradients as backward.input.
func (s *Saver) SaveBackwardOutput(full string, bench, device Node) error {
	if s.framework == MindSpore {
		name := ".backward.output"
		if s.compat {
			name = ".backward.input"
		}
		return s.savePaths(full+name, asList(device))
	}
	if err := s.saveWalk(full+".backward.output.bench", bench); err != nil {
		return err
	}
	return s.saveWalk(full+".backward.output.device", device)
}

// API is everything saved for one failing API. Zero-valued Nodes (None)
// write nothing, so an API without backward leaves Grad, BenchGrads and
// DeviceGrads zero.
type API struct {
	Args                    []Node
	Kwargs                  []Kwarg
	BenchOut, DeviceOut     Node
	Grad                    Node
	BenchGrads, DeviceGrads Node
}

// Save saves all of one API's data in msprobe's order: forward inputs,
// forward outputs, backward input, backward outputs.
func (s *Saver) Save(full string, a API) error {
	if err := s.SaveForwardInput(full, a.Args, a.Kwargs); err != nil {
		return err
	}
	if err := s.SaveForwardOutput(full, a.BenchOut, a.DeviceOut); err != nil {
		return err
	}
	if err := s.SaveBackwardInput(full, a.Grad); err != nil {
		return err
	}
	return s.SaveBackwardOutput(full, a.BenchGrads, a.DeviceGrads)
}

// asList wraps a lone tensor in a list (MindSpore's dumper converts
// outputs to tuples), leaves other nodes alone.
func asList(n Node) Node {
	if n.Kind == KindTensor {
		return L(n)
	}
	return n
}

// saveWalk writes the tensors of n as <stem>.<i> with msprobe's indices.
func (s *Saver) saveWalk(stem string, n Node) error {
	items, _ := Walk(n, 0)
	for _, it := range items {
		if err := s.write(stem+"."+strconv.Itoa(it.Index), it.Tensor); err != nil {
			return err
		}
	}
	return nil
}

// savePaths writes the tensors of n as <stem>.<path>, the path being the
// list indices and dict keys leading to each tensor (nothing added for n
// itself).
func (s *Saver) savePaths(stem string, n Node) error {
	switch n.Kind {
	case KindTensor:
		if n.Tensor == nil {
			return nil
		}
		return s.write(stem, n.Tensor)
	case KindList:
		for i, e := range n.Elems {
			if err := s.savePaths(stem+"."+strconv.Itoa(i), e); err != nil {
				return err
			}
		}
	case KindDict:
		for i, e := range n.Elems {
			if err := checkPart(n.Keys[i]); err != nil {
				return err
			}
			if err := s.savePaths(stem+"."+n.Keys[i], e); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPart refuses name parts that could escape the directory.
func checkPart(p string) error {
	if p == "" || strings.ContainsAny(p, "/\\\x00") {
		return fmt.Errorf("error data: invalid name part %q", p)
	}
	return nil
}

// mkdir creates the directory once, with DirMode regardless of the umask
// when it is new.
func (s *Saver) mkdir() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.made {
		return nil
	}
	_, err := os.Stat(s.dir)
	existed := err == nil
	if err := os.MkdirAll(s.dir, DirMode); err != nil {
		return fmt.Errorf("error data directory %s: %w", s.dir, unwrapPath(err))
	}
	if !existed {
		if err := os.Chmod(s.dir, DirMode); err != nil {
			return fmt.Errorf("error data directory %s: %w", s.dir, unwrapPath(err))
		}
	}
	s.made = true
	return nil
}

// write saves t as <dir>/<stem>.npy atomically (temporary file in the
// same directory, then rename), with FileMode.
func (s *Saver) write(stem string, t *tensor.Tensor) error {
	if err := checkPart(stem); err != nil {
		return err
	}
	path := filepath.Join(s.dir, stem+Ext)
	if err := s.mkdir(); err != nil {
		return err
	}
	f, err := os.CreateTemp(s.dir, "."+stem+".*.tmp")
	if err != nil {
		return fmt.Errorf("error data file %s: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("error data file %s: %w", path, err)
	}
	if err := f.Chmod(FileMode); err != nil {
		return fail(unwrapPath(err))
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := WriteNPY(bw, t); err != nil {
		return fail(unwrapPath(err))
	}
	if err := bw.Flush(); err != nil {
		return fail(unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("error data file %s: %w", path, unwrapPath(err))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("error data file %s: %w", path, unwrapPath(err))
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
