package reconcile

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// announce starts the run log: each run's lines go to a file of their own
// too, for the web view's stack page, and the first lines say what runs,
// how many at once, what is held back and what the load warned of.
func (p *pass) announce(context.Context) error {
	p.log = slog.New(slog.NewMultiHandler(p.log.Handler(), runlog.NewFiles(envstores.RunLogDir(p.stores.StateDir, p.env.Client, p.env.Name), nil)))
	p.log.Info(fmt.Sprintf("%s %s/%s: %d stacks, %s", p.op, p.env.Client, p.env.Name, len(p.env.Stacks), p.limitLine()))
	for _, b := range p.env.Blocked {
		if b.Stack == "" {
			p.log.Warn(b.String(), "kustomization", b.Kustomization)
			continue
		}
		p.log.Warn(b.String(), "stack", b.Stack)
	}
	validate.LogWarnings(p.log, p.env)
	return nil
}
