package flux

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// gitRepository is a Flux GitRepository (source.toolkit.fluxcd.io).
type gitRepository struct {
	object
	Spec struct {
		URL string `json:"url"`
		Ref *struct {
			Branch string `json:"branch"`
			Tag    string `json:"tag"`
			Semver string `json:"semver"`
			Name   string `json:"name"`
			Commit string `json:"commit"`
		} `json:"ref"`
		Ignore    *string   `json:"ignore"`
		SecretRef *namedRef `json:"secretRef"`
		Timeout   string    `json:"timeout"`
	} `json:"spec"`
}

// bucket is a Flux Bucket (source.toolkit.fluxcd.io).
type bucket struct {
	object
	Spec struct {
		Provider   string    `json:"provider"`
		BucketName string    `json:"bucketName"`
		Endpoint   string    `json:"endpoint"`
		Region     string    `json:"region"`
		Prefix     string    `json:"prefix"`
		Insecure   bool      `json:"insecure"`
		Ignore     *string   `json:"ignore"`
		SecretRef  *namedRef `json:"secretRef"`
		Timeout    string    `json:"timeout"`
	} `json:"spec"`
}

// Bucket providers strata fetches from: source-controller's generic (any
// S3 API) and aws.
const (
	bucketGeneric = "generic"
	bucketAWS     = "aws"
)

// sourceObjects are the GitRepository and Bucket objects rendered
// anywhere in the environment, in the order they were rendered.
type sourceObjects struct {
	git     []*gitRepository
	buckets []*bucket
}

// refNamespace is the namespace a reference from the object from means:
// the reference's own, else the object's.
func refNamespace(ref *sourceRef, from *object) string {
	if ref.Namespace != "" {
		return ref.Namespace
	}
	return from.Metadata.Namespace
}

// sameNamespace reports whether two namespaces can be the same: equal, or
// one of them unknown (an object rendered without metadata.namespace).
func sameNamespace(a, b string) bool { return a == "" || b == "" || a == b }

// findGitRepository finds the GitRepository a reference names (findSource).
func (l *loader) findGitRepository(ref *sourceRef, from *object) *gitRepository {
	return findSource(l.sources.git, func(g *gitRepository) *object { return &g.object }, ref, from)
}

// findBucket finds the Bucket a reference names (findSource).
func (l *loader) findBucket(ref *sourceRef, from *object) *bucket {
	return findSource(l.sources.buckets, func(b *bucket) *object { return &b.object }, ref, from)
}

// findSource finds the source a reference from the object from names: one
// of that name in the reference's namespace, first one in the same
// directory as the object, else the first found; nil when there is none.
func findSource[S any](sources []*S, obj func(*S) *object, ref *sourceRef, from *object) *S {
	ns := refNamespace(ref, from)
	var found *S
	for _, src := range sources {
		o := obj(src)
		if o.Name() != ref.Name || !sameNamespace(ns, o.Metadata.Namespace) {
			continue
		}
		if path.Dir(o.File) == path.Dir(from.File) {
			return src
		}
		if found == nil {
			found = src
		}
	}
	return found
}

// sourceCredentials reads a source's spec.secretRef from the Secrets the
// environment renders, else from the load's inputs (--inputs,
// --kubeconfig) in the source's namespace. It reports false, with a
// problem on the Terraform object, when the Secret is missing (the stack
// waits for it, as for a Secret of spec.varsFrom) or could not be
// decrypted.
func (l *loader) sourceCredentials(tf *terraform, group, kind string, src *object, ref *namedRef) (environment.Credentials, bool) {
	if ref == nil || ref.Name == "" {
		return nil, true
	}
	ns := l.namespace()
	if src.Metadata.Namespace != "" {
		ns = src.Metadata.Namespace
	}
	var sec *secret
	l.inNamespace(ns, func() { sec = l.secret(group, ref.Name) })
	if sec == nil {
		field := fmt.Sprintf("spec.secretRef of %s/%s, %s", kind, src.Name(), src.File)
		l.missing(diag.MissingInputOr(tf.File, tf.ref(), field, kindSecret, ns, ref.Name, "remove spec.secretRef from "+src.File), kindSecret, ns, ref.Name)
		return nil, false
	}
	if sec.Failed {
		// Why it could not be decrypted is a problem already.
		return nil, false
	}
	c := make(environment.Credentials, len(sec.Data))
	for k, v := range sec.Data {
		c[k] = []byte(v)
	}
	return c, true
}

