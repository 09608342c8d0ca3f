package dump

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/sdk/framework"
)

// FuzzLoad feeds arbitrary bytes to the dump reader (Load minus the file
// read) for both frameworks: it must return a Dump or an error, never
// panic, and a returned Dump must be internally consistent. The seed corpus
// holds every msprobe fixture dump and a few hand-written edge cases; plain
// `go test` runs only the seeds.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		`{"task": "statistics", "data": {"Torch.a.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2], "Max": NaN, "Min": -Infinity}], "input_kwargs": {"k": [null, {}]}, "output": []}, "Torch.a.0.backward": {"input": [null], "output": [[{"type": "slice", "value": [1, null, -1]}]]}}}`,
		`{"task": "tensor", "dump_data_dir": "x", "framework": "mindspore", "data": {"Mint.add.0.forward": {"input_args": [{"type": "mindspore.Tensor", "dtype": "Int4", "shape": [], "Max": true, "Min": false, "data_name": "a.npy"}], "input_kwargs": {}, "output": [null]}}}`,
		`{"Torch.chunk.4.forward": {"input_args": [], "input_kwargs": {"dim": {"type": "int", "value": -1}}}}`,
		`{"data": {"Module.a.B.forward.0": {}, "=x.y.0.forward": {"input_args": [], "input_kwargs": {}}, "Cell.x.forward.0": 5}}`,
		`{"data": {"a": [1, 2,]}}`,
		"\xef\xbb\xbf{\"data\": {\"\\ud83d\\ude00.a.0.forward\": {\"input_args\": [{\"type\": \"str\", \"value\": \"\\u00e9\\ud800\"}], \"input_kwargs\": {}}}}",
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`,
		``,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir, _ := fixtures.Dir()
	files, _ := filepath.Glob(filepath.Join(dir, "msprobe-unit-tests", "*.json"))
	more, _ := filepath.Glob(filepath.Join(dir, "msprobe-cpu-convnet", "dumps", "*", "step0", "rank", "dump.json"))
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fw := range []string{PyTorch, MindSpore} {
			d, err := Parse(data, "/fuzz/dump.json", fw)
			if err != nil {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("%s: parser panicked: %v", fw, err)
				}
				if !strings.HasPrefix(err.Error(), "dump /fuzz/dump.json") {
					t.Fatalf("%s: error does not name the file: %v", fw, err)
				}
				continue
			}
			if d.Task != TaskStatistics && d.Task != TaskTensor {
				t.Fatalf("%s: task %q", fw, d.Task)
			}
			for _, e := range d.Entries {
				if e.Name == "" && e.Key != "" {
					t.Fatalf("%s: entry without name for key %q", fw, e.Key)
				}
				if e.Err != nil && e.Skip == "" && !e.Silent {
					t.Fatalf("%s: %s has an error but no skip reason", fw, e.Name)
				}
				if e.Forward != nil {
					checkIndex(t, e.Forward.Tensors, e.Forward.Args, e.Forward.Outputs)
					for _, k := range e.Forward.Kwargs {
						checkIndex(t, e.Forward.Tensors, []framework.Arg{k.Arg})
					}
				}
				if e.Backward != nil && e.Backward.Err == nil {
					checkIndex(t, e.Backward.Tensors, e.Backward.Inputs, e.Backward.Outputs)
				}
			}
		}
	})
}

// checkIndex verifies that every tensor Arg has its descriptor.
func checkIndex(t *testing.T, tensors map[string]*TensorDesc, lists ...[]framework.Arg) {
	for _, l := range lists {
		walkArgs(l, func(a framework.Arg) {
			if a.Kind == framework.ArgTensor && tensors[a.Path] == nil {
				t.Fatalf("tensor %s has no descriptor", a.Path)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	dir := fixtures.Require(b)
	data, err := os.ReadFile(filepath.Join(dir, "msprobe-cpu-convnet", "dumps", "convnet_tensor", "step0", "rank", "dump.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(data, "/b/dump.json", PyTorch); err != nil {
			b.Fatal(err)
		}
	}
}
