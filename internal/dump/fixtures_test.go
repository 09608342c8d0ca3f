package dump

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/internal/fixtures"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/tensor"
)

// fixturesDir is the shared msprobe fixture directory; the test skips
// when it is absent.
func fixturesDir(t testing.TB) string { return fixtures.Require(t) }

func load(t *testing.T, rel, fw string) *Dump {
	t.Helper()
	d, err := Load(filepath.Join(fixturesDir(t), rel), fw)
	if err != nil {
		t.Fatalf("Load(%s): %v", rel, err)
	}
	return d
}

func names(d *Dump) []string {
	var out []string
	for _, e := range d.Entries {
		out = append(out, e.Name)
	}
	return out
}

func entry(t *testing.T, d *Dump, name string) *Entry {
	t.Helper()
	for _, e := range d.Entries {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no entry %q in %v", name, names(d))
	return nil
}

// walkArgs calls f for every Arg of a tree.
func walkArgs(args []framework.Arg, f func(framework.Arg)) {
	for _, a := range args {
		f(a)
		walkArgs(a.Elems, f)
	}
}

// checkTensorIndex verifies that Tensors holds exactly the tensor Args.
func checkTensorIndex(t *testing.T, name string, tensors map[string]*TensorDesc, lists ...[]framework.Arg) {
	t.Helper()
	seen := 0
	for _, l := range lists {
		walkArgs(l, func(a framework.Arg) {
			if a.Kind != framework.ArgTensor {
				return
			}
			seen++
			td := tensors[a.Path]
			if td == nil {
				t.Errorf("%s: tensor %s missing from Tensors", name, a.Path)
				return
			}
			if td.Path != a.Path || td.DType != a.DType || td.DTypeName != a.DTypeName || !slices.Equal(td.Shape, a.Shape) || td.RequiresGrad != a.RequiresGrad {
				t.Errorf("%s: Arg %+v and TensorDesc %+v disagree", name, a, td)
			}
		})
	}
	if seen != len(tensors) {
		t.Errorf("%s: %d tensor Args but %d TensorDescs", name, seen, len(tensors))
	}
}

func checkAllIndexes(t *testing.T, d *Dump) {
	t.Helper()
	for _, e := range d.Entries {
		if e.Forward != nil {
			var kw []framework.Arg
			for _, k := range e.Forward.Kwargs {
				kw = append(kw, k.Arg)
			}
			checkTensorIndex(t, e.Name, e.Forward.Tensors, e.Forward.Args, kw, e.Forward.Outputs)
		}
		if e.Backward != nil {
			checkTensorIndex(t, e.Name+" backward", e.Backward.Tensors, e.Backward.Inputs, e.Backward.Outputs)
		}
	}
}

func TestPyTorchRunUTDump(t *testing.T) {
	d := load(t, "msprobe-unit-tests/pytorch_ut_run_ut_dump.json", PyTorch)
	if d.Task != TaskStatistics || d.Level != "mix" || d.DataDir != "" {
		t.Errorf("task %q level %q datadir %q", d.Task, d.Level, d.DataDir)
	}
	want := []string{"Tensor.__mul__.7", "Torch.chunk.4", "Torch.cat.8"}
	if got := names(d); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("entries %v, want %v (file order)", got, want)
	}
	checkAllIndexes(t, d)

	// §11.6: Torch.chunk.4 → args [tensor, 2], kwargs {dim: -1}, output dtype fp16.
	e := entry(t, d, "Torch.chunk.4")
	if e.Type != "Torch" || e.API != "chunk" || e.Index != "4" || e.Key != "Torch.chunk.4.forward" || e.Skip != "" || e.Backward != nil {
		t.Errorf("entry %+v", e)
	}
	f := e.Forward
	if len(f.Args) != 2 || f.Args[0].Kind != framework.ArgTensor || f.Args[1].Kind != framework.ArgInt || f.Args[1].Int != 2 {
		t.Fatalf("args %+v", f.Args)
	}
	a0 := f.Args[0]
	if a0.Path != "args.0" || a0.DType != tensor.Float16 || a0.DTypeName != "torch.float16" || !slices.Equal(a0.Shape, []int{2048, 2, 1, 256}) || !a0.RequiresGrad {
		t.Errorf("args[0] %+v", a0)
	}
	td := f.Tensors["args.0"]
	if td.Max != 1.3955078125 || td.Min != -1.443359375 || !td.HasMax || !td.HasMin || td.DataName != "" {
		t.Errorf("stats %+v", td)
	}
	if len(f.Kwargs) != 1 || f.Kwargs[0].Name != "dim" || f.Kwargs[0].Arg.Kind != framework.ArgInt || f.Kwargs[0].Arg.Int != -1 || f.Kwargs[0].Arg.Path != "kwargs.dim" {
		t.Errorf("kwargs %+v", f.Kwargs)
	}
	if len(f.Outputs) != 2 || f.Outputs[0].DType != tensor.Float16 || f.Outputs[1].Path != "outputs.1" {
		t.Errorf("outputs %+v", f.Outputs)
	}

	// A list argument: torch.cat([a, b]).
	cat := entry(t, d, "Torch.cat.8").Forward
	if len(cat.Args) != 1 || cat.Args[0].Kind != framework.ArgList || len(cat.Args[0].Elems) != 2 {
		t.Fatalf("cat args %+v", cat.Args)
	}
	if cat.Args[0].Elems[1].Path != "args.0.1" || cat.Tensors["args.0.1"].Max != 1.3720703125 {
		t.Errorf("cat nested tensor %+v", cat.Args[0].Elems[1])
	}
	mul := entry(t, d, "Tensor.__mul__.7").Forward
	if mul.Args[1].RequiresGrad || mul.Tensors["args.1"].Max != 1 || mul.Tensors["args.1"].Min != -1 {
		t.Errorf("mul args[1] %+v", mul.Args[1])
	}
}