// gitSource fills a stack's Source from the GitRepository its
// spec.sourceRef names, when that is not this repository.
func (l *loader) gitSource(b *built) {
	tf, s := b.tf, b.stack
	ref := tf.source()
	g := l.findGitRepository(ref, &tf.object)
	if g == nil {
		if p := l.selfElsewhere(ref, &tf.object, tf.File, tf.ref()); p != nil {
			l.problem(*p)
			return
		}
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef names %s, which is neither this repository (flux-system, a GitRepository whose spec.url is one of the checkout's remotes, or a --self-source) nor a GitRepository of this environment", ref),
			Fix:     fmt.Sprintf("define GitRepository %s in %s/ (next to the Terraform object), pass --self-source GitRepository/<namespace>/%s when it is this repository, or correct spec.sourceRef", ref.Name, path.Dir(tf.File), ref.Name),
		})
		return
	}
	s.Source.File = g.File
	s.Source.URL = g.Spec.URL
	gs := &environment.GitSource{URL: g.Spec.URL, Ignore: g.Spec.Ignore}
	if r := g.Spec.Ref; r != nil {
		gs.Branch, gs.Tag, gs.Semver, gs.RefName, gs.Commit = r.Branch, r.Tag, r.Semver, r.Name, r.Commit
	}
	s.Source.Semver, s.Source.Tag = gs.Semver, gs.Tag
	bad := func(msg, fix string) {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef names %s (%s), whose %s", ref, g.File, msg),
			Fix:     fix + " in " + g.File,
		})
	}
	switch {
	case g.Spec.URL == "":
		bad("spec.url is empty", "set spec.url to the repository's ssh:// or https:// URL")
		return
	case !gitURLScheme(g.Spec.URL):
		bad(fmt.Sprintf("spec.url %q is not an http://, https:// or ssh:// URL", g.Spec.URL), "write spec.url as ssh://git@host/org/repo or https://host/org/repo, as source-controller requires")
		return
	}
	if gs.Semver != "" && gs.Commit == "" && gs.RefName == "" && gs.Tag == "" {
		if _, err := semver.NewConstraint(gs.Semver); err != nil {
			bad(fmt.Sprintf("spec.ref.semver %q is not a semver range: %v", gs.Semver, err), "write spec.ref.semver as a range such as \">=1.0.0 <2.0.0\" or \"~1.2\"")
			return
		}
		// The rule of OCIRepository's ref.semver (checkVersions): a
		// prod environment runs one version it names, never the newest
		// tag that a range lets in.
		if l.env.Class == environment.ClassProd && !ExactSemver(gs.Semver) {
			bad(fmt.Sprintf("spec.ref.semver is %q, a range; a prod environment must pin an exact version", gs.Semver),
				fmt.Sprintf("pin spec.ref.semver to one exact version, e.g. %q, or set spec.ref.tag or spec.ref.commit", exampleVersion(gs.Semver)))
			return
		}
	}
	if c := gs.Commit; c != "" && !isHex(c) {
		bad(fmt.Sprintf("spec.ref.commit %q is not a commit SHA", c), "write spec.ref.commit as the full hexadecimal SHA of a commit")
		return
	}
	if !l.sourceTimeout(b, &g.object, g.Spec.Timeout) {
		return
	}
	if sr := g.Spec.SecretRef; sr != nil {
		gs.SecretRef = sr.Name
	}
	creds, ok := l.sourceCredentials(tf, b.k.Group, environment.SourceGitRepository, &g.object, g.Spec.SecretRef)
	if !ok {
		return
	}
	gs.Credentials = creds
	s.Source.Git = gs
}

