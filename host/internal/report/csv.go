// Package report writes and reads msprobe-compatible result and details
// CSVs: UTF-8 with a BOM, CRLF records, minimal quoting, the exact headers
// of each framework's checker, and msprobe's number formatting.
package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/probe-dev/probe/host/internal/killpoint"
	"github.com/probe-dev/probe/host/internal/standard"
)

// Flavor selects the CSV layout of a framework's checker.
type Flavor int

// Flavors.
const (
	PyTorch Flavor = iota
	MindSpore
)

// ResultHeader returns the result CSV header of a flavor.
func ResultHeader(f Flavor) []string {
	if f == MindSpore {
		return []string{"API Name", "Forward Test Success", "Backward Test Success", "Message"}
	}
	return []string{"API name", "Forward Test Success", "Backward Test Success", "Message"}
}

// DetailsHeader returns the details CSV header of a flavor.
func DetailsHeader(f Flavor) []string {
	if f == MindSpore {
		return []string{"API Name", "Bench Dtype", "Tested Dtype", "Shape", "Cosine", "MaxAbsErr", "MaxRelativeErr", "Status", "Message"}
	}
	return []string{"API Name", "Bench Dtype", "DEVICE Dtype", "Shape", "余弦相似度", "最大绝对误差", "双百指标", "双千指标", "双万指标",
		"二进制一致错误率", "误差均衡性", "均方根误差", "小值域错误占比", "相对误差最大值", "相对误差平均值", "inf/nan错误率",
		"相对误差错误率", "绝对误差错误率", "ULP误差最大值", "ULP误差平均值", "ULP误差大于阈值占比", "Status", "Message"}
}

// Detail is one details row: an output's row name and its verdict.
type Detail struct {
	Name string // "<full>.forward.output.<k>"
	standard.Row
}