func TestPyTorchBareEntryMap(t *testing.T) {
	d := load(t, "msprobe-unit-tests/pytorch_ut_run_ut_forward.json", PyTorch)
	if d.Task != TaskStatistics || d.RawTask != "" || d.DataDir != "" {
		t.Errorf("task %q raw %q datadir %q", d.Task, d.RawTask, d.DataDir)
	}
	if len(d.Entries) != 1 || d.Entries[0].Name != "Torch.chunk.4" || d.Entries[0].Forward == nil {
		t.Fatalf("entries %v", names(d))
	}
	if len(d.Warnings) == 0 {
		t.Error("no warning about the missing \"data\" key")
	}
	checkAllIndexes(t, d)
}

func TestConvnetDumps(t *testing.T) {
	for _, mode := range []string{"statistics", "tensor"} {
		t.Run(mode, func(t *testing.T) {
			rel := "msprobe-cpu-convnet/dumps/convnet_" + mode + "/step0/rank/dump.json"
			d := load(t, rel, PyTorch)
			if d.Task != mode || d.Level != "L1" || d.FileFramework != "pytorch" {
				t.Errorf("task %q level %q framework %q", d.Task, d.Level, d.FileFramework)
			}
			wantDir := ""
			if mode == "tensor" {
				real, _ := filepath.EvalSymlinks(filepath.Join(fixturesDir(t), filepath.Dir(rel)))
				real, _ = filepath.Abs(real)
				wantDir = filepath.Join(real, "dump_tensor_data")
			}
			if d.DataDir != wantDir {
				t.Errorf("DataDir %q, want %q (never the recorded absolute path)", d.DataDir, wantDir)
			}
			// 47 keys: 35 forward + 12 backward, all paired.
			fwd, bwd := 0, 0
			for _, e := range d.Entries {
				if e.Skip != "" || e.Err != nil {
					t.Errorf("%s: unexpected skip %q / %v", e.Name, e.Skip, e.Err)
				}
				if e.Forward != nil {
					fwd++
				}
				if e.Backward != nil {
					bwd++
				}
			}
			if fwd != 35 || bwd != 12 || len(d.Entries) != 35 {
				t.Errorf("%d entries, %d forward, %d backward", len(d.Entries), fwd, bwd)
			}
			if d.Entries[0].Name != "Functional.conv2d.0" || d.Entries[len(d.Entries)-1].Name != "Tensor.add_.11" {
				t.Errorf("order: first %s last %s", d.Entries[0].Name, d.Entries[len(d.Entries)-1].Name)
			}
			checkAllIndexes(t, d)

			conv := entry(t, d, "Functional.conv2d.0")
			b := conv.Backward
			if b == nil || b.Key != "Functional.conv2d.0.backward" || len(b.Inputs) != 1 || len(b.Outputs) != 3 {
				t.Fatalf("conv2d backward %+v", b)
			}
			if b.Inputs[0].Path != "grad.0" || b.Outputs[0].Kind != framework.ArgNone || b.Outputs[1].Path != "gradout.1" || b.Outputs[2].Kind != framework.ArgTensor {
				t.Errorf("conv2d backward args %+v %+v", b.Inputs, b.Outputs)
			}
			if got := b.Tensors["grad.0"].Max; got != 0.029090672731399536 {
				t.Errorf("grad.0 Max %v", got)
			}
			// Positional non-tensors of conv2d: stride etc. are lists/ints.
			if len(conv.Forward.Args) < 3 || conv.Forward.Args[2].Kind != framework.ArgTensor {
				t.Errorf("conv2d args %+v", conv.Forward.Args)
			}

			ol := entry(t, d, "Torch.ones_like.0").Forward
			if len(ol.Kwargs) != 1 || ol.Kwargs[0].Arg.Kind != framework.ArgUnknown || ol.Kwargs[0].Arg.TypeName != "torch.memory_format" || ol.Kwargs[0].Arg.Str != "preserve_format" {
				t.Errorf("memory_format kwarg %+v", ol.Kwargs)
			}
			nll := entry(t, d, "Functional.nll_loss.0").Forward
			if nll.Args[1].DType != tensor.Int64 || len(nll.Outputs[0].Shape) != 0 {
				t.Errorf("nll_loss args %+v outputs %+v", nll.Args, nll.Outputs)
			}
			// Every tensor of the tensor dump names its file.
			for _, e := range d.Entries {
				for p, td := range e.Forward.Tensors {
					if mode == "tensor" && !strings.HasPrefix(td.DataName, e.Name+".forward.") {
						t.Errorf("%s %s: data_name %q", e.Name, p, td.DataName)
					}
					if mode == "statistics" && td.DataName != "" {
						t.Errorf("%s %s: data_name %q in statistics mode", e.Name, p, td.DataName)
					}
				}
			}
		})
	}
}

