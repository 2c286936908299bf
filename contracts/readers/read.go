package readers

import (
	"fmt"
	"slices"
	"strings"
)

// Sections of a contract document, as contracts.OutputPublic and
// contracts.OutputPrivate.
const (
	SectionPublic  = "public"
	SectionPrivate = "private"
)

// Read is one reference of a consumer to contract data.
type Read struct {
	// Var is the variable the reference goes through.
	Var string `json:"var"`
	// Contract is the contract read.
	Contract string `json:"contract"`
	// Section is SectionPublic, SectionPrivate, or "" when the reference
	// reaches both.
	Section string `json:"section,omitempty"`
	// Key is the key read; "" means every key of Section.
	Key string `json:"key,omitempty"`
	// Optional is true for a read inside try() or can(): tofu falls back
	// when the key is missing, so removing it breaks nothing; a change of
	// type still may.
	Optional bool `json:"optional,omitempty"`
	// Pos is where the reference is.
	Pos Pos `json:"pos"`
}

// Pos is a place in a file.
type Pos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// String is "file:line".
func (p Pos) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// Reads reports whether the reference reads key of section: it names that
// key, or reaches every key of that section.
func (r Read) Reads(section, key string) bool {
	return (r.Section == "" || r.Section == section) && (r.Key == "" || r.Key == key)
}

// Whole reports whether the reference reaches every key it could.
func (r Read) Whole() bool { return r.Key == "" }

// What is the part of the contract read, as a dotted path:
// "network.public.subnet_ids", "network.public.*", "network.*".
func (r Read) What() string {
	parts := []string{r.Contract}
	switch {
	case r.Section == "" && r.Key == "":
		parts = append(parts, "*")
	case r.Section == "":
		parts = append(parts, "*", r.Key)
	case r.Key == "":
		parts = append(parts, r.Section, "*")
	default:
		parts = append(parts, r.Section, r.Key)
	}
	return strings.Join(parts, ".")
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	default:
		return -1
	}
}

// sortReads orders reads by contract, section, key, then position, and
// drops exact duplicates.
func sortReads(rs []Read) []Read {
	slices.SortFunc(rs, func(a, b Read) int {
		for _, c := range []int{
			strings.Compare(a.Contract, b.Contract),
			strings.Compare(a.Section, b.Section),
			strings.Compare(a.Key, b.Key),
			strings.Compare(a.Pos.File, b.Pos.File),
			a.Pos.Line - b.Pos.Line,
			a.Pos.Column - b.Pos.Column,
			strings.Compare(a.Var, b.Var),
			boolCompare(a.Optional, b.Optional),
		} {
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return slices.Compact(rs)
}
