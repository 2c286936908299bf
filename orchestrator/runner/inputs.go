package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/readers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source"
)

// AppVersionVar is the variable that receives the stack's resolved
// version, as the seed's controller passes var.app_version.
const AppVersionVar = "app_version"

// inputs is everything a run feeds tofu, and the hashes that tell what
// changed since the last run.
type inputs struct {
	// vars are the variables written to the var file: the stack's own
	// variables, those its contracts give, and each set of contracts
	// read by regular expression.
	vars map[string]any
	// documents are the readInputsFromSecrets documents, by `as`: written
	// to the var file only for the variables the stack declares.
	documents map[string]any
	// version is the resolved version, handed to the stack as
	// var.app_version when its own variables do not set app_version.
	version string
	// varHashes has a hash per variable of the stack's own (not the
	// contracts), so a change can be named.
	varHashes map[string]string
	// upstreamHashes has the content hash of each consumed contract.
	upstreamHashes map[string]string
	// specHashes has a hash per Terraform field that changes how tofu
	// runs the stack, for the fields that are set (see specFields).
	specHashes map[string]string
	// fingerprint covers every input: source, variables, upstreams,
	// backend. varHashes, upstreamHashes and fingerprint are keyed
	// (HMAC-SHA256, see hashkey) and are what the run records.
	fingerprint string
	// scheme names the hashes' scheme and key, as history.Run.Hashes.
	scheme string
	// spec, vars, upstreams and derived are what the hashes cover: the
	// stack's spec fields, its own variables, the content it reads of
	// each contract, and each variable a contract gives (var.values and
	// the varsFrom and valueFrom entries of another stack's Secret), as
	// canonical JSON.
	spec      []specField
	ownVars   map[string][]byte
	upstreams map[string][]byte
	derived   map[string][]byte
	// specFields are the Terraform fields that change how tofu runs the
	// stack, as canonical JSON: spec.fileMappings may hold private
	// content.
	specFields map[string][]byte
	// stateChange, when set, says why the stack is planned although its
	// inputs did not change: its state changed outside strata, or its
	// last run failed.
	stateChange string
}

// gatherInputs reads the stack's inputs, and notes their hashes in the
// run. A contract that does not exist yet is a *WaitingError.
func (r *Runner) gatherInputs(ctx context.Context, st *runState) error {
	in, err := r.readInputs(ctx, st.req)
	if err != nil {
		return err
	}
	key, err := r.hashKey()
	if err != nil {
		return fmt.Errorf("gather inputs of stack %s: %w", st.req.Stack.Name, err)
	}
	in.hash(key)
	st.in = in
	st.run.Fingerprint, st.run.Inputs, st.run.Upstreams = in.fingerprint, in.varHashes, in.upstreamHashes
	st.run.Hashes, st.run.Spec = in.scheme, in.specHashes
	return nil
}

// readInputs reads the consumed contracts and assembles the variables, in
// the Tofu Controller's order: var.values rendered from its template, then
// spec.vars and spec.varsFrom (later entries winning), those that read
// another stack's output Secret taken from its contract. strata's own
// inputs come last: each readInputsFromSecrets document (handed over only
// to a stack that declares its variable, see prepare) and each set read by
// regular expression.
func (r *Runner) readInputs(ctx context.Context, req Request) (inputs, error) {
	s := req.Stack
	in, err := ownInputs(s, req.Artifact)
	if err != nil {
		return in, err
	}
	docs := map[string]*contracts.Document{}
	// readDoc reads a contract once. A contract a stack of the environment
	// will publish is waited for; one nobody publishes is nil.
	readDoc := func(contract string, wait bool) (*contracts.Document, error) {
		if d, ok := docs[contract]; ok {
			return d, nil
		}
		key := r.contractKey(contract)
		doc, err := r.cfg.Contracts.Get(ctx, key)
		if p, ok := req.Preview[contract]; ok {
			doc, err = p, nil
		}
		if errors.Is(err, contracts.ErrNotFound) {
			if producer := req.Producers[contract]; producer != "" || wait {
				return nil, &WaitingError{Stack: s.Name, Contract: contract, Key: key, Producer: producer}
			}
			docs[contract] = nil
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("gather inputs of stack %s: read contract %s: %w", s.Name, key, err)
		}
		docs[contract] = &doc
		in.upstreams[contract] = readContent(doc, req.Reads, contract)
		return &doc, nil
	}
	for _, c := range s.Consumes {
		doc, err := readDoc(c.Contract, true)
		if err != nil {
			return in, err
		}
		v, err := toValue(*doc)
		if err != nil {
			return in, fmt.Errorf("gather inputs of stack %s: contract %s: %w", s.Name, r.contractKey(c.Contract), err)
		}
		in.documents[c.As] = v
	}
	if s.Values != "" {
		v, err := renderValues(s, docs)
		if err != nil {
			return in, err
		}
		in.vars[ValuesVar] = v
		in.derived[ValuesVar], _ = json.Marshal(v)
	}
	maps.Copy(in.vars, s.Vars)
	for _, cv := range s.ContractVars {
		doc, err := readDoc(cv.Contract, false)
		if err != nil {
			return in, err
		}
		vars, err := contractVars(s.Name, cv, doc)
		if err != nil {
			return in, err
		}
		for k, v := range vars {
			if slices.Contains(cv.Keep, k) {
				continue
			}
			in.vars[k] = v
			in.derived[k], _ = json.Marshal(v)
		}
	}
	for _, m := range s.ConsumesMatching {
		docs, err := contracts.ReadPath(ctx, r.cfg.Contracts, r.cfg.ContractPrefix)
		if err != nil {
			return in, fmt.Errorf("gather inputs of stack %s: read contracts under %s: %w", s.Name, r.cfg.ContractPrefix, err)
		}
		selected, err := contracts.Select(docs, r.cfg.ContractPrefix, m.Regex)
		if err != nil {
			return in, fmt.Errorf("gather inputs of stack %s: %w", s.Name, err)
		}
		for name, p := range req.Preview {
			if _, ok := selected[name]; (ok || m.Matches(name)) && name != s.Produces {
				selected[name] = p
			}
		}
		// A producer of this environment that matches but has not
		// published yet is waited for, like a named upstream.
		for _, contract := range slices.Sorted(maps.Keys(req.Producers)) {
			producer := req.Producers[contract]
			if _, ok := selected[contract]; !ok && producer != s.Name && m.Matches(contract) {
				return in, &WaitingError{Stack: s.Name, Contract: contract, Key: r.contractKey(contract), Producer: producer}
			}
		}
		set := make(map[string]any, len(selected))
		for name, doc := range selected {
			v, err := toValue(doc)
			if err != nil {
				return in, fmt.Errorf("gather inputs of stack %s: contract %s: %w", s.Name, name, err)
			}
			set[name] = v
			in.upstreams[name] = readContent(doc, req.Reads, name)
		}
		in.vars[m.As] = set
	}
	return in, nil
}

