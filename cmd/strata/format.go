package main

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"text/tabwriter"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table is a tabwriter whose lines reach w through a buffer: tabwriter
// writes each cell on its own, and a reconcile of 10,000 stacks printed
// its report in tens of thousands of system calls. Flush writes both.
type table struct {
	*tabwriter.Writer
	buf *bufio.Writer
}

// Flush writes the table out.
func (t table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.buf.Flush()
}

func newTable(w io.Writer) table {
	buf := bufio.NewWriterSize(w, 64<<10)
	return table{Writer: tabwriter.NewWriter(buf, 0, 0, 2, ' ', 0), buf: buf}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
