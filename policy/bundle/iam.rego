# The default rule on identity and access: creating, changing or deleting an
# IAM resource is held for a person's approval, unless the resource lives in
# a module on the allow-list data.strata.iam.allowed_modules.
package main

import rego.v1

# deny_iam holds every create, update or delete (replace included) of an IAM
# resource outside an allowed module. Reads and no-ops are never held.
deny_iam contains result if {
	some rc in input.resource_changes
	is_iam_type(rc.type)
	some action in rc.change.actions
	action in {"create", "update", "delete"}
	not iam_module_allowed(object.get(rc, "module_address", ""))
	result := {
		"msg": sprintf(
			"%s: %s IAM resources (%s) outside an allowed module (data.strata.iam.allowed_modules) needs a person's approval: review the plan, then approve its plan id, or move the resource into an allowed module",
			[rc.address, iam_verb(rc.change.actions), rc.type],
		),
		"address": rc.address,
		"type": rc.type,
		"actions": rc.change.actions,
		"module_address": object.get(rc, "module_address", ""),
	}
}

# iam_allowed_modules are module address prefixes whose IAM changes need no
# approval: "module.iam" allows module.iam, module.iam["a"] and
# module.iam.module.x, but not module.iam_roles. The root module is never on
# it. strata fills it from the bundle's data.json, the user's policy data and
# its own options; without any data (plain conftest) it is empty.
default iam_allowed_modules := []

iam_allowed_modules := data.strata.iam.allowed_modules

iam_module_allowed(module_address) if {
	module_address != ""
	some prefix in iam_allowed_modules
	module_under(module_address, prefix)
}

module_under(address, prefix) if address == prefix

module_under(address, prefix) if startswith(address, concat("", [prefix, "."]))

module_under(address, prefix) if startswith(address, concat("", [prefix, "["]))

# IAM resource types, by provider. Each line is a regular expression on the
# resource type.
iam_type_patterns := [
	# AWS: IAM itself, IAM Identity Center, and organization policies (SCPs).
	`^aws_iam_`,
	`^aws_ssoadmin_`,
	`^aws_identitystore_`,
	`^aws_organizations_policy(_attachment)?$`,
	# Google Cloud: every *_iam_member/binding/policy/audit_config/custom_role,
	# workload identity, and service accounts with their keys.
	`^google_.+_iam_`,
	`^google_iam_`,
	`^google_service_account(_key|_iam_.+)?$`,
	# Azure: role assignments and definitions, PIM, and Entra ID roles.
	`^azurerm_role_`,
	`^azurerm_pim_`,
	`^azuread_directory_role`,
	`^azuread_app_role_assignment$`,
	# Kubernetes RBAC.
	`^kubernetes_(cluster_)?role(_binding)?(_v1)?$`,
]

is_iam_type(type_name) if {
	some pattern in iam_type_patterns
	regex.match(pattern, type_name)
}

# iam_verb has a default so that an unforeseen list of actions still holds
# the plan, with a plainer message.
default iam_verb(_) := "changing"

iam_verb(actions) := "creating" if actions == ["create"]

iam_verb(actions) := "changing" if actions == ["update"]

iam_verb(actions) := "deleting" if actions == ["delete"]

iam_verb(actions) := "replacing" if {
	"create" in actions
	"delete" in actions
}
