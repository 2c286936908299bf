# The default rule on deletes: a plan that deletes anything — a destroy, or a
# replace in either order — is held for a person's approval.
#
# The input is the plan exactly as `tofu show -json PLANFILE` prints it, so
# `conftest test plan.json --policy policy/bundle` gives the same answer.
package main

import rego.v1

# deny_delete holds every resource change whose actions contain "delete":
# ["delete"] (destroy), ["delete", "create"] and ["create", "delete"]
# (replace). Data sources are only ever read, never deleted. One replace is
# let through: of a resource tofu tainted because strata itself interrupted
# its apply in the stack's last run (input.strata.interrupted): replacing it
# finishes what that run was allowed to do.
deny_delete contains result if {
	some rc in input.resource_changes
	"delete" in rc.change.actions
	not interrupted_by_strata(rc)
	result := {
		"msg": sprintf(
			"%s: %s deletes the existing %s; deletes need a person's approval: review the plan, then approve its plan id",
			[rc.address, delete_verb(rc.change.actions), object.get(rc, "type", "resource")],
		),
		"address": rc.address,
		"type": object.get(rc, "type", ""),
		"actions": rc.change.actions,
	}
}

# delete_verb has a default so that an unforeseen list of actions still
# holds the plan, with a plainer message.
default delete_verb(_) := "changing it"

delete_verb(actions) := "destroying it" if actions == ["delete"]

delete_verb(actions) := "replacing it (delete, then create)" if actions == ["delete", "create"]

delete_verb(actions) := "replacing it (create the new one, then delete the old)" if actions == ["create", "delete"]

# interrupted_by_strata holds for the replace of a resource tainted because
# strata stopped its apply.
interrupted_by_strata(rc) if {
	rc.action_reason == "replace_because_tainted"
	rc.address in object.get(object.get(input, "strata", {}), "interrupted", [])
}
