// Package shape is the shape of a contract: its keys, the section each is
// in (public or private) and the type of each value, without the values.
//
// A shape comes from a published document (Of) or from a producer's plan
// JSON, before apply (FromPlan): the next contract is built from
// planned_values.outputs and output_changes with the public/private split
// of contracts.Build. A value tofu only knows after apply still counts as
// present, with as much of its type as the plan shows (a list, an object,
// or Unknown). When an explicit "public" or "private" output is wholly
// unknown, the keys of that section are not known before apply, and the
// shape says so.
//
// Compare says how two shapes differ: keys removed, added, moved from one
// section to the other, and changed to an incompatible type. Breaks says
// which of a consumer's reads (package readers) such a change breaks.
package shape
