package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "strata-image:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("strata-image", flag.ContinueOnError)
	var s spec
	var tag, out, push string
	var insecure bool
	fs.StringVar(&s.Strata, "strata", "", "the strata binary, built for linux/amd64 with CGO_ENABLED=0")
	fs.StringVar(&s.StrataSOPS, "strata-sops", "", "strata's SOPS helper, built as --strata is")
	fs.StringVar(&s.StrataKube, "strata-kube", "", "strata-kube (strata built with the tag kube: cluster mode), built as --strata is")
	fs.StringVar(&s.Tofu, "tofu", "", "the tofu binary")
	fs.StringVar(&s.CA, "ca", "/etc/ssl/certs/ca-certificates.crt", "a PEM bundle of certificate authorities")
	fs.StringVar(&tag, "tag", "strata.local/strata:dev", "the image's name in the tarball")
	fs.StringVar(&out, "out", "", "write the image as a tarball here (for ctr images import or docker load)")
	fs.StringVar(&push, "push", "", "push the image to this reference (registry/repository:tag)")
	fs.BoolVar(&insecure, "insecure", false, "reach the registry of --push over plain http")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if s.Strata == "" || s.StrataSOPS == "" || s.StrataKube == "" || s.Tofu == "" {
		return errors.New("--strata, --strata-sops, --strata-kube and --tofu are required")
	}
	if out == "" && push == "" {
		return errors.New("say where the image goes: --out FILE, --push REF, or both")
	}
	img, err := build(s)
	if err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return fmt.Errorf("build image: %w", err)
	}
	if out != "" {
		ref, err := name.NewTag(tag)
		if err != nil {
			return fmt.Errorf("image name %q: %w", tag, err)
		}
		if err := tarball.WriteToFile(out, ref, img); err != nil {
			return fmt.Errorf("write image %s: %w", out, err)
		}
		fmt.Fprintf(stdout, "wrote %s (%s) to %s\n", ref, digest, out)
	}
	if push != "" {
		var opts []name.Option
		if insecure {
			opts = append(opts, name.Insecure)
		}
		ref, err := name.ParseReference(push, opts...)
		if err != nil {
			return fmt.Errorf("push reference %q: %w", push, err)
		}
		if err := remote.Write(ref, img, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
			return fmt.Errorf("push image %s: %w", ref, err)
		}
		fmt.Fprintf(stdout, "pushed %s@%s\n", ref, digest)
	}
	return nil
}
