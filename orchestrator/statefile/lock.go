package statefile

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Lock is a state lock as tofu writes it: the lock info file beside a local
// state, or the .tflock object beside an S3 state.
type Lock struct {
	ID        string    `json:"ID"`
	Operation string    `json:"Operation"`
	Who       string    `json:"Who"`
	Version   string    `json:"Version"`
	Created   time.Time `json:"Created"`
	Path      string    `json:"Path"`
	// HolderPID is the process that holds a local lock (0 when none
	// does, or for S3).
	HolderPID int `json:"-"`
	// Held is false for a local lock whose info file a crashed tofu left
	// behind: no process holds the lock any more.
	Held bool `json:"-"`
}

// ParseLock reads lock info as tofu writes it.
func ParseLock(data []byte) (Lock, error) {
	var l Lock
	if err := json.Unmarshal(data, &l); err != nil {
		return Lock{}, fmt.Errorf("parse lock info: %w", err)
	}
	if l.ID == "" {
		return Lock{}, fmt.Errorf("parse lock info: no ID")
	}
	return l, nil
}

// Host is the host part of Who ("user@host").
func (l Lock) Host() string {
	_, host, _ := strings.Cut(l.Who, "@")
	return host
}

// Describe says who holds the lock, since when, for what, and its ID.
func (l Lock) Describe(now time.Time) string {
	age := now.Sub(l.Created).Round(time.Second)
	return fmt.Sprintf("lock %s, taken by %s for %s %s ago (%s)", l.ID, orUnknown(l.Who), orUnknown(l.Operation), age, l.Created.UTC().Format(time.RFC3339))
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
