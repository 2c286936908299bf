// Package tofufiles names the files OpenTofu reads a module from, as tofu
// names them: .tf and .tofu in its native syntax, .tf.json and .tofu.json
// in its JSON syntax. A .tofu or .tofu.json file stands in for the .tf or
// .tf.json file of the same name, which tofu then leaves out; hidden and
// editor backup files are not read at all.
package tofufiles
