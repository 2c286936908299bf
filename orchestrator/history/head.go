package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Head is what a reconcile reads of one stack's history: its newest run
// (Last), its newest run that is not an unlock (Ran: how its last plan or
// apply ended, which a person's unlock in between does not change) and
// its last good run (Good, see LastGood). A run the stack does not have
// is the zero Run, Number 0.
//
// Each run of a Head holds only what a reconcile reads of it: Last and
// Ran their Outcome, Good its Baseline. The rest of a run (its summary,
// plan id, version before, note) is read with Last, LastMatching,
// LastGood or List.
type Head struct {
	Last Run
	Ran  Run
	Good Run
}

// HeadOf is the head of a stack whose newest run is last, newest run that
// is not an unlock is ran and last good run is good (zero Runs for those
// it has not).
func HeadOf(last, ran, good Run) Head {
	return Head{Last: last.Outcome(), Ran: ran.Outcome(), Good: good.Baseline()}
}

// Outcome is r as far as a reconcile reads a stack's last run: its keys
// and number, its operation, how it ended (result, cause, error,
// interrupted resources), when it started, how long it took (in milliseconds, as
// stored) and the version and digest it ran. The zero Run's is the zero
// Run.
func (r Run) Outcome() Run {
	if r.Number == 0 {
		return Run{}
	}
	return Run{
		Number: r.Number, Client: r.Client, Env: r.Env, Stack: r.Stack, Operation: r.Operation,
		Cause: r.Cause, Result: r.Result, Error: r.Error, Interrupted: r.Interrupted,
		StartedAt: r.StartedAt, Duration: r.Duration.Truncate(time.Millisecond),
		ToVersion: r.ToVersion, Digest: r.Digest,
	}
}

// Baseline is r as far as a reconcile reads a stack's last good run, the
// baseline that what changed is worked out against: its keys and number,
// operation, cause, result and start, the version and digest it applied,
// the hashes of its inputs (Fingerprint, Inputs, Upstreams, Spec,
// Hashes), the contract it published, the state it left, its health
// checks and spec.destroyResourcesOnDeletion. The zero Run's is the zero
// Run.
func (r Run) Baseline() Run {
	if r.Number == 0 {
		return Run{}
	}
	return Run{
		Number: r.Number, Client: r.Client, Env: r.Env, Stack: r.Stack, Operation: r.Operation,
		Cause: r.Cause, Result: r.Result, StartedAt: r.StartedAt,
		ToVersion: r.ToVersion, Digest: r.Digest,
		Fingerprint: r.Fingerprint, Inputs: r.Inputs, Upstreams: r.Upstreams, Spec: r.Spec, Hashes: r.Hashes,
		Contract: r.Contract, StateSerial: r.StateSerial, StateLineage: r.StateLineage,
		HealthCheck:                r.HealthCheck,
		DestroyResourcesOnDeletion: r.DestroyResourcesOnDeletion,
	}
}

// headJSON is a Head as the heads index stores it (see indexBucket): the
// distinct runs of the head, newest first, each once with what its roles
// read of it, and which of them is which by number. Keys are short: every
// stack has one.
type headJSON struct {
	Runs []briefJSON `json:"r"`
	Last int         `json:"l,omitempty"`
	Ran  int         `json:"n,omitempty"`
	Good int         `json:"g,omitempty"`
}

// briefJSON is a run in a stored head: what the head's roles read of it.
// Client, env and stack are the head's key, not stored.
type briefJSON struct {
	Number                     int               `json:"n"`
	Operation                  Operation         `json:"o,omitempty"`
	Cause                      string            `json:"c,omitempty"`
	Result                     Result            `json:"r,omitempty"`
	Error                      string            `json:"e,omitempty"`
	Interrupted                []string          `json:"x,omitempty"`
	StartedAt                  time.Time         `json:"t"`
	DurationMs                 int64             `json:"d,omitempty"`
	ToVersion                  string            `json:"v,omitempty"`
	Digest                     string            `json:"s,omitempty"`
	Fingerprint                string            `json:"f,omitempty"`
	Hashes                     string            `json:"h,omitempty"`
	Inputs                     map[string]string `json:"i,omitempty"`
	Upstreams                  map[string]string `json:"u,omitempty"`
	Spec                       map[string]string `json:"p,omitempty"`
	Contract                   string            `json:"k,omitempty"`
	StateSerial                uint64            `json:"ss,omitempty"`
	StateLineage               string            `json:"sl,omitempty"`
	HealthCheck                *HealthCheck      `json:"hc,omitempty"`
	DestroyResourcesOnDeletion bool              `json:"dd,omitempty"`
}