// bucketSource fills a stack's Source from the Bucket its spec.sourceRef
// names.
func (l *loader) bucketSource(b *built) {
	tf, s := b.tf, b.stack
	ref := tf.source()
	bk := l.findBucket(ref, &tf.object)
	if bk == nil {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef names %s, which does not exist", ref),
			Fix:     fmt.Sprintf("define Bucket %s in %s/ (next to the Terraform object) or correct spec.sourceRef.name", ref.Name, path.Dir(tf.File)),
		})
		return
	}
	s.Source.File = bk.File
	bs := &environment.BucketSource{
		Provider:   bk.Spec.Provider,
		BucketName: bk.Spec.BucketName,
		Endpoint:   bk.Spec.Endpoint,
		Region:     bk.Spec.Region,
		Prefix:     bk.Spec.Prefix,
		Insecure:   bk.Spec.Insecure,
		Ignore:     bk.Spec.Ignore,
	}
	if bs.Provider == "" {
		bs.Provider = bucketGeneric
	}
	bad := func(msg, fix string) {
		l.problem(diag.Problem{
			File:    tf.File,
			Object:  tf.ref(),
			Message: fmt.Sprintf("spec.sourceRef names %s (%s), whose %s", ref, bk.File, msg),
			Fix:     fix + " in " + bk.File,
		})
	}
	switch {
	case bs.Provider != bucketGeneric && bs.Provider != bucketAWS:
		bad(fmt.Sprintf("spec.provider is %q, which strata does not fetch from", bs.Provider), "use provider generic (any S3 API) or aws, or publish the code as an OCI artefact")
		return
	case bs.BucketName == "":
		bad("spec.bucketName is empty", "set spec.bucketName")
		return
	case bs.Endpoint == "":
		bad("spec.endpoint is empty", "set spec.endpoint to the S3 API's host, e.g. s3.amazonaws.com or minio.example.com:9000")
		return
	case strings.Contains(bs.Endpoint, "://"):
		bad(fmt.Sprintf("spec.endpoint %q has a scheme", bs.Endpoint), "write spec.endpoint as host[:port] and set spec.insecure: true for plain http")
		return
	}
	if !l.sourceTimeout(b, &bk.object, bk.Spec.Timeout) {
		return
	}
	if sr := bk.Spec.SecretRef; sr != nil {
		bs.SecretRef = sr.Name
	}
	creds, ok := l.sourceCredentials(tf, b.k.Group, environment.SourceBucket, &bk.object, bk.Spec.SecretRef)
	if !ok {
		return
	}
	if creds != nil && (len(creds["accesskey"]) == 0 || len(creds["secretkey"]) == 0) {
		bad(fmt.Sprintf("spec.secretRef Secret %q has no accesskey and secretkey", bs.SecretRef), "give the Secret both keys accesskey and secretkey, as source-controller reads them")
		return
	}
	bs.Credentials = creds
	s.Source.Bucket = bs
}

// gitURLScheme reports whether a GitRepository URL has a scheme
// source-controller clones.
func gitURLScheme(u string) bool {
	for _, p := range []string{"http://", "https://", "ssh://"} {
		if strings.HasPrefix(strings.ToLower(u), p) {
			return true
		}
	}
	return false
}

// isHex reports whether s is a hexadecimal string of 7 to 64 digits.
func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// fluxDuration is the pattern of the durations of Flux's API, as its CRDs
// validate them: spec.timeout, spec.interval.
var fluxDuration = regexp.MustCompile(`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`)

// sourceTimeout reads a source's spec.timeout into the stack's Source:
// how long one fetch may take (DefaultSourceTimeout when unset). It
// reports false, with a problem, when the value is not a duration.
func (l *loader) sourceTimeout(b *built, src *object, raw string) bool {
	if raw == "" {
		return true
	}
	d, err := time.ParseDuration(raw)
	if err != nil || !fluxDuration.MatchString(raw) || d <= 0 {
		l.problem(diag.Problem{
			File:    src.File,
			Object:  src.ref(),
			Message: fmt.Sprintf("spec.timeout %q is not a duration (stack %s reads this source)", raw, b.stack.Name),
			Fix:     fmt.Sprintf("write spec.timeout as a Go duration such as 60s or 5m in %s, or remove it for source-controller's 60s", src.File),
		})
		return false
	}
	b.stack.Source.Timeout = d
	return true
}