func TestConvnetDescriptorKindsSeen(t *testing.T) {
	d := load(t, "msprobe-cpu-convnet/dumps/convnet_statistics/step0/rank/dump.json", PyTorch)
	kinds := map[framework.ArgKind]int{}
	for _, e := range d.Entries {
		var kw []framework.Arg
		for _, k := range e.Forward.Kwargs {
			kw = append(kw, k.Arg)
		}
		for _, l := range [][]framework.Arg{e.Forward.Args, kw, e.Forward.Outputs} {
			walkArgs(l, func(a framework.Arg) { kinds[a.Kind]++ })
		}
	}
	for _, k := range []framework.ArgKind{framework.ArgTensor, framework.ArgInt, framework.ArgFloat, framework.ArgBool, framework.ArgUnknown, framework.ArgList} {
		if kinds[k] == 0 {
			t.Errorf("no argument of kind %d parsed from the convnet dump (kinds %v)", k, kinds)
		}
	}
}

func TestMindSporeCompareDump(t *testing.T) {
	d := load(t, "msprobe-unit-tests/mindspore_ut_compare_dump_file_mindspore_data_dump.json", MindSpore)
	if d.Task != TaskStatistics || d.FileFramework != "mindspore" || d.DataDir != "" {
		t.Errorf("task %q framework %q dir %q", d.Task, d.FileFramework, d.DataDir)
	}
	checkAllIndexes(t, d)
	checked := []string{}
	for _, e := range d.Entries {
		if e.Skip == "" {
			checked = append(checked, e.Name)
		} else if !e.Silent {
			t.Errorf("%s: skip %q should be silent (msprobe writes no row)", e.Name, e.Skip)
		}
	}
	if got := strings.Join(checked, ","); got != "Mint.logical_or.0,Mint.cos.0,Functional.flash_attention_score.0" {
		t.Errorf("checked entries %s", got)
	}
	reasons := map[string]string{
		"Tensor.__add__.0":         `MindSpore Tensor method "__add__" is not in the checker's supported list`,
		"Distributed.all_reduce.0": "Distributed APIs are not checked",
		"Primitive.norm.RmsNorm.0": primitiveSkip,
		"Cell.network_with_loss.module.language_model.embedding.word_embeddings.VocabParallelEmbedding.forward.0": cellSkip,
	}
	for n, r := range reasons {
		if e := entry(t, d, n); e.Skip != r {
			t.Errorf("%s: skip %q, want %q", n, e.Skip, r)
		}
	}
	fa := entry(t, d, "Functional.flash_attention_score.0")
	if fa.Backward == nil || len(fa.Backward.Outputs) != 4 || fa.Backward.Outputs[3].Kind != framework.ArgNone {
		t.Fatalf("flash attention backward %+v", fa.Backward)
	}
	if fa.Forward.Args[0].DType != tensor.BFloat16 || fa.Forward.Args[0].DTypeName != "BFloat16" {
		t.Errorf("bf16 arg %+v", fa.Forward.Args[0])
	}
	var mask *framework.Arg
	for i := range fa.Forward.Kwargs {
		if fa.Forward.Kwargs[i].Name == "attn_mask" {
			mask = &fa.Forward.Kwargs[i].Arg
		}
	}
	if mask == nil || mask.DType != tensor.Uint8 || fa.Forward.Tensors["kwargs.attn_mask"] == nil {
		t.Errorf("attn_mask kwarg %+v", mask)
	}
	// A bool 0-d tensor with boolean statistics.
	b := entry(t, d, "Tensor.__bool__.1").Forward.Tensors["args.0"]
	if b.MaxBool == nil || *b.MaxBool || b.MinBool == nil || *b.MinBool || !b.HasMax || b.Max != 0 || b.MaxRepr != "False" || len(b.Shape) != 0 {
		t.Errorf("bool stats %+v", b)
	}
}

