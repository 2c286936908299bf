package tofucontroller

import (
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// webhooks reads spec.webhooks as the Tofu Controller reads them: the
// enabled ones of stage post-planning (its only stage), in order, each
// posted the plan as payloadType says (SpecAndPlan by default), passing
// when testExpression renders true or yes. It returns them with the
// object as rendered, without its status, for their payloads. What
// cannot run is a problem of the object.
func (b *builder) webhooks() ([]environment.Webhook, json.RawMessage) {
	var out []environment.Webhook
	for i, w := range b.tf.Spec.Webhooks {
		field := fmt.Sprintf("spec.webhooks[%d]", i)
		bad := func(msg, fix string) { b.problem(field+" "+msg, fix+" in "+b.tf.File) }
		if w.Enabled != nil && !*w.Enabled {
			continue
		}
		if w.Stage != "" && w.Stage != "post-planning" {
			bad(fmt.Sprintf("has stage %q; the Tofu Controller calls webhooks at post-planning only", w.Stage), "set stage to post-planning")
			continue
		}
		if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad(fmt.Sprintf("has url %q, which is not an http or https URL", w.URL), "set url to the webhook's address, https://host/path")
			continue
		}
		hook := environment.Webhook{URL: w.URL, PayloadType: w.PayloadType, TestExpression: w.TestExpression, ErrorMessageTemplate: w.ErrorMessageTemplate}
		switch hook.PayloadType {
		case "":
			hook.PayloadType = environment.PayloadSpecAndPlan
		case environment.PayloadSpecAndPlan, environment.PayloadSpecOnly, environment.PayloadPlanOnly:
		default:
			bad(fmt.Sprintf("has payloadType %q", w.PayloadType), "set payloadType to SpecAndPlan, SpecOnly or PlanOnly")
			continue
		}
		for name, text := range map[string]string{"testExpression": w.TestExpression, "errorMessageTemplate": w.ErrorMessageTemplate} {
			if _, err := tcdata.Template(name, text); err != nil {
				bad(fmt.Sprintf("%s is not a template: %v", name, err), "write what it reads of the reply as ${{ .passed }}")
			}
		}
		out = append(out, hook)
	}
	if len(out) == 0 {
		return nil, nil
	}
	obj := make(map[string]any, len(b.tf.Raw))
	for k, v := range b.tf.Raw {
		if k != "status" {
			obj[k] = v
		}
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		b.problem("spec.webhooks: the object cannot be written as JSON for their payloads: "+err.Error(), "check the object in "+b.tf.File)
		return nil, nil
	}
	return out, raw
}
