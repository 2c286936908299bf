package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/decryption/sopsfile"
)

const usage = `strata-sops decrypts SOPS-encrypted values (age and OpenPGP keys) for strata.
strata runs it when a render decrypts; it is not meant to be run by hand.
Install it beside the strata binary (make build builds it with strata), or set $STRATA_SOPS to it.

Usage:
  strata-sops [--age-key-file FILE | --secret-keys SECRET]
                                        answer strata's requests, one JSON line each, on stdin/stdout
  strata-sops check-age-key-file FILE   exit 0 when FILE holds an age identity, else say why and exit 1

Flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is strata-sops with args: it serves requests from stdin, or checks
// a key file, and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata-sops", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	var keys decryption.Keys
	var secret string
	fs.StringVar(&secret, "secret-keys", "", "decrypt with the keys of this Secret alone (a Flux Kustomization's spec.decryption.secretRef), which strata passes as $SOPS_AGE_KEY and $GNUPGHOME")
	fs.StringVar(&keys.AgeKeyFile, "age-key-file", "", "a file of age identities, read before $SOPS_AGE_KEY_FILE, $SOPS_AGE_KEY and ~/.config/sops/age/keys.txt (strata's --sops-age-key-file)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return 0
		}
		fmt.Fprintln(stderr, "strata-sops:", err)
		printUsage(stderr)
		return 2
	}
	if secret != "" {
		keys.Secret = &decryption.SecretKeys{Name: secret}
	}
	switch rest := fs.Args(); {
	case len(rest) == 2 && rest[0] == "check-age-key-file":
		if err := sopsfile.CheckAgeKeyFile(rest[1]); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	case len(rest) > 0:
		fmt.Fprintf(stderr, "strata-sops: unexpected arguments %q\n", rest)
		printUsage(stderr)
		return 2
	}
	if err := sopsfile.Serve(stdin, stdout, keys); err != nil {
		fmt.Fprintln(stderr, "strata-sops:", err)
		return 1
	}
	return 0
}
