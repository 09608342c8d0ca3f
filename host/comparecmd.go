package host

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/probe-dev/probe/host/internal/compare"
)

// compareCommand is "probe compare" and msprobe's "api_precision_compare":
// the NPU-vs-GPU verdict on two run_ut details CSVs (pytorch-precheck §10).
func compareCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var npu, gpu, out, compat string
	var quiet bool
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: probe compare --npu NPU_details.csv --gpu GPU_details.csv [-o OUT] [--compat msprobe]
       probe [-f pytorch] api_precision_compare -npu NPU_details.csv -gpu GPU_details.csv [-o OUT]

Judges every output of the device under test ("NPU") by the precision standard
of its API, with the peer device's ("GPU") error against the same bench as the
yardstick, and writes api_precision_compare_result_<ts>.csv and
api_precision_compare_details_<ts>.csv into OUT.

`)
		fs.PrintDefaults()
	}
	for _, n := range []string{"npu", "npu_csv_path"} {
		fs.StringVar(&npu, n, "", "accuracy_checking_details_<ts>.csv of the device under test (msprobe: -npu)")
	}
	for _, n := range []string{"gpu", "gpu_csv_path"} {
		fs.StringVar(&gpu, n, "", "accuracy_checking_details_<ts>.csv of the peer device (msprobe: -gpu)")
	}
	for _, n := range []string{"o", "out", "out_path"} {
		fs.StringVar(&out, n, "./", "output directory for the CSVs")
	}
	fs.StringVar(&compat, "compat", "", "\"msprobe\": write exactly what msprobe writes, defects included (see docs/compat.md)")
	fs.BoolVar(&quiet, "quiet", false, "no warnings on stderr (rows missing on one side, unreadable cells, ...)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case npu == "" || gpu == "":
		return fmt.Errorf("%w: both --npu and --gpu details CSVs are required (msprobe: -npu and -gpu)", errUsage)
	case compat != "" && compat != "msprobe":
		return fmt.Errorf("%w: --compat %q: the only compatibility mode is msprobe", errUsage, compat)
	case out == "":
		out = "./"
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	opt := compare.Options{Compat: compat == "msprobe"}
	if !quiet {
		opt.Warn = func(w string) { fmt.Fprintln(stderr, "probe: warning:", w) }
	}
	s, err := compare.Run(npu, gpu, out, time.Now(), opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nprobe %s compare: NPU %s vs GPU %s\n", Version, npu, gpu)
	fmt.Fprintf(stdout, "APIs compared: %d   pass: %d   warning: %d   error: %d   skip: %d   (details rows: %d)\n",
		s.APIs, s.Pass, s.Warning, s.Error, s.Skip, s.Rows)
	fmt.Fprintf(stdout, "Result CSV:  %s\nDetails CSV: %s\n", s.ResultPath, s.DetailsPath)
	if s.Stopped != nil {
		return fmt.Errorf("the comparison stopped early, as msprobe's does (the CSVs hold the rows written until then; without --compat probe goes on): %w", s.Stopped)
	}
	return nil
}