func TestMindSporeComparePyTorchDump(t *testing.T) {
	d := load(t, "msprobe-unit-tests/mindspore_ut_compare_dump_file_pytorch_data_dump.json", PyTorch)
	checkAllIndexes(t, d)
	if e := entry(t, d, "Distributed.all_reduce.0"); e.Skip != "API Distributed.all_reduce.0 not support for run ut. SKIP." || e.Silent {
		t.Errorf("Distributed: %q silent=%v", e.Skip, e.Silent)
	}
	modules := 0
	for _, e := range d.Entries {
		if e.Type == "Module" {
			modules++
			if e.Skip != moduleSkip || !e.Silent || e.Forward != nil {
				t.Errorf("module entry %+v", e)
			}
		}
	}
	if modules != 4 {
		t.Errorf("%d module entries, want 4", modules)
	}
	fa := entry(t, d, "NPU.npu_fusion_attention.0")
	if fa.Skip != "" || fa.Backward == nil || fa.API != "npu_fusion_attention" {
		t.Errorf("npu_fusion_attention %+v", fa)
	}
}

func TestMindSporeAPIInfo(t *testing.T) {
	for _, mode := range []string{"statistics", "tensor"} {
		d := load(t, "msprobe-unit-tests/mindspore_ut_files_api_info_"+mode+".json", MindSpore)
		if d.Task != mode {
			t.Errorf("%s: task %q", mode, d.Task)
		}
		cwd, _ := os.Getwd()
		if mode == "tensor" && d.DataDir != cwd {
			t.Errorf("tensor mode with dump_data_dir \"\": DataDir %q, want the working directory %q", d.DataDir, cwd)
		}
		if mode == "statistics" && d.DataDir != "" {
			t.Errorf("statistics mode DataDir %q", d.DataDir)
		}
		e := entry(t, d, "MintFunctional.relu.0")
		td := e.Forward.Tensors["args.0"]
		if e.Skip != "" || td.DType != tensor.Float32 || td.DataName != "2_3_input.npy" || td.Max != 3 || td.Min != 1 || td.MaxRepr != "3.0" {
			t.Errorf("%s: %+v %+v", mode, e, td)
		}
	}
}

func TestFixtureStatisticsAreExact(t *testing.T) {
	// Statistics are Python floats; their repr parsed back must be the same
	// float64 (no double rounding).
	d := load(t, "msprobe-cpu-convnet/dumps/convnet_statistics/step0/rank/dump.json", PyTorch)
	td := entry(t, d, "Functional.conv2d.0").Forward.Tensors["args.0"]
	if td.Max != 3.6492292881011963 || td.Min != -3.405808448791504 || float64(float32(td.Max)) != td.Max {
		t.Errorf("conv2d input stats %v %v", td.Max, td.Min)
	}
	if math.IsNaN(td.Max) {
		t.Error("NaN")
	}
}
