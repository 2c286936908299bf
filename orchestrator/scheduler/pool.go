package scheduler

import "sync"

// Pool is a runner limit shared by several Runs going on side by side:
// together they run at most its size of tasks at once. Runners are handed
// out in turn: a Run waiting for one queues behind the Runs already
// waiting, and a Run that got one and wants another queues again at the
// back. Every Run with a task ready therefore gets a runner in its turn,
// and none starves the others.
type Pool struct {
	size    int
	mu      sync.Mutex
	free    int
	waiting []*ticket // in turn
}

// NewPool returns a pool of size runners (at least 1).
func NewPool(size int) *Pool {
	size = max(size, 1)
	return &Pool{size: size, free: size}
}

// Size is how many tasks the pool's Runs run at once, together.
func (p *Pool) Size() int { return p.size }

// ticket is one Run's place in the queue. granted is closed when the Run
// has its runner.
type ticket struct {
	granted chan struct{}
}

// request queues for a runner; the ticket's granted channel is closed once
// the runner is the caller's, at once when one is free and nobody waits.
func (p *Pool) request() *ticket {
	t := &ticket{granted: make(chan struct{})}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.free > 0 && len(p.waiting) == 0 {
		p.free--
		close(t.granted)
		return t
	}
	p.waiting = append(p.waiting, t)
	return t
}

// withdraw gives up a ticket: it leaves the queue, or, when it was granted
// already, its runner goes back to the pool.
func (p *Pool) withdraw(t *ticket) {
	p.mu.Lock()
	for i, w := range p.waiting {
		if w == t {
			p.waiting = append(p.waiting[:i], p.waiting[i+1:]...)
			p.mu.Unlock()
			return
		}
	}
	p.mu.Unlock()
	p.release()
}

// release returns a runner: to the first Run waiting, or to the pool.
func (p *Pool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.waiting) > 0 {
		t := p.waiting[0]
		p.waiting = p.waiting[1:]
		close(t.granted)
		return
	}
	p.free++
}
