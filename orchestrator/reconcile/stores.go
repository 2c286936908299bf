package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/envstores"
)

// openStores opens the environment's stores for the reconcile. A damaged
// history does not stop it: it is moved aside and a new one starts,
// which the log and the report's notes say.
func (p *pass) openStores(ctx context.Context) error {
	st, notes, err := envstores.OpenOrRepair(ctx, p.log, p.env, p.Settings, p.records)
	if err != nil {
		return err
	}
	p.stores, p.notes = st, notes
	return nil
}
