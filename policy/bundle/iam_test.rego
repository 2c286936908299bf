# Unit tests of deny_iam. Run them with `strata policy test`.
package main

import rego.v1

# iam_test_plan is a plan with one resource change.
iam_test_plan(module_address, type_name, actions) := {
	"format_version": "1.2",
	"resource_changes": [iam_test_change(module_address, "managed", type_name, actions)],
}

iam_test_change(module_address, mode, type_name, actions) := change if {
	module_address == ""
	change := {
		"address": sprintf("%s.this", [type_name]),
		"mode": mode,
		"type": type_name,
		"name": "this",
		"provider_name": "registry.opentofu.org/hashicorp/aws",
		"change": {"actions": actions, "before": {}, "after": {}},
	}
}

iam_test_change(module_address, mode, type_name, actions) := change if {
	module_address != ""
	change := {
		"address": sprintf("%s.%s.this", [module_address, type_name]),
		"module_address": module_address,
		"mode": mode,
		"type": type_name,
		"name": "this",
		"provider_name": "registry.opentofu.org/hashicorp/aws",
		"change": {"actions": actions, "before": {}, "after": {}},
	}
}

test_deny_iam_create_outside_module if {
	results := deny_iam with input as iam_test_plan("", "aws_iam_role", ["create"])
	count(results) == 1
	some r in results
	r.address == "aws_iam_role.this"
	r.type == "aws_iam_role"
	startswith(r.msg, "aws_iam_role.this: creating IAM resources (aws_iam_role) outside an allowed module (data.strata.iam.allowed_modules) needs a person's approval")
}

test_deny_iam_update_in_module_not_allowed if {
	results := deny_iam with input as iam_test_plan("module.app", "aws_iam_policy", ["update"])
		with data.strata.iam.allowed_modules as ["module.iam"]
	count(results) == 1
	some r in results
	r.address == "module.app.aws_iam_policy.this"
	r.module_address == "module.app"
	contains(r.msg, "changing IAM resources")
}

test_deny_iam_delete if {
	results := deny_iam with input as iam_test_plan("module.app", "aws_iam_role_policy_attachment", ["delete"])
	count(results) == 1
	some r in results
	contains(r.msg, "deleting IAM resources")
}

test_deny_iam_replace if {
	every actions in [["delete", "create"], ["create", "delete"]] {
		results := deny_iam with input as iam_test_plan("", "aws_iam_role", actions)
		count(results) == 1
		some r in results
		contains(r.msg, "replacing IAM resources")
	}
}

test_deny_iam_inside_allowed_module if {
	every actions in [["create"], ["update"], ["delete"], ["delete", "create"]] {
		count(deny_iam) == 0 with input as iam_test_plan("module.iam", "aws_iam_role", actions)
			with data.strata.iam.allowed_modules as ["module.network", "module.iam"]
	}
}

test_deny_iam_inside_module_under_allowed_prefix if {
	every module_address in ["module.iam.module.roles", `module.iam["deploy"]`, `module.iam[0].module.x`] {
		count(deny_iam) == 0 with input as iam_test_plan(module_address, "aws_iam_policy", ["update"])
			with data.strata.iam.allowed_modules as ["module.iam"]
	}
}

test_deny_iam_module_with_longer_name_not_allowed if {
	count(deny_iam) == 1 with input as iam_test_plan("module.iam_roles", "aws_iam_role", ["create"])
		with data.strata.iam.allowed_modules as ["module.iam"]
}

test_deny_iam_root_module_never_allowed if {
	count(deny_iam) == 1 with input as iam_test_plan("", "aws_iam_role", ["create"])
		with data.strata.iam.allowed_modules as ["module.iam", ""]
}

test_deny_iam_allow_list_empty_by_default if {
	count(deny_iam) == 1 with input as iam_test_plan("module.iam", "aws_iam_role", ["create"])
}

test_deny_iam_noop_and_read_allowed if {
	plan := {"resource_changes": [
		iam_test_change("", "managed", "aws_iam_role", ["no-op"]),
		iam_test_change("", "data", "aws_iam_policy_document", ["read"]),
	]}
	count(deny_iam) == 0 with input as plan
}

test_deny_iam_other_clouds if {
	every type_name in [
		"google_project_iam_member",
		"google_storage_bucket_iam_binding",
		"google_service_account",
		"google_service_account_key",
		"azurerm_role_assignment",
		"azurerm_role_definition",
		"kubernetes_cluster_role_binding_v1",
		"aws_ssoadmin_permission_set",
	] {
		count(deny_iam) == 1 with input as iam_test_plan("", type_name, ["create"])
	}
}

test_deny_iam_ignores_other_types if {
	every type_name in ["aws_s3_bucket", "terraform_data", "google_storage_bucket", "azurerm_resource_group", "aws_kms_key"] {
		count(deny_iam) == 0 with input as iam_test_plan("", type_name, ["create"])
	}
}