// API is everything written for one API: its result row and details rows.
type API struct {
	Name     string
	Forward  string
	Backward string
	// Message goes into the result row's Message cell. msprobe omits the
	// cell entirely when there is no message (PyTorch flavor); OmitMessage
	// reproduces that.
	Message     string
	OmitMessage bool
	Details     []Detail
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Record encodes one CSV record the way Python's csv module does with the
// excel dialect: minimal quoting, doubled quotes, CRLF terminator, and a
// record of one empty field written as "" (a bare line break would be a
// blank line, which readers skip).
func Record(fields []string) []byte {
	if len(fields) == 1 && fields[0] == "" {
		return []byte("\"\"\r\n")
	}
	var b bytes.Buffer
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsAny(f, ",\"\r\n") {
			b.WriteByte('"')
			b.WriteString(strings.ReplaceAll(f, `"`, `""`))
			b.WriteByte('"')
		} else {
			b.WriteString(f)
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// Writer appends rows to one pair of result/details files.
type Writer struct {
	ResultPath, DetailsPath string
	flavor                  Flavor
	precision               int
	result, details         *os.File
	lock                    *os.File  // the output directory's lock
	unsynced                int       // rows written since the last fsync
	synced                  time.Time // when the files were last synced
	syncs                   int       // fsyncs of both files so far
	// Repaired says what Resume dropped from the end of the files: a
	// last row torn by a kill in the middle of its write.
	Repaired []string
}

// Timestamp formats t as msprobe names its files (%Y%m%d%H%M%S).
func Timestamp(t time.Time) string { return t.Format("20060102150405") }

// Create makes dir (0750) and starts new files named with the timestamp of
// t, writing the BOM and headers. When files of that second already exist
// (two runs into one directory within a second), the next free second is
// used, so nothing already written is overwritten.
func Create(dir string, f Flavor, t time.Time, precision int) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("output directory %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		ts := Timestamp(t.Add(time.Duration(try) * time.Second))
		w := &Writer{
			ResultPath:  filepath.Join(dir, "accuracy_checking_result_"+ts+".csv"),
			DetailsPath: filepath.Join(dir, "accuracy_checking_details_"+ts+".csv"),
			flavor:      f, precision: precision, lock: lock,
		}
		if try < 100 && (exists(w.ResultPath) || exists(w.DetailsPath)) {
			continue
		}
		if w.result, err = createWithHeader(w.ResultPath, ResultHeader(f)); err != nil {
			lock.Close()
			return nil, err
		}
		killpoint.Hit(killpoint.ResultCreated, "")
		if w.details, err = createWithHeader(w.DetailsPath, DetailsHeader(f)); err != nil {
			w.result.Close()
			lock.Close()
			return nil, err
		}
		return w, nil
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func createWithHeader(path string, header []string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o640)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := fh.Write(append(append([]byte(nil), bom...), Record(header)...)); err != nil {
		fh.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return fh, nil
}

var resultName = regexp.MustCompile(`^accuracy_checking_result_\d{14}\.csv$`)

// Resume reopens an interrupted run's files for appending. It returns the
// names of the APIs already in the result CSV (they are not run again).
// Details rows of APIs that have no result row — an interruption between
// the two writes — are dropped, since those APIs run again.
func Resume(resultPath string, f Flavor, precision int) (_ *Writer, _ map[string]bool, err error) {
	if !resultName.MatchString(filepath.Base(resultPath)) {
		return nil, nil, fmt.Errorf("resume %s: the file name must be accuracy_checking_result_<14 digits>.csv as probe wrote it (When continue run ut, please do not modify the result csv name.)", resultPath)
	}
	if _, err := os.Stat(resultPath); err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	lock, err := lockDir(filepath.Dir(resultPath))
	if err != nil {
		return nil, nil, fmt.Errorf("resume %s: %w", resultPath, err)
	}
	defer func() {
		if err != nil {
			lock.Close()
		}
	}()
	w := &Writer{
		ResultPath:  resultPath,
		DetailsPath: filepath.Join(filepath.Dir(resultPath), strings.ReplaceAll(filepath.Base(resultPath), "result", "details")),
		flavor:      f, precision: precision, lock: lock,
	}
	if made, err := remakeDetails(resultPath, w.DetailsPath, f); err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	} else if made {
		w.Repaired = append(w.Repaired, fmt.Sprintf("%s: missing, the run was killed before it made it; made anew", w.DetailsPath))
	}
	for _, path := range []string{resultPath, w.DetailsPath} {
		torn, err := dropTornRow(path)
		if err != nil {
			return nil, nil, fmt.Errorf("resume: %w", err)
		}
		if torn != "" {
			w.Repaired = append(w.Repaired, fmt.Sprintf("%s: dropped a last row torn by the interruption (%q); its API is checked again", path, torn))
		}
	}
	rows, err := ReadCSV(resultPath)
	if err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	done := map[string]bool{}
	for _, r := range rows[1:] {
		if len(r) > 0 && r[0] != "" {
			done[r[0]] = true
		}
	}
	if err := dropOrphanDetails(w.DetailsPath, done); err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	if w.result, err = os.OpenFile(resultPath, os.O_WRONLY|os.O_APPEND, 0o640); err != nil {
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	if w.details, err = os.OpenFile(w.DetailsPath, os.O_WRONLY|os.O_APPEND, 0o640); err != nil {
		w.result.Close()
		return nil, nil, fmt.Errorf("resume: %w", err)
	}
	return w, done, nil
}

// remakeDetails makes the details CSV of a run killed between Create's two
// files: the result CSV holds its header alone and the details CSV does
// not exist. Any other missing details CSV is left for Resume to refuse.
func remakeDetails(resultPath, detailsPath string, f Flavor) (bool, error) {
	if _, err := os.Lstat(detailsPath); !errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	data, err := os.ReadFile(resultPath)
	if err != nil || !bytes.Equal(data, append(slices.Clone(bom), Record(ResultHeader(f))...)) {
		return false, nil
	}
	fh, err := createWithHeader(detailsPath, DetailsHeader(f))
	if err != nil {
		return false, err
	}
	return true, fh.Close()
}

// dropTornRow cuts path after its last whole row and returns what it cut
// (at most 80 bytes of it). Every row probe writes ends with a line break,
// so a file that does not — or whose last row leaves a quote open — was
// interrupted in the middle of a write; glued to the next row appended, it
// would lose one API and mark another done.
func dropTornRow(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	start := 0
	if bytes.HasPrefix(data, bom) {
		start = len(bom)
	}
	r := csv.NewReader(bytes.NewReader(data[start:]))
	r.FieldsPerRecord = -1
	whole := int64(0)
	for {
		_, err := r.Read()
		if err != nil && !errors.Is(err, io.EOF) {
			var pe *csv.ParseError
			if !errors.As(err, &pe) || !errors.Is(pe.Err, csv.ErrQuote) {
				return "", fmt.Errorf("csv %s: %w", path, err)
			}
		}
		if err != nil {
			break
		}
		if off := r.InputOffset(); data[start+int(off)-1] == '\n' {
			whole = off
		}
	}
	end := start + int(whole)
	if end == len(data) {
		return "", nil
	}
	if whole == 0 {
		return "", fmt.Errorf("csv %s: the header row is incomplete; this is not a run probe can continue", path)
	}
	torn := string(data[end:])
	if strings.Trim(torn, "\r\n") == "" && strings.HasSuffix(torn, "\n") {
		// Blank lines after the last row, which readers skip: nothing is
		// torn, and rows appended after them start on a line of their own.
		return "", nil
	}
	if strings.Contains(torn, "\r\n") {
		// More than one row after the last good one: damage inside the
		// file, not a torn last write. Nothing is cut.
		return "", fmt.Errorf("csv %s: malformed row at byte %d, not at the end of the file; not continuing this run", path, end)
	}
	if len(torn) > 80 {
		torn = torn[:80] + "…"
	}
	if err := os.Truncate(path, int64(end)); err != nil {
		return "", err
	}
	return torn, nil
}

// apiOfRow strips ".forward.output.N" / ".backward.output.N" from a details
// row name.
func apiOfRow(name string) string {
	for _, dir := range []string{".forward.output.", ".backward.output."} {
		if i := strings.LastIndex(name, dir); i >= 0 {
			return name[:i]
		}
	}
	return name
}

func dropOrphanDetails(path string, done map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("details file %s: %w", path, err)
	}
	rows, err := parseCSV(path, data)
	if err != nil {
		return err
	}
	keep := bytes.NewBuffer(nil)
	if bytes.HasPrefix(data, bom) {
		keep.Write(bom)
	}
	dropped := false
	for i, r := range rows {
		if i > 0 && len(r) > 0 && !done[apiOfRow(r[0])] {
			dropped = true
			continue
		}
		keep.Write(Record(r))
	}
	if !dropped {
		return nil
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, keep.Bytes(), 0o640); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadCSV reads a whole CSV written by probe or msprobe (BOM tolerated,
// rows of varying length allowed).
func ReadCSV(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseCSV(path, data)
}

func parseCSV(path string, data []byte) ([][]string, error) {
	r := csv.NewReader(bufio.NewReader(bytes.NewReader(bytes.TrimPrefix(data, bom))))
	r.FieldsPerRecord = -1
	r.LazyQuotes = false
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("csv %s: %w", path, err)
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("csv %s: empty file (no header)", path)
	}
	return rows, nil
}

// Write appends one API: details rows first, then the result row, so that
// an API whose result row exists is complete. See syncRows for fsync.
func (w *Writer) Write(a *API) error {
	var det bytes.Buffer
	for _, d := range a.Details {
		det.Write(Record(w.detailFields(d)))
	}
	if det.Len() > 0 {
		if _, err := w.details.Write(det.Bytes()); err != nil {
			return fmt.Errorf("write %s: %w", w.DetailsPath, err)
		}
		killpoint.Hit(killpoint.DetailsWritten, a.Name)
	}
	fields := []string{a.Name, a.Forward, a.Backward}
	if !a.OmitMessage {
		fields = append(fields, a.Message)
	}
	if _, err := w.result.Write(Record(fields)); err != nil {
		return fmt.Errorf("write %s: %w", w.ResultPath, err)
	}
	killpoint.Hit(killpoint.ResultWritten, a.Name)
	w.unsynced++
	if w.unsynced >= syncRows || time.Since(w.synced) >= syncInterval {
		return w.Sync()
	}
	return nil
}

// Rows reach the files with one write(2) each, in the order details then
// result, so a killed probe (kill -9 included) leaves every row it wrote in
// the kernel's page cache; fsync, which only a machine crash needs, is
// batched: every syncRows rows or syncInterval, and at Close. Two fsyncs per
// API bound a run of 50,000 skipped APIs at 92 s.
const (
	syncRows     = 256
	syncInterval = 500 * time.Millisecond
)

// Sync flushes both files to disk, details first.
func (w *Writer) Sync() error {
	if err := w.details.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", w.DetailsPath, err)
	}
	if err := w.result.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", w.ResultPath, err)
	}
	w.unsynced, w.synced = 0, time.Now()
	w.syncs++
	killpoint.Hit(killpoint.Synced, "")
	return nil
}

func (w *Writer) detailFields(d Detail) []string {
	orSpace := func(s string) string {
		if s == "" {
			return standard.Space
		}
		return s
	}
	if w.flavor == MindSpore {
		m := func(i int) string {
			if !d.Metrics[i].Set() {
				return ""
			}
			return FormatMetric(d.Metrics[i], w.precision)
		}
		return []string{d.Name, d.BenchDType, d.DeviceDType, d.Shape, m(standard.ColCosine), m(standard.ColMaxAbsErr), m(standard.ColMaxRelErr), d.Status, d.Message}
	}
	f := make([]string, 0, 23)
	f = append(f, d.Name, orSpace(d.BenchDType), orSpace(d.DeviceDType), orSpace(d.Shape))
	for _, m := range d.Metrics {
		f = append(f, FormatMetric(m, w.precision))
	}
	return append(f, d.Status, d.Message)
}

// Close closes both files.
// Discard closes the writer and removes the files Create made, for a run
// that failed before it wrote any row.
func (w *Writer) Discard() error {
	lock := w.lock.Name()
	return errors.Join(w.Close(), os.Remove(w.ResultPath), os.Remove(w.DetailsPath), os.Remove(lock))
}

func (w *Writer) Close() error {
	var err error
	if w.unsynced > 0 {
		err = w.Sync()
	}
	return errors.Join(err, w.result.Close(), w.details.Close(), w.lock.Close())
}
