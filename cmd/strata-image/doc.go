// Command strata-image builds strata's container image without Docker:
// the strata, strata-sops and strata-kube (beside strata) and tofu binaries, the build machine's CA certificates and a
// non-root user, as one layer on an empty base. It writes the image as a
// tarball that `ctr images import` and `docker load` read, and can push it
// to a registry.
//
//	strata-image --strata bin/strata-linux --strata-sops bin/strata-sops-linux --strata-kube bin/strata-kube-linux --tofu bin/tofu --tag strata.local/strata:dev --out bin/strata-image.tar
//	strata-image ... --push 127.0.0.1:5000/strata:dev --insecure
package main
