package flux

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rawTerraforms are n Terraform objects as decodeObject leaves them:
// their JSON, no map.
func rawTerraforms(t *testing.T, n int) []*terraform {
	t.Helper()
	tfs := make([]*terraform, n)
	for i := range tfs {
		j, err := json.Marshal(map[string]any{"kind": "Terraform", "spec": map[string]any{"path": fmt.Sprintf("./s%d", i), "vars": []any{map[string]any{"name": "n", "value": i}}}})
		if err != nil {
			t.Fatal(err)
		}
		tfs[i] = &terraform{rendered: rendered{rawJSON: j}}
	}
	return tfs
}

// TestRawAhead: each object's map is its JSON's, taken once in order;
// one whose map is decoded already, or that comes twice, is left to the
// load, as is one the goroutine has not begun.
func TestRawAhead(t *testing.T) {
	tfs := rawTerraforms(t, 3*rawWindow)
	tfs[5].raw = map[string]any{"kept": true}
	tfs[7] = tfs[6]
	r := rawAheadOf(tfs)
	defer r.stop()
	for i, tf := range tfs {
		// The goroutine is let reach its window, so that every object
		// is decoded ahead.
		waitDecoded(t, r, min(i+rawWindow, len(tfs)))
		got, ok := r.take(i)
		wantOK := i != 5 && i != 7
		if ok != wantOK {
			t.Errorf("take(%d) = _, %v, want %v", i, ok, wantOK)
		}
		if !ok {
			continue
		}
		var want map[string]any
		if err := json.Unmarshal(tf.rawJSON, &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("take(%d) (-want +got):\n%s", i, diff)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range tfs {
		if r.maps[i] != nil || r.jsons[i] != nil {
			t.Errorf("rawAhead after take(%d) holds its map or JSON, want neither", i)
		}
	}
}

// waitDecoded waits until the goroutine of r has decoded its first n
// objects.
func waitDecoded(t *testing.T, r *rawAhead, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		done := r.next >= n && r.busy == -1
		r.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rawAhead did not decode %d objects in 10 s", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRawAheadWindow: the goroutine decodes at most rawWindow objects
// ahead of the load, each taken as decoded, and leaves one the load came
// to first.
func TestRawAheadWindow(t *testing.T) {
	tfs := rawTerraforms(t, 3*rawWindow)
	r := rawAheadOf(tfs)
	defer r.stop()
	waitDecoded(t, r, rawWindow)
	time.Sleep(20 * time.Millisecond)
	r.mu.Lock()
	next := r.next
	r.mu.Unlock()
	if next != rawWindow {
		t.Fatalf("rawAhead with none taken decoded %d, want %d (its window)", next, rawWindow)
	}
	for i := range rawWindow {
		if _, ok := r.take(i); !ok {
			t.Errorf("take(%d) of one decoded ahead = _, false, want its map", i)
		}
	}
	if _, ok := r.take(2 * rawWindow); ok {
		t.Errorf("take(%d) before the goroutine could reach it = _, true, want false (the load decodes it)", 2*rawWindow)
	}
}

// TestRawAheadOff: with reading ahead off nothing is decoded ahead, and
// the load decodes every map itself.
func TestRawAheadOff(t *testing.T) {
	readAheadOn = false
	defer func() { readAheadOn = true }()
	r := rawAheadOf(rawTerraforms(t, 2))
	if r != nil {
		t.Fatalf("rawAheadOf() with reading ahead off = %v, want nil", r)
	}
	if _, ok := r.take(0); ok {
		t.Errorf("take(0) of a nil rawAhead = _, true, want false")
	}
	r.stop()
}
