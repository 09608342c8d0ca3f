package compare

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/probe-dev/probe/host/internal/report"
	"github.com/probe-dev/probe/host/internal/standard"
)

// Encode renders a CSV the way msprobe writes it: UTF-8 BOM, the header,
// then the rows, CRLF records with minimal quoting.
func Encode(header []string, rows [][]string) []byte {
	var b bytes.Buffer
	b.WriteString(bomPrefix)
	b.Write(report.Record(header))
	for _, r := range rows {
		b.Write(report.Record(r))
	}
	return b.Bytes()
}

// Summary describes a finished comparison.
type Summary struct {
	ResultPath, DetailsPath string
	// APIs is the number of result rows; Pass, Warning, Error and Skip
	// split them by verdict (error if either direction is error, else
	// Warning if either is Warning, else SKIP if no direction passed, else
	// pass).
	APIs, Pass, Warning, Error, Skip int
	// Rows is the number of details rows.
	Rows int
	// Stopped is Output.Stopped: msprobe would have stopped there (compat).
	Stopped error
}

// verdict folds a result row's forward and backward statuses.
func verdict(f, b string) string {
	switch {
	case f == standard.Error || b == standard.Error:
		return standard.Error
	case f == standard.Warning || b == standard.Warning:
		return standard.Warning
	case f == standard.Pass || b == standard.Pass:
		return standard.Pass
	}
	return standard.Skip
}

// Summarize counts an output's verdicts.
func Summarize(o *Output) Summary {
	s := Summary{APIs: len(o.Results), Rows: len(o.Details), Stopped: o.Stopped}
	for _, r := range o.Results {
		switch verdict(r[1], r[2]) {
		case standard.Error:
			s.Error++
		case standard.Warning:
			s.Warning++
		case standard.Pass:
			s.Pass++
		default:
			s.Skip++
		}
	}
	return s
}

// Run reads the NPU and GPU details CSVs, compares them and writes
// api_precision_compare_result_<ts>.csv and
// api_precision_compare_details_<ts>.csv into outDir (created with mode
// 0750 if needed), <ts> being now as %Y%m%d%H%M%S in local time — or the
// next second whose names are both free, so that nothing is overwritten.
// Input errors (unreadable file, malformed CSV, missing column) are
// returned before anything is written.
func Run(npuPath, gpuPath, outDir string, now time.Time, opt Options) (Summary, error) {
	npu, err := ReadTable(npuPath, sideNPU)
	if err != nil {
		return Summary{}, err
	}
	if err := npu.CheckColumns(); err != nil {
		return Summary{}, err
	}
	gpu, err := ReadTable(gpuPath, sideGPU)
	if err != nil {
		return Summary{}, err
	}
	if err := gpu.CheckColumns(); err != nil {
		return Summary{}, err
	}
	out := Compare(npu, gpu, opt)
	s := Summarize(out)
	s.ResultPath, s.DetailsPath, err = writeFiles(outDir, now, out)
	return s, err
}

func writeFiles(dir string, now time.Time, out *Output) (string, string, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", "", fmt.Errorf("output directory: %w", err)
	}
	for try := 0; ; try++ {
		ts := report.Timestamp(now.Add(time.Duration(try) * time.Second))
		rp := filepath.Join(dir, "api_precision_compare_result_"+ts+".csv")
		dp := filepath.Join(dir, "api_precision_compare_details_"+ts+".csv")
		if exists(rp) || exists(dp) {
			if try < 1000 {
				continue
			}
			return "", "", fmt.Errorf("output directory %s: no free file name near %s", dir, report.Timestamp(now))
		}
		if err := writeNew(rp, Encode(ResultHeader, out.Results)); err != nil {
			return "", "", err
		}
		if err := writeNew(dp, Encode(DetailsHeader, out.Details)); err != nil {
			return "", "", err
		}
		return rp, dp, nil
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// writeNew creates path (mode 0640, failing if it exists) and writes data.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