// ownInputs are the inputs of a stack that the repository alone decides,
// before any contract is read: its own variables (and the version it is
// handed as var.app_version), and its spec fields. readInputs adds what
// the contracts give; Compare compares two renders of the repository
// with these alone.
func ownInputs(s *environment.Stack, art source.Artifact) (inputs, error) {
	in := inputs{
		vars:      make(map[string]any, len(s.Vars)+len(s.Consumes)+1),
		documents: make(map[string]any, len(s.Consumes)),
		ownVars:   make(map[string][]byte, len(s.Vars)+1),
		upstreams: make(map[string][]byte, len(s.Consumes)),
		derived:   map[string][]byte{},
	}
	if _, set := s.Vars[AppVersionVar]; !set && art.Version != "" {
		in.version = art.Version
		in.ownVars[AppVersionVar], _ = json.Marshal(in.version)
	}
	for name, v := range s.Vars {
		b, err := json.Marshal(v) // map keys are sorted, so this is canonical
		if err != nil {
			return in, fmt.Errorf("gather inputs of stack %s: variable %s: %w", s.Name, name, err)
		}
		in.ownVars[name] = b
	}
	in.spec = []specField{
		{"digest", art.Digest},
		{"version", art.Version},
		{"backend", s.BackendConfig},
		// What the stack publishes, and what it reads under which name,
		// are part of its spec: a change there re-plans it too.
		{"produces", s.Produces + " " + strings.Join(s.ProducesOutputs, ",")},
	}
	// A stack that only detects drift never applies, and one whose
	// resources are destroyed on deletion must record so in its last good
	// run: a change of either re-plans it. Each is written only when set,
	// so that the fingerprints of stacks without them stay as they were.
	if s.ApprovePlan == environment.ApprovePlanDisable {
		in.spec = append(in.spec, specField{"approvePlan", s.ApprovePlan})
	}
	if s.DestroyResourcesOnDeletion {
		in.spec = append(in.spec, specField{"destroyResourcesOnDeletion", "true"})
	}
	for _, c := range s.Consumes {
		in.spec = append(in.spec, specField{"consumes", c.Contract + " as " + c.As})
	}
	for _, m := range s.ConsumesMatching {
		in.spec = append(in.spec, specField{"consumes-matching", m.Regex + " as " + m.As})
	}
	specFields, err := specFields(s.Run)
	if err != nil {
		return in, fmt.Errorf("gather inputs of stack %s: %w", s.Name, err)
	}
	in.specFields = specFields
	return in, nil
}

// readContent is what a stack reads of a contract, as canonical JSON: the
// document's own fields, and of public and private the keys it reads (a
// whole section when it reads every key of it). A contract whose reads
// are not known is taken whole. So a key added, or changed, that the
// stack does not read does not re-plan it. The keys' types are left out.
func readContent(doc contracts.Document, reads map[string][]readers.Read, contract string) []byte {
	doc.Types = nil // what a stack reads are values; a plan's preview has no types
	rs, known := reads[contract]
	if !known {
		return doc.Content()
	}
	part := func(section string, values map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range values {
			for _, r := range rs {
				if r.Reads(section, k) {
					out[k] = v
					break
				}
			}
		}
		return out
	}
	read := doc
	read.Public = part(contracts.OutputPublic, doc.Public)
	read.Private = part(contracts.OutputPrivate, doc.Private)
	return read.Content()
}

// toValue turns a document into the plain JSON value tofu receives: the
// document as consumers have always read it, without the outputs' types,
// which only the Tofu Controller's output Secrets carry.
func toValue(doc contracts.Document) (any, error) {
	doc.Types = nil
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var v any
	err = json.Unmarshal(b, &v)
	return v, err
}

// changedKeys lists the keys whose value differs between two hash maps,
// including keys only one side has.
func changedKeys(before, after map[string]string) []string {
	var out []string
	for k, v := range after {
		if before[k] != v {
			out = append(out, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
