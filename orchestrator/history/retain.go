package history

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Defaults of a Retention: a run is kept while it is one of its stack's
// last DefaultKeepRuns runs, or younger than DefaultKeepDays days.
const (
	DefaultKeepRuns = 100
	DefaultKeepDays = 14
)

// Day is the unit of Retention.Age that people set (--keep-days).
const Day = 24 * time.Hour

// DefaultRetention is how long runs are kept when nothing says otherwise.
var DefaultRetention = Retention{Runs: DefaultKeepRuns, Age: DefaultKeepDays * Day}

// Retention says how long a stack's runs are kept. A run is kept while
// it is one of the stack's newest Runs runs, or younger than Age (0: by
// count alone). A stack's first run and its last good run (Run.Good) are
// always kept, whatever their age: the first says when and how the stack
// began, and the last good one is what the next run's cause and the
// removal of a stack start from. A run still running is never deleted.
//
// Every store of runs applies it the same way, as a stack's next run
// begins: the state directory's file (Store), and the shared records of
// a cluster or a bucket (package records), through Expired.
type Retention struct {
	// Runs is how many of a stack's newest runs are kept, the one just
	// begun among them; at least 1.
	Runs int
	// Age keeps, on top, every run that started less than Age before the
	// run just begun; 0 keeps by count alone.
	Age time.Duration
}

// String says what r keeps, as the history and the web view show it.
func (r Retention) String() string {
	s := fmt.Sprintf("the last %d runs of each stack", r.Runs)
	if r.Runs == 1 {
		s = "the last run of each stack"
	}
	if r.Age > 0 {
		s += " and those of the last " + days(r.Age)
	}
	return s + ", its first run and its last good one"
}

// days writes d in days, or hours when it is not a whole number of days.
func days(d time.Duration) string {
	switch {
	case d == Day:
		return "day"
	case d%Day == 0:
		return fmt.Sprintf("%d days", d/Day)
	}
	return d.String()
}

// Check refuses a retention that keeps nothing.
func (r Retention) Check() error {
	if r.Runs < 1 {
		return fmt.Errorf("keep %d runs: keep at least 1 run of each stack", r.Runs)
	}
	if r.Age < 0 {
		return fmt.Errorf("keep runs for %s: the age must be 0 (by count alone) or more", r.Age)
	}
	return nil
}

// Keeps reports whether r keeps run, of a stack whose newest run is
// number last and whose last good run is number good (0: none), when
// the run just begun started at now.
func (r Retention) Keeps(run Run, last, good int, now time.Time) bool {
	return run.Number > last-r.Runs || run.Number == 1 || run.Number == good ||
		run.Result == ResultRunning || (r.Age > 0 && now.Sub(run.StartedAt) < r.Age)
}

// Expired returns which of a stack's runs a store deletes when it begins
// a new one, as keep says (see Retention): before is what the store holds
// of the stack's runs before the one just begun, newest first (run reads
// the run of each), and the new run, numbered one more than the newest
// of before, started at now and is one of the kept. The indexes are into
// before, in its order.
func Expired[T any](before []T, run func(T) Run, keep Retention, now time.Time) []int {
	if keep.Runs < 1 || len(before) == 0 {
		return nil
	}
	last := run(before[0]).Number + 1
	good := 0
	for _, b := range before {
		if r := run(b); r.Good() {
			good = r.Number
			break
		}
	}
	var out []int
	for i, b := range before {
		if !keep.Keeps(run(b), last, good, now) {
			out = append(out, i)
		}
	}
	return out
}

// policy is how the runs of one environment are kept: keep, and gone,
// called with each run deleted once the transaction that deleted it is
// committed (the environment's run logs go with their runs).
type policy struct {
	keep Retention
	gone func(stack string, number int)
}

// Retain sets how the runs of the environment client/env are kept from
// now on (DefaultRetention until it is called), and gone, when not nil,
// is called with each of its runs that Begin deletes, once deleted: a
// run's log file goes with its run. A reconcile calls it with the
// environment's settings as it opens the history.
func (s *Store) Retain(client, env string, keep Retention, gone func(stack string, number int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.policies == nil {
		s.policies = map[[2]string]policy{}
	}
	s.policies[[2]string{client, env}] = policy{keep: keep, gone: gone}
}

// policy is how the runs of client/env are kept.
func (s *Store) policy(client, env string) policy {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.policies[[2]string{client, env}]; ok && p.keep.Check() == nil {
		return p
	}
	return policy{keep: DefaultRetention}
}

// aged is what retention reads of a stored run: how it ended and when it
// started.
type aged struct {
	Result    Result    `json:"result"`
	StartedAt time.Time `json:"startedAt"`
}

// expire deletes the runs of the stack sb holds that keep no longer
// keeps, now that r, its newest, is stored and the index is kept, and
// returns their numbers. Runs are numbered in the order they start: it
// reads them from the oldest and stops at the first that is kept by count
// or by age, so a run that begins reads the few runs it lets go and no
// other.
func expire(tx *bolt.Tx, sb *bolt.Bucket, r Run, keep Retention) ([]int, error) {
	_, _, good, err := index(tx)
	if err != nil {
		return nil, err
	}
	g := keyNumber(good.Get(stackID(r.Client, r.Env, r.Stack)))
	var gone []int
	c := sb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		n := keyNumber(k)
		if n > r.Number-keep.Runs {
			break
		}
		if n == 1 || n == g {
			continue
		}
		var a aged
		if err := json.Unmarshal(v, &a); err != nil {
			return nil, fmt.Errorf("decode run #%d: %w", n, err)
		}
		if a.Result == ResultRunning {
			continue
		}
		if keep.Age > 0 && r.StartedAt.Sub(a.StartedAt) < keep.Age {
			break
		}
		gone = append(gone, n)
	}
	// Collected first: a bucket must not change under its cursor.
	for _, n := range gone {
		if err := sb.Delete(key(n)); err != nil {
			return nil, err
		}
	}
	return gone, nil
}
