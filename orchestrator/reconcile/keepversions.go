package reconcile

import "context"

// versionSaver is a StackRunner that keeps the state versions its runs
// read (runner.Runner.SaveVersions).
type versionSaver interface {
	SaveVersions() error
}

// keepVersions writes back the state versions the runs read with their
// stats, so that the next reconcile reads no state file whose stat is
// unchanged. A failure is a warning: that reconcile reads them again.
func (p *pass) keepVersions(context.Context) error {
	if s, ok := p.runs.(versionSaver); ok {
		if err := s.SaveVersions(); err != nil {
			p.log.Warn(err.Error())
		}
	}
	return nil
}

// SaveVersions keeps the versions of the runner it selects stacks of.
func (o only) SaveVersions() error {
	if s, ok := o.StackRunner.(versionSaver); ok {
		return s.SaveVersions()
	}
	return nil
}
