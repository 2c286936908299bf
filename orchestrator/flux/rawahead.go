package flux

import (
	"encoding/json"
	"sync"
)

// rawAhead decodes the Terraform objects' JSON into maps (rendered.rawMap,
// which the Tofu Controller's field checks read) on a goroutine of its
// own, in the order the load builds their stacks, at most rawWindow
// objects ahead of it: at 10,000 stacks the decodes were a twentieth of
// the load's serial CPU, and the load has the second CPU to spare.
//
// The load takes each map once (take). One the goroutine has not begun
// when the load comes to it, the load decodes itself, as it did before.
type rawAhead struct {
	mu   sync.Mutex
	cond sync.Cond
	// jsons are the objects' JSON, nil for one not to decode ahead;
	// maps what the goroutine made of them, each let go of once taken.
	jsons [][]byte
	maps  []map[string]any
	// next is the first the goroutine has not begun, busy the one it is
	// decoding (-1: none), taken how many the load has come to.
	next, busy, taken int
	stopped           bool
	done              chan struct{}
}

// rawWindow is how many maps the goroutine may decode ahead of the load.
const rawWindow = 64

// rawAheadOf starts decoding the JSON of tfs, in that order. An object
// whose map is decoded already, or that tfs holds twice, is left to the
// load (rawMap), which then does what it did before. It is nil, and
// decodes nothing, when reading ahead is off (readAheadOn).
func rawAheadOf(tfs []*terraform) *rawAhead {
	if !readAheadOn {
		return nil
	}
	r := &rawAhead{jsons: make([][]byte, len(tfs)), maps: make([]map[string]any, len(tfs)), busy: -1, done: make(chan struct{})}
	r.cond.L = &r.mu
	seen := make(map[*terraform]bool, len(tfs))
	for i, tf := range tfs {
		if !seen[tf] && tf.raw == nil {
			r.jsons[i] = tf.rawJSON
		}
		seen[tf] = true
	}
	go r.run()
	return r
}

// run decodes the JSON of each object in turn. A panic keeps nothing of
// that object; the load decodes it itself.
func (r *rawAhead) run() {
	defer close(r.done)
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for !r.stopped && (r.next >= len(r.jsons) || r.next-r.taken >= rawWindow) {
			r.cond.Wait()
		}
		if r.stopped {
			return
		}
		i, j := r.next, r.jsons[r.next]
		r.next, r.busy = i+1, i
		r.mu.Unlock()
		m := decodeRaw(j)
		r.mu.Lock()
		r.maps[i], r.busy = m, -1
		r.cond.Broadcast()
	}
}

// decodeRaw is rendered.rawMap's decode of j; nil for a nil j, or when it
// panics.
func decodeRaw(j []byte) (m map[string]any) {
	defer func() {
		if recover() != nil {
			m = nil
		}
	}()
	if j != nil {
		_ = json.Unmarshal(j, &m)
	}
	return m
}

// take returns the map of the i-th object, once decoded, and false when
// the load is to decode it itself: one not decoded ahead, or not begun
// yet, which the goroutine then skips.
func (r *rawAhead) take(i int) (map[string]any, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.taken = i + 1
	r.cond.Broadcast()
	for r.busy == i {
		r.cond.Wait()
	}
	if r.next <= i {
		r.next = i + 1
	}
	m := r.maps[i]
	r.maps[i], r.jsons[i] = nil, nil
	return m, m != nil
}

// stop ends the goroutine.
func (r *rawAhead) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.stopped = true
	r.cond.Broadcast()
	r.mu.Unlock()
	<-r.done
}
