package consumers

import (
	"slices"

	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Feeds returns the variables of stack s that carry contract data.
// produced lists the contracts the environment's stacks produce, which a
// set read by regular expression may hold.
func Feeds(s *environment.Stack, produced []string) []readers.Feed {
	var out []readers.Feed
	for _, c := range s.Consumes {
		out = append(out, readers.Feed{Var: c.As, Shape: readers.Document, Contract: c.Contract})
	}
	for _, m := range s.ConsumesMatching {
		fd := readers.Feed{Var: m.As, Shape: readers.DocumentSet}
		for _, c := range produced {
			if c != s.Produces && m.Matches(c) {
				fd.Contracts = append(fd.Contracts, c)
			}
		}
		slices.Sort(fd.Contracts)
		out = append(out, fd)
	}
	return out
}

// contractsOf lists the contracts the feeds read.
func contractsOf(feeds []readers.Feed) []string {
	var out []string
	for _, fd := range feeds {
		if fd.Shape == readers.DocumentSet {
			out = append(out, fd.Contracts...)
		} else {
			out = append(out, fd.Contract)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
