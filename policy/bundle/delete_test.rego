# Unit tests of deny_delete. Run them with `strata policy test`.
package main

import rego.v1

# delete_test_plan is a plan with one resource change of the given actions.
delete_test_plan(actions) := {
	"format_version": "1.2",
	"resource_changes": [delete_test_change("terraform_data.release", "managed", actions)],
}

delete_test_change(address, mode, actions) := {
	"address": address,
	"mode": mode,
	"type": "terraform_data",
	"name": "release",
	"provider_name": "terraform.io/builtin/terraform",
	"change": {"actions": actions, "before": {}, "after": {}},
}

test_deny_delete_destroy if {
	results := deny_delete with input as delete_test_plan(["delete"])
	count(results) == 1
	some r in results
	r.address == "terraform_data.release"
	r.actions == ["delete"]
	startswith(r.msg, "terraform_data.release: destroying it deletes the existing terraform_data;")
	contains(r.msg, "approve its plan id")
}

test_deny_delete_replace_delete_then_create if {
	results := deny_delete with input as delete_test_plan(["delete", "create"])
	count(results) == 1
	some r in results
	r.address == "terraform_data.release"
	contains(r.msg, "replacing it (delete, then create)")
}

test_deny_delete_replace_create_then_delete if {
	results := deny_delete with input as delete_test_plan(["create", "delete"])
	count(results) == 1
	some r in results
	r.address == "terraform_data.release"
	contains(r.msg, "replacing it (create the new one, then delete the old)")
}

test_deny_delete_unforeseen_actions if {
	results := deny_delete with input as delete_test_plan(["update", "delete"])
	count(results) == 1
	some r in results
	startswith(r.msg, "terraform_data.release: changing it deletes the existing terraform_data;")
}

test_deny_delete_update_allowed if {
	count(deny_delete) == 0 with input as delete_test_plan(["update"])
}

test_deny_delete_create_allowed if {
	count(deny_delete) == 0 with input as delete_test_plan(["create"])
}

test_deny_delete_noop_and_read_allowed if {
	plan := {"resource_changes": [
		delete_test_change("terraform_data.release", "managed", ["no-op"]),
		delete_test_change("data.terraform_remote_state.network", "data", ["read"]),
	]}
	count(deny_delete) == 0 with input as plan
}

test_deny_delete_no_changes_allowed if {
	count(deny_delete) == 0 with input as {"format_version": "1.2"}
}

test_deny_delete_each_resource if {
	plan := {"resource_changes": [
		delete_test_change("terraform_data.a", "managed", ["delete"]),
		delete_test_change("module.app.terraform_data.b[0]", "managed", ["create", "delete"]),
		delete_test_change("terraform_data.c", "managed", ["update"]),
	]}
	results := deny_delete with input as plan
	{r.address | some r in results} == {"terraform_data.a", "module.app.terraform_data.b[0]"}
}

test_deny_delete_replace_of_a_resource_strata_interrupted_allowed if {
	plan := object.union(delete_test_plan(["delete", "create"]), {
		"resource_changes": [object.union(delete_test_change("terraform_data.release", "managed", ["delete", "create"]), {"action_reason": "replace_because_tainted"})],
		"strata": {"interrupted": ["terraform_data.release"]},
	})
	count(deny_delete) == 0 with input as plan
}

test_deny_delete_replace_of_a_resource_tainted_otherwise_held if {
	plan := object.union(delete_test_plan(["delete", "create"]), {
		"resource_changes": [object.union(delete_test_change("terraform_data.release", "managed", ["delete", "create"]), {"action_reason": "replace_because_tainted"})],
		"strata": {"interrupted": ["terraform_data.other"]},
	})
	count(deny_delete) == 1 with input as plan
}
