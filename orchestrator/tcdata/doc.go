// Package tcdata is the Tofu Controller's view of the data one stack hands
// another, derived from strata's contract document.
//
// The Tofu Controller writes a producer's outputs to a Secret
// (writeOutputsToSecret): a string output as its text, any other output as
// its JSON text beside a "<name>__type" key holding its type. A consumer
// reads that Secret in three ways, and this package gives each the same
// values:
//
//   - varsFrom and vars[].valueFrom hand over the Secret's data as strings
//     (SecretString): tofu converts the text of a number or a bool to a
//     number or bool variable, and a list or map is jsondecode()d from a
//     string variable, exactly as under the Tofu Controller;
//   - readInputsFromSecrets decodes each key to its type (FromSecretData,
//     or Flat for a contract) and offers the result to the values
//     template, rendered by Render with text/template and the ${{ }}
//     delimiters, as the Tofu Controller renders spec.values into
//     var.values.
//
// Rename parses the "old:new" patterns of varsKeys and
// writeOutputsToSecret.outputs. Refs lists the keys a values template reads,
// for contract-break detection.
//
// The Tofu Controller also keeps the plan an object last made in a Secret
// of its namespace, tfplan-<workspace>-<name>, that tfctl and review bots
// read: PlanSecret builds it.
package tcdata
