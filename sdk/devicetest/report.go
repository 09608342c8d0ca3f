package devicetest

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the report as an aligned text table, one row per op ×
// dtype pair: OP, DTYPE, RESULT, CASES (checks run, and failed ones),
// WORST (pass rows: the worst |err|/tolerance; FAIL rows: the worst
// failure), then a one-line summary.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OP\tDTYPE\tRESULT\tCASES\tWORST")
	counts := map[Status]int{}
	// Declared pairs without cases are listed after the table, one line
	// per op, so that the table holds only what was checked.
	var uncovered []string
	uncoveredOf := map[string]int{}
	// Ops the device declares at no dtype are named once, after the table.
	declared := map[string]bool{}
	var undeclared []string
	for _, res := range r.Results {
		declared[res.Op] = declared[res.Op] || res.Status != Unsupported
	}
	for _, res := range r.Results {
		counts[res.Status]++
		if !declared[res.Op] {
			if n := len(undeclared); n == 0 || undeclared[n-1] != res.Op {
				undeclared = append(undeclared, res.Op)
			}
			continue
		}
		if res.Status == NoCases {
			i, ok := uncoveredOf[res.Op]
			if !ok {
				i = len(uncovered)
				uncoveredOf[res.Op] = i
				uncovered = append(uncovered, res.Op+":")
			}
			uncovered[i] += " " + res.DType.String()
			continue
		}
		cases, worst := "-", ""
		switch res.Status {
		case Pass, Fail:
			cases = fmt.Sprint(res.Cases)
			if res.Failed > 0 {
				cases = fmt.Sprintf("%d/%d failed", res.Failed, res.Cases)
			}
			if res.Status == Fail {
				worst = res.Worst
			} else {
				worst = fmtRatio(res.WorstRatio) + " tolerance"
			}
			if !res.Backward {
				cases += " (fwd)"
			}
		case Unsupported:
			worst = "the device does not declare it"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", res.Op, res.DType, res.Status, cases, worst)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(undeclared) > 0 {
		fmt.Fprintf(w, "\nops with cases in the corpus that the device does not declare (%d): %s\n", len(undeclared), strings.Join(undeclared, ", "))
	}
	if len(uncovered) > 0 {
		fmt.Fprintln(w, "\ndeclared, but no case in the corpus (not checked):")
		for _, u := range uncovered {
			fmt.Fprintln(w, "  "+u)
		}
	}
	name := r.Device
	if name == "" {
		name = "device"
	}
	_, err := fmt.Fprintf(w, "%s: %d pairs: %d pass, %d FAIL, %d unsupported, %d without cases\n",
		name, len(r.Results), counts[Pass], counts[Fail], counts[Unsupported], counts[NoCases])
	return err
}
