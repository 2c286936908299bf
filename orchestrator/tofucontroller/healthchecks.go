package tofucontroller

import (
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// healthCheckTimeout is the Tofu Controller's timeout of a health check
// that names none.
const healthCheckTimeout = 20 * time.Second

// healthChecks reads spec.healthChecks: each a tcp check of address or an
// http check of url, templates over the stack's outputs with ${{ }}
// delimiters, as the Tofu Controller reads them. What it could not run is
// a problem of the object.
func (b *builder) healthChecks() []environment.HealthCheck {
	var out []environment.HealthCheck
	for i, hc := range b.tf.Spec.HealthChecks {
		field := fmt.Sprintf("spec.healthChecks[%d]", i)
		bad := func(msg, fix string) { b.problem(field+" "+msg, fix+" in "+b.tf.File) }
		c := environment.HealthCheck{Name: hc.Name, Type: hc.Type, Address: hc.Address, URL: hc.URL, Timeout: healthCheckTimeout}
		var target string
		switch hc.Type {
		case environment.HealthCheckTCP:
			target = "address"
			if hc.Address == "" {
				bad("is a tcp check without an address", "give it an address, host:port")
				continue
			}
		case environment.HealthCheckHTTP:
			target = "url"
			if hc.URL == "" {
				bad("is an http check without a url", "give it a url")
				continue
			}
		default:
			bad(fmt.Sprintf("has type %q; the Tofu Controller checks tcp and http", hc.Type), "set its type to tcp or http")
			continue
		}
		if hc.Name == "" {
			bad("has no name", "give it a name")
			continue
		}
		if _, err := tcdata.Template(hc.Name, c.Target()); err != nil {
			bad(fmt.Sprintf("%s is not a template: %v", target, err), "write the outputs it reads as ${{.name}}")
			continue
		}
		if hc.Timeout != "" {
			if c.Timeout = b.duration(fmt.Sprintf("healthChecks[%d].timeout", i), hc.Timeout); c.Timeout <= 0 {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}
