package controller_test

import (
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/reconcile"
)

// reconcile.Pipeline is the controller's Pipeline in strata.
var _ controller.Pipeline = reconcile.Pipeline{}
