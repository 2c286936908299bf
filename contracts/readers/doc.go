// Package readers finds, statically, which keys of which contracts a
// consumer stack reads, and where.
//
// A consumer receives contracts through OpenTofu variables. A Feed says how
// one variable carries contract data: the whole document
// (readInputsFromSecrets: var.network.public.subnet_ids), a map of a
// contract's keys (var.network.subnet_ids), one key's value (a varsKeys
// entry: var.subnet_ids; AnyVar: every variable, by the key of its name), or a map of documents by contract name
// (strata.dev/read-contracts: var.values["network"].public.vpc_id).
//
// Find parses the stack's module files (.tf and .tofu, and their JSON
// forms, as tofu picks them) with hashicorp/hcl/v2 and turns every
// reference to a fed variable into a Read: the contract, the section
// (public, private, or either), the key, and the file:line of the
// reference. A reference that stops short of a key — the object passed on
// whole to a module, a for expression, a function, or indexed by a value
// only known when tofu runs — reads every key it could reach: the check
// errs on the side of a consumer that might break. A reference inside
// try() or can() is Optional: the consumer copes with the key missing.
package readers