func toBrief(r Run) briefJSON {
	return briefJSON{
		Number: r.Number, Operation: r.Operation, Cause: r.Cause, Result: r.Result, Error: r.Error,
		Interrupted: r.Interrupted, StartedAt: r.StartedAt, DurationMs: r.Duration.Milliseconds(),
		ToVersion: r.ToVersion, Digest: r.Digest, Fingerprint: r.Fingerprint, Hashes: r.Hashes,
		Inputs: r.Inputs, Upstreams: r.Upstreams, Spec: r.Spec, Contract: r.Contract,
		StateSerial: r.StateSerial, StateLineage: r.StateLineage, HealthCheck: r.HealthCheck,
		DestroyResourcesOnDeletion: r.DestroyResourcesOnDeletion,
	}
}

func (b briefJSON) run(client, env, stack string) Run {
	return Run{
		Client: client, Env: env, Stack: stack,
		Number: b.Number, Operation: b.Operation, Cause: b.Cause, Result: b.Result, Error: b.Error,
		Interrupted: b.Interrupted, StartedAt: b.StartedAt, Duration: time.Duration(b.DurationMs) * time.Millisecond,
		ToVersion: b.ToVersion, Digest: b.Digest, Fingerprint: b.Fingerprint, Hashes: b.Hashes,
		Inputs: b.Inputs, Upstreams: b.Upstreams, Spec: b.Spec, Contract: b.Contract,
		StateSerial: b.StateSerial, StateLineage: b.StateLineage, HealthCheck: b.HealthCheck,
		DestroyResourcesOnDeletion: b.DestroyResourcesOnDeletion,
	}
}

// encodeHead writes h as the heads index stores it.
func encodeHead(h Head) ([]byte, error) {
	var runs []Run
	for _, r := range []Run{h.Last, h.Ran, h.Good} {
		if r.Number == 0 {
			continue
		}
		i := slices.IndexFunc(runs, func(o Run) bool { return o.Number == r.Number })
		if i < 0 {
			runs = append(runs, r)
			continue
		}
		// One run in two roles: what each reads of it.
		if r.Number == h.Good.Number {
			runs[i], r = h.Good, runs[i]
		}
		runs[i].Error, runs[i].Interrupted, runs[i].Duration = r.Error, r.Interrupted, r.Duration
	}
	var j headJSON
	for _, r := range runs {
		j.Runs = append(j.Runs, toBrief(r))
	}
	j.Last, j.Ran, j.Good = h.Last.Number, h.Ran.Number, h.Good.Number
	return json.Marshal(j)
}

// errHead is a stored head that does not decode, or names a run it does
// not hold: the stack's runs say what it should.
var errHead = errors.New("malformed head")

// decodeHead reads a stored head of the stack client/env/stack.
func decodeHead(client, env, stack string, v []byte) (Head, error) {
	var j headJSON
	if err := json.Unmarshal(v, &j); err != nil {
		return Head{}, fmt.Errorf("%w: %w", errHead, err)
	}
	find := func(n int) (Run, error) {
		if n == 0 {
			return Run{}, nil
		}
		for _, b := range j.Runs {
			if b.Number == n {
				return b.run(client, env, stack), nil
			}
		}
		return Run{}, fmt.Errorf("%w: no run #%d", errHead, n)
	}
	var (
		h   Head
		err error
	)
	if h.Last, err = find(j.Last); err != nil {
		return Head{}, err
	}
	if h.Ran, err = find(j.Ran); err != nil {
		return Head{}, err
	}
	if h.Good, err = find(j.Good); err != nil {
		return Head{}, err
	}
	return HeadOf(h.Last, h.Ran, h.Good), nil
}
