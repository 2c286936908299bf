package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	title := flag.String("title", "go test", "names the run in the summary")
	n := flag.Int("n", 10, "how many of the slowest tests and packages to list")
	module := flag.String("module", "github.com/strata-iac/strata", "module path left out of package names in the summary")
	keep := flag.String("json", "", "also write every line read to this file")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if *keep != "" {
		f, err := os.Create(*keep)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
		defer f.Close()
		in = io.TeeReader(os.Stdin, f)
	}
	r := newReport(os.Stdout, *module)
	if err := read(in, r); err != nil {
		fmt.Fprintf(os.Stderr, "testreport: read go test -json: %v\n", err)
		os.Exit(2)
	}
	r.summary(os.Stdout, *title, *n)
	if r.failed {
		os.Exit(1)
	}
}

// read feeds every JSON event of in to r, and writes every other line to
// r's output as it is.
func read(in io.Reader, r *report) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintf(r.out, "%s\n", line)
			continue
		}
		r.add(e)
	}
	return sc.Err()
}
