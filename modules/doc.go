// Package modules holds the HCL modules that stacks use themselves to
// publish and read contracts without strata: ssm_json_store, s3_json_store
// and ssm_json_regex. It has no Go code of its own; its tests check the
// modules with the real tofu: that they are formatted, that their READMEs
// document every variable and output, and that they write and select
// documents exactly as strata's contract stores do.
package modules
