package compare

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Column names of the run_ut details CSV that api_precision_compare reads
// (pytorch-precheck §10.1).
const (
	colAPIName       = "API Name"
	colDeviceDType   = "DEVICE Dtype"
	colShape         = "Shape"
	colMessage       = "Message"
	colSmallValue    = "小值域错误占比"
	colRMSE          = "均方根误差"
	colMaxRelErr     = "相对误差最大值"
	colMeanRelErr    = "相对误差平均值"
	colEB            = "误差均衡性"
	colErrorRate     = "二进制一致错误率"
	colInfNanRate    = "inf/nan错误率"
	colRelErrRate    = "相对误差错误率"
	colAbsErrRate    = "绝对误差错误率"
	colULPMean       = "ULP误差平均值"
	colULPRatio      = "ULP误差大于阈值占比"
	colThousandth    = "双千指标"
	maxInputBytes    = 1 << 30 // msprobe's limit for CSV inputs
	bomPrefix        = "\xEF\xBB\xBF"
	sideNPU, sideGPU = "NPU", "GPU"
)

// RequiredColumns are the columns both details CSVs must have, in msprobe's
// order (a missing one aborts msprobe before any output is written).
var RequiredColumns = []string{colAPIName, colDeviceDType, colSmallValue, colRMSE, colMaxRelErr, colMeanRelErr,
	colEB, colErrorRate, colInfNanRate, colRelErrRate, colAbsErrRate, colULPMean, colULPRatio, colThousandth}

// colKind is the dtype pandas infers for a whole column.
type colKind uint8

const (
	colUnknown colKind = iota
	colObject
	colFloat
	colInt
)

// Table is one run_ut details CSV: its header and rows as text, with the
// line each row starts on (for messages).
type Table struct {
	Path   string
	Side   string // "NPU" or "GPU"
	Header []string
	Rows   [][]string
	Lines  []int // Lines[i] is the line Rows[i] starts on (the header is line 1)
	col    map[string]int
	kinds  []colKind
}

// ReadTable reads a details CSV written by run_ut (BOM optional). side is
// "NPU" or "GPU" and only names the file in messages. Every error names the
// file, and the line where the file is malformed.
func ReadTable(path, side string) (*Table, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s details CSV: %w", side, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s details CSV %s: not a regular file", side, path)
	}
	if st.Size() > maxInputBytes {
		return nil, fmt.Errorf("%s details CSV %s: %d bytes, more than the 1 GiB msprobe accepts", side, path, st.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s details CSV: cannot read it: %w", side, err)
	}
	return ParseTable(path, side, data)
}

// ParseTable parses the bytes of a details CSV; path and side only name it
// in messages.
func ParseTable(path, side string, data []byte) (*Table, error) {
	t := &Table{Path: path, Side: side, col: map[string]int{}}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte(bomPrefix))))
	r.FieldsPerRecord = -1
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s details CSV %s: %w", side, path, err)
		}
		line, _ := r.FieldPos(0)
		if t.Header == nil {
			t.Header = rec
			continue
		}
		if len(rec) > len(t.Header) {
			return nil, fmt.Errorf("%s details CSV %s, line %d: %d fields, but the header has %d", side, path, line, len(rec), len(t.Header))
		}
		t.Rows = append(t.Rows, rec)
		t.Lines = append(t.Lines, line)
	}
	if t.Header == nil {
		return nil, fmt.Errorf("%s details CSV %s: empty file, no header row", side, path)
	}
	for i, h := range t.Header {
		if _, dup := t.col[h]; !dup {
			t.col[h] = i
		}
	}
	t.kinds = make([]colKind, len(t.Header))
	return t, nil
}

// Missing returns the required columns the table lacks.
func (t *Table) Missing() []string {
	var m []string
	for _, c := range RequiredColumns {
		if _, ok := t.col[c]; !ok {
			m = append(m, c)
		}
	}
	return m
}

// CheckColumns returns an error naming the file and the missing required
// columns, if any.
func (t *Table) CheckColumns() error {
	if m := t.Missing(); len(m) > 0 {
		return fmt.Errorf("%s details CSV %s, header (line 1): missing column(s) %s; is it an accuracy_checking_details CSV written by run_ut?",
			t.Side, t.Path, strings.Join(m, ", "))
	}
	return nil
}

// text returns the raw text of a cell ("" when the row is short or the
// column is missing).
func (t *Table) text(row int, name string) string {
	c, ok := t.col[name]
	if !ok || c >= len(t.Rows[row]) {
		return ""
	}
	return t.Rows[row][c]
}

// cell returns a cell as a value: always text without compat; with compat,
// typed as pandas types it (NA tokens become NaN, numeric columns numbers).
func (t *Table) cell(row int, name string, compat bool) value {
	c, ok := t.col[name]
	if !ok {
		return value{k: kNone}
	}
	short := c >= len(t.Rows[row])
	s := ""
	if !short {
		s = t.Rows[row][c]
	}
	if !compat {
		return value{k: kText, s: s}
	}
	if short || pandasNA[s] {
		return value{k: kNA, s: s, f: nan}
	}
	switch t.kind(c) {
	case colInt:
		f, _, _ := pandasNumber(s)
		return value{k: kInt, s: s, f: f}
	case colFloat:
		f, _, _ := pandasNumber(s)
		return value{k: kFloat, s: s, f: f}
	}
	return value{k: kText, s: s}
}

// kind infers column c's pandas dtype: int64 when every cell is an integer
// and none is NA, float64 when every non-NA cell is a number (or all are
// NA), object otherwise.
func (t *Table) kind(c int) colKind {
	if t.kinds[c] != colUnknown {
		return t.kinds[c]
	}
	k := colInt
	for _, r := range t.Rows {
		if c >= len(r) || pandasNA[r[c]] {
			if k == colInt {
				k = colFloat
			}
			continue
		}
		_, isInt, ok := pandasNumber(r[c])
		if !ok {
			k = colObject
			break
		}
		if !isInt && k == colInt {
			k = colFloat
		}
	}
	t.kinds[c] = k
	return k
}

// where names a cell for messages: "gpu.csv line 12, column 均方根误差".
func (t *Table) where(row int, name string) string {
	return fmt.Sprintf("%s line %d, column %s", filepath.Base(t.Path), t.Lines[row], name)
}
