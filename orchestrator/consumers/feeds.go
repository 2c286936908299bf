package consumers

import (
	"slices"

	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// Feeds returns the variables of stack s that carry contract data.
// produced lists the contracts the environment's stacks produce, which a
// set read by regular expression may hold.
func Feeds(s *environment.Stack, produced []string) []readers.Feed {
	var out []readers.Feed
	for _, c := range s.Consumes {
		out = append(out, readers.Feed{Var: c.As, Shape: readers.Document, Contract: c.Contract})
	}
	for _, cv := range s.ContractVars {
		if cv.Keys == nil {
			out = append(out, readers.Feed{Var: readers.AnyVar, Shape: readers.Value, Contract: cv.Contract})
			continue
		}
		for _, k := range cv.Keys {
			out = append(out, readers.Feed{Var: k.To, Shape: readers.Value, Contract: cv.Contract, Key: k.From})
		}
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

// valuesReads are the reads of a stack's spec.values template: each
// ${{ .AS.KEY }} reads KEY of the contract read as AS, at the Terraform
// object's file; any other use of .AS reads every key.
func valuesReads(s *environment.Stack) []readers.Read {
	if s.Values == "" || len(s.Consumes) == 0 {
		return nil
	}
	v, err := tcdata.ParseValuesText(s.Values)
	if err != nil {
		return nil // validate reports it
	}
	contractOf := map[string]string{}
	var as []string
	for _, c := range s.Consumes {
		contractOf[c.As] = c.Contract
		as = append(as, c.As)
	}
	var out []readers.Read
	for _, ref := range v.Refs(as) {
		out = append(out, readers.Read{Var: tcValuesVar, Contract: contractOf[ref.As], Key: ref.Key, Pos: readers.Pos{File: s.File}})
	}
	return out
}

// tcValuesVar is the variable a values template feeds.
const tcValuesVar = "values"

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
