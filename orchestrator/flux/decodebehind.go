package flux

import "sync"

// decodeBehind decodes the entry directory's objects on a goroutine of
// its own while the load goes on collecting the next ones (predecode).
// In a fleet the entry directory holds a Flux Kustomization per stack,
// and decoding each (decodeAlone: its JSON, then its types) was about a
// tenth of the load's serial CPU; the load has the second CPU to spare.
//
// Nothing of an object is read before wait: its predecoded is only
// handed out, to be filled in. wait then shares, on the load's
// goroutine and in the order the objects came, what each holds that
// others hold too (stringMaps.share), which is what decodeObject would
// have done in turn. At most behindQueue objects wait to be decoded, so
// that few maps are held at once: a quarter of a part of the entry
// directory (entryPart).
type decodeBehind struct {
	jobs chan *predecoded
	done chan struct{}
	// pending counts the objects handed over and not yet decoded.
	pending sync.WaitGroup
	// added are the objects handed over since the last wait, in order.
	added []*predecoded
}

// behindQueue is how many objects may wait to be decoded.
const behindQueue = 64

// newDecodeBehind starts the goroutine; stop ends it.
func newDecodeBehind() *decodeBehind {
	b := &decodeBehind{jobs: make(chan *predecoded, behindQueue), done: make(chan struct{})}
	go b.run()
	return b
}

// run decodes each object handed over. A panic keeps the object, for
// wait to decode on the load's goroutine, where a panic is the load's
// error (readAt).
func (b *decodeBehind) run() {
	defer close(b.done)
	for pd := range b.jobs {
		func() {
			defer func() {
				if recover() != nil {
					pd.d, pd.p, pd.done = decoded{}, nil, false
				}
			}()
			pd.d, pd.p = decodeAlone(pd.file, pd.obj)
			pd.file = ""
			if pd.p != nil || pd.d.Skipped == "" {
				// Nothing reads the map again, but of a kind
				// strata does not read (registerApp).
				pd.obj = nil
			}
			pd.done = true
		}()
		b.pending.Done()
	}
}

// add hands over an object of file to decode, and returns what it will
// be decoded into once wait returns.
func (b *decodeBehind) add(file string, obj map[string]any) *predecoded {
	pd := &predecoded{file: file, obj: obj}
	b.pending.Add(1)
	b.added = append(b.added, pd)
	b.jobs <- pd
	return pd
}

// wait returns once every object handed over is decoded, each sharing
// what it holds in shared, in the order they came.
func (b *decodeBehind) wait(shared *stringMaps) {
	b.pending.Wait()
	for _, pd := range b.added {
		if !pd.done {
			// The goroutine panicked on it.
			pd.d, pd.p = decodeAlone(pd.file, pd.obj)
			pd.done = true
		}
		if pd.p == nil {
			shared.share(&pd.d)
		}
	}
	b.added = nil
}

// stop ends the goroutine, once it has decoded what it was handed.
func (b *decodeBehind) stop() {
	close(b.jobs)
	<-b.done
}
