package tofu

import (
	"bufio"
	"bytes"
	"io"
)

// InFlight is a resource whose create an apply started and never ended:
// when the apply died with it (its tofu killed, not interrupted), the
// resource may exist in the cloud, and not in the state.
type InFlight struct {
	Address string
}

// InFlightCreates reads an apply's -json stream and returns, in the order
// they started, the resources whose create has an apply_start and neither
// an apply_complete nor an apply_errored.
func InFlightCreates(r io.Reader) []InFlight {
	started := map[string]int{}
	var order []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		e, ok := decodeEvent(bytes.TrimSpace(sc.Bytes()))
		if !ok || e.Resource == "" {
			continue
		}
		switch e.Type {
		case "apply_start":
			if e.Action == "create" {
				if _, seen := started[e.Resource]; !seen {
					order = append(order, e.Resource)
				}
				started[e.Resource]++
			}
		case "apply_complete", "apply_errored":
			if started[e.Resource] > 0 && (e.Action == "create" || e.Action == "") {
				started[e.Resource]--
			}
		}
	}
	var out []InFlight
	for _, a := range order {
		if started[a] > 0 {
			out = append(out, InFlight{Address: a})
		}
	}
	return out
}
