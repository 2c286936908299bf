package consumers

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Reader is one stack's reads of one contract.
type Reader struct {
	Stack string `json:"stack"`
	// Reads are where the stack reads the contract. When Err is set they
	// are one read of every key: the code could not be read.
	Reads []readers.Read `json:"reads"`
	Err   string         `json:"error,omitempty"`
}

// Index maps each contract to its readers, sorted by stack.
type Index map[string][]Reader

// Readers returns the readers of a contract.
func (x Index) Readers(contract string) []Reader { return x[contract] }

// Dirs gives the directory that holds a stack's root module, and "" when
// its code is not at hand (its source could not be resolved).
type Dirs func(stack string) string

// Find reads the code of every stack of env that consumes a contract and
// indexes its reads. Files are named relative to the repository root when
// the code is in this checkout, else under the stack's spec.path.
func Find(env *environment.Environment, dirs Dirs) Index {
	var produced []string
	for _, s := range env.Stacks {
		if s.Produces != "" {
			produced = append(produced, s.Produces)
		}
	}
	x := Index{}
	for _, s := range env.Stacks {
		feeds := Feeds(s, produced)
		if len(feeds) == 0 {
			continue
		}
		dir := dirs(s.Name)
		var reads []readers.Read
		var err error
		if dir == "" {
			err = fmt.Errorf("the code of stack %s is not at hand: its source did not resolve", s.Name)
		} else {
			reads, err = readers.Find(dir, display(env, s, dir), feeds)
		}
		reads = append(reads, valuesReads(s)...)
		for _, c := range contractsOf(feeds) {
			r := Reader{Stack: s.Name, Reads: []readers.Read{}}
			if err != nil {
				r.Err = err.Error()
				r.Reads = []readers.Read{{Contract: c, Pos: readers.Pos{File: s.File}}}
			}
			for _, rd := range reads {
				if rd.Contract == c {
					r.Reads = append(r.Reads, rd)
				}
			}
			if len(r.Reads) > 0 || r.Err != "" {
				x[c] = append(x[c], r)
			}
		}
	}
	for _, c := range slices.Collect(maps.Keys(x)) {
		slices.SortFunc(x[c], func(a, b Reader) int { return strings.Compare(a.Stack, b.Stack) })
	}
	return x
}

// display names a stack's code directory for messages: relative to the
// repository root when it is in this checkout, else spec.path.
func display(env *environment.Environment, s *environment.Stack, dir string) string {
	if rel, err := filepath.Rel(env.Root, dir); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(s.Path)), "./")
}

// Of returns what stack reads, by contract: for each contract it reads,
// its reads (one read of every key when its code could not be read).
func (x Index) Of(stack string) map[string][]readers.Read {
	out := map[string][]readers.Read{}
	for c, rs := range x {
		for _, r := range rs {
			if r.Stack == stack {
				out[c] = append(out[c], r.Reads...)
			}
		}
	}
	return out
}
