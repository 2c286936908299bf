package daemon

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Run reconciles every environment, at once and then each interval
// after the previous pass ended, or sooner when triggered, until ctx is
// done. A reconcile that runs when ctx is cancelled gets the cancelled
// context: its tofu processes are interrupted gracefully and their runs
// recorded. Run then returns nil: stopping is not an error. Run (or
// Serve, which calls it) is called once per Daemon.
func (d *Daemon) Run(ctx context.Context) error {
	for {
		d.pass(ctx)
		if ctx.Err() != nil {
			d.log.Info("reconcile loop stopped")
			return nil
		}
		select {
		case <-d.trigger:
			d.log.Info("reconcile requested while one was running: starting again")
			continue
		default:
		}
		next := d.cfg.Now().Add(d.cfg.Interval)
		d.setNext(next)
		d.log.Info(fmt.Sprintf("next reconcile in %s", d.cfg.Interval))
		timer := time.NewTimer(d.cfg.Interval)
		select {
		case <-ctx.Done():
			timer.Stop()
			d.setNext(time.Time{})
			d.log.Info("reconcile loop stopped")
			return nil
		case <-timer.C:
		case <-d.trigger:
			timer.Stop()
		}
		d.setNext(time.Time{})
	}
}

// pass reconciles every environment once, side by side, sharing the
// daemon's runners. Once ctx is done no further stack starts.
func (d *Daemon) pass(ctx context.Context) {
	var wg sync.WaitGroup
	for _, e := range d.envs {
		wg.Go(func() { d.reconcile(ctx, e) })
	}
	wg.Wait()
}

func (d *Daemon) setNext(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next = t
}
