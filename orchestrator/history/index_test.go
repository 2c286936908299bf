package history

import (
	"context"
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestRunningKey(t *testing.T) {
	tests := []struct {
		client, env, stack string
		n                  int
	}{
		{"acme", "dev", "network", 1},
		{"a", "", "b", 1 << 40},
		{"acme", "dev", "net\x00work", 7},
		{string(make([]byte, 300)), "dev", "x", 2},
	}
	for _, tt := range tests {
		k := runningKey(tt.client, tt.env, tt.stack, tt.n)
		client, env, stack, n, err := parseRunningKey(k)
		if err != nil || client != tt.client || env != tt.env || stack != tt.stack || n != tt.n {
			t.Errorf("parseRunningKey(runningKey(%q, %q, %q, %d)) = %q, %q, %q, %d, %v, want them back",
				tt.client, tt.env, tt.stack, tt.n, client, env, stack, n, err)
		}
	}
	// Two stacks whose names join to the same string have different keys.
	if a, b := stackID("ab", "c", "d"), stackID("a", "bc", "d"); string(a) == string(b) {
		t.Errorf("stackID(ab, c, d) = stackID(a, bc, d) = %q, want different keys", a)
	}
	for _, bad := range []string{"", "\x04acme", "\x01a\x01b\x01c", "\x01a\x01b\x01c123456789", "\xff\xff\xff", "\x01a\x01b\x80\x0012345678"} {
		if _, _, _, _, err := parseRunningKey([]byte(bad)); !errors.Is(err, errIndexKey) {
			t.Errorf("parseRunningKey(%q) = %v, want errIndexKey", bad, err)
		}
	}
}

func FuzzParseRunningKey(f *testing.F) {
	f.Add([]byte(runningKey("acme", "dev", "network", 3)))
	f.Add([]byte("\x01a\x01b\x01c"))
	f.Fuzz(func(t *testing.T, k []byte) {
		client, env, stack, n, err := parseRunningKey(k)
		if err != nil {
			return
		}
		if again := runningKey(client, env, stack, n); string(again) != string(k) {
			t.Errorf("runningKey(parseRunningKey(%q)) = %q, want the key back", k, again)
		}
	})
}

// TestIndexKeepsLastGood overwrites runs the way an adopted apply does,
// and checks that LastGood, read through the index, follows.
func TestIndexKeepsLastGood(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	record := func(r Run, result Result) Run {
		t.Helper()
		return finish(t, s, r, result)
	}
	one := record(begin(t, s, "acme", "dev", "network"), ResultApplied) // #1
	record(begin(t, s, "acme", "dev", "network"), ResultPlanned)        // #2
	three := begin(t, s, "acme", "dev", "network")                      // #3, running
	steps := []struct {
		name   string
		do     func()
		wantOK bool
		want   int
		// wantRunning is how many runs the running index holds.
		wantRunning int
	}{
		{"a running apply is not good", func() {}, true, 1, 1},
		{"the running apply ends applied", func() { three = record(three, ResultApplied) }, true, 3, 0},
		{"an older run overwritten good does not win", func() { record(one, ResultNoChanges) }, true, 3, 0},
		{"the last good run overwritten failed hands back", func() { three = record(three, ResultFailed) }, true, 1, 0},
		{"no good run is left", func() { record(one, ResultFailed) }, false, 0, 0},
		{"a new good run", func() { record(begin(t, s, "acme", "dev", "network"), ResultNoChanges) }, true, 4, 0},
		{"a run recorded still running stays in the index", func() { record(begin(t, s, "acme", "dev", "network"), ResultRunning) }, true, 4, 1},
	}
	for _, st := range steps {
		st.do()
		got, ok, err := s.LastGood(ctx, "acme", "dev", "network")
		if err != nil || ok != st.wantOK || got.Number != st.want {
			t.Errorf("%s: LastGood(network) = #%d, %v, %v, want #%d, %v", st.name, got.Number, ok, err, st.want, st.wantOK)
		}
		var running int
		if err := s.view(func(tx *bolt.Tx) error {
			running = tx.Bucket(indexBucket).Bucket(indexRunning).Stats().KeyN
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if running != st.wantRunning {
			t.Errorf("%s: the running index holds %d runs, want %d", st.name, running, st.wantRunning)
		}
	}
}
