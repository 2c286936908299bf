package flux

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/diag"
)

// decryptionSOPS is the one provider of a Flux Kustomization's
// spec.decryption.
const decryptionSOPS = "sops"

// annotationDecrypt is Flux's per-object switch for decryption
// ("disabled" turns it off).
const annotationDecrypt = "kustomize.toolkit.fluxcd.io/decrypt"

// keySources names where strata looks for keys, for fixes.
const keySources = "--sops-age-key-file FILE, $SOPS_AGE_KEY_FILE, $SOPS_AGE_KEY or ~/.config/sops/age/keys.txt"

// decrypts reports whether a Flux Kustomization (as a map, nil for the
// entry directory) asks for SOPS decryption.
func decrypts(flux map[string]any) bool {
	p, _, _ := unstructured.NestedString(flux, "spec", "decryption", "provider")
	return p == decryptionSOPS
}

// checkDecryption checks a Kustomization's spec.decryption, and reads the
// Secret of its secretRef (secretDecryptor).
func (l *loader) checkDecryption(k *kustomization) {
	d := k.Spec.Decryption
	if d == nil {
		return
	}
	if d.Provider != decryptionSOPS {
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.decryption.provider is %q; Flux decrypts with sops only", d.Provider),
			Fix:     fmt.Sprintf("set spec.decryption.provider: sops in %s", k.File),
		})
		return
	}
	if d.ServiceAccountName != "" && !l.opts.ObjectLevelWorkloadIdentity {
		l.problem(diag.Problem{
			File:    k.File,
			Object:  k.ref(),
			Message: fmt.Sprintf("spec.decryption.serviceAccountName is %s, so Flux stalls the Kustomization (FeatureGateDisabled): to use spec.decryption.serviceAccountName please enable the ObjectLevelWorkloadIdentity feature gate in the controller", d.ServiceAccountName),
			Fix:     fmt.Sprintf("enable kustomize-controller's ObjectLevelWorkloadIdentity feature gate and give strata --feature-gates ObjectLevelWorkloadIdentity=true, or remove spec.decryption.serviceAccountName from %s", k.File),
		})
	}
	l.secretDecryptor(k)
}

// decryptor returns the decryptor of what is being read: that of the
// Secret its Kustomization's spec.decryption.secretRef names, when strata
// reads that Secret, else the machine's (machineDecryptor).
func (l *loader) decryptor() *decryption.Decryptor {
	if k := l.kustomizations[l.unit]; k != nil && l.unitNS == "" {
		if d := l.secretDecryptor(k); d != nil {
			l.secretKeysAsked = true
			return d
		}
	}
	return l.machineDecryptor()
}

// secretDecryptor returns the decryptor of k's spec.decryption.secretRef,
// made on first use from the Secret as the repository, --inputs or
// --kubeconfig hold it, in k's namespace, as kustomize-controller reads
// it there: its keys alone decrypt k's objects. It is nil without a
// secretRef, and when no such Secret is found: the machine's keys then
// decrypt, and a note says so, as strata cannot tell whether the cluster
// holds the Secret.
func (l *loader) secretDecryptor(k *kustomization) *decryption.Decryptor {
	d := k.Spec.Decryption
	if d == nil || d.Provider != decryptionSOPS || d.SecretRef == nil || d.SecretRef.Name == "" {
		return nil
	}
	ns := namespaceOf(&k.object)
	key := ns + "/" + d.SecretRef.Name
	if dec, ok := l.decryptionSecrets[key]; ok {
		return dec
	}
	if l.decryptionSecrets == nil {
		l.decryptionSecrets = map[string]*decryption.Decryptor{}
	}
	// nil until the Secret is read: a Secret strata finds nowhere stays
	// nil, and is looked for once.
	l.decryptionSecrets[key] = nil
	var sec *secret
	l.within(k.unit(), "", func() { sec = l.secret(k.Group, d.SecretRef.Name) })
	name := "Secret/" + key
	if sec == nil || sec.Failed {
		l.env.Notes = append(l.env.Notes, fmt.Sprintf(
			"Kustomization %s (%s): its spec.decryption.secretRef %s is neither in the repository nor in --inputs or --kubeconfig, so strata decrypts with the age keys of %s and the gpg keyring; Flux decrypts with that Secret's keys alone, and fails the Kustomization when the cluster has no such Secret",
			k.Name(), k.File, name, keySources))
		return nil
	}
	keys, unread := decryption.KeysOfSecret(name, sec.Data)
	if len(unread) > 0 {
		l.env.Notes = append(l.env.Notes, fmt.Sprintf(
			"Kustomization %s (%s): %s holds %s, which strata does not decrypt with: it decrypts with the age (*%s) and OpenPGP (*%s) keys of the Secret",
			k.Name(), k.File, name, strings.Join(unread, ", "), decryption.SecretAgeExt, decryption.SecretPGPExt))
	}
	dec := decryption.New(l.ctx, decryption.Keys{Secret: &keys})
	l.decryptionSecrets[key] = dec
	return dec
}

// machineDecryptor returns the decryptor of the machine's keys, made on
// first use with the keys of the loader's context. It starts strata-sops
// on the first value that is encrypted; closeDecryptor ends it.
func (l *loader) machineDecryptor() *decryption.Decryptor {
	if l.dec == nil {
		l.dec = decryption.New(l.ctx, decryption.KeysFrom(l.ctx))
	}
	return l.dec
}

// closeDecryptor ends the decryptors' strata-sops, those that run: once
// the load is over, nothing is decrypted. An error of one is a note, as
// every value it was asked for has been answered.
func (l *loader) closeDecryptor() {
	decs := []*decryption.Decryptor{l.dec}
	for _, key := range slices.Sorted(maps.Keys(l.decryptionSecrets)) {
		decs = append(decs, l.decryptionSecrets[key])
	}
	for _, d := range decs {
		if d == nil {
			continue
		}
		if err := d.Close(); err != nil && l.ctx.Err() == nil && l.env != nil {
			l.env.Notes = append(l.env.Notes, fmt.Sprintf("decryption: %v", err))
		}
	}
}

// decryptObject decrypts one rendered object as kustomize-controller does
// before substitution, when the build is a Kustomization's with
// spec.decryption.provider sops (decrypt): an object sops encrypted is
// decrypted whole, and the data values of a Secret that are sops-encrypted
// files (from a secretGenerator) one by one. An object annotated
// kustomize.toolkit.fluxcd.io/decrypt: disabled is left as it is.
//
// A Secret still encrypted afterwards is a problem, as kustomize-controller
// refuses to apply it. owner is the Kustomization ("" for the entry
// directory); fsys is the build's file system, which says whether its
// secretGenerators read decrypted files.
func (l *loader) decryptObject(o *renderedObject, decrypt bool, owner string, fsys *checkedFS) *diag.Problem {
	u := unstructured.Unstructured{Object: o.Object}
	ref := u.GetKind() + "/" + u.GetName()
	isSecret := u.GetKind() == kindSecret && u.GetAPIVersion() == "v1"
	isConfigMap := u.GetKind() == kindConfigMap && u.GetAPIVersion() == "v1"
	disabled := strings.EqualFold(u.GetAnnotations()[annotationDecrypt], "disabled")
	if decrypt && !disabled {
		switch {
		case decryption.IsEncrypted(o.Object):
			m, err := l.decryptor().Object(o.Object)
			if err != nil {
				// Without the key, a Secret or a ConfigMap is read from
				// the inputs (loader.secret, loader.configMap), and an
				// object of a kind strata does not read holds nothing
				// up: Flux in the cluster decrypts it with the key it
				// holds.
				unread := !reads(u.GetAPIVersion(), u.GetKind())
				o.Failed, o.noKey = true, (isSecret || isConfigMap || unread) && lacksKey(err)
				p := decryptProblem(o.File, ref, ref, owner, err)
				if o.noKey && unread {
					p.Message += fmt.Sprintf("; strata reads nothing of a %s, so it holds up nothing here", u.GetKind())
				}
				return p
			}
			o.Object, o.res, o.Private = m, nil, true
		case isSecret && o.generated && fsys.failed:
			// A file it may be generated from could not be decrypted;
			// that problem is reported.
			o.Failed, o.noKey = true, fsys.noKey
			return nil
		case isSecret:
			if p := l.decryptData(o, ref, owner); p != nil {
				return p
			}
			if o.generated && fsys.decrypted {
				o.Private = true
			}
		}
	}
	if !isSecret || !decryption.IsEncrypted(o.Object) {
		return nil
	}
	o.Failed = true
	switch {
	case owner == "":
		return &diag.Problem{
			File:    o.File,
			Object:  ref,
			Message: fmt.Sprintf("%s is SOPS-encrypted, and no Flux Kustomization with spec.decryption brings it in: Flux refuses to apply it", ref),
			Fix:     fmt.Sprintf("move %s under the spec.path of a Flux Kustomization with spec.decryption: {provider: sops}", o.File),
		}
	case disabled && decrypt:
		return &diag.Problem{
			File:    o.File,
			Object:  ref,
			Message: fmt.Sprintf("%s is SOPS-encrypted and annotated %s: disabled, so %s does not decrypt it and Flux refuses to apply it", ref, annotationDecrypt, owner),
			Fix:     fmt.Sprintf("remove the annotation %s from %s in %s", annotationDecrypt, ref, o.File),
		}
	}
	return &diag.Problem{
		File:    o.File,
		Object:  ref,
		Message: fmt.Sprintf("%s is SOPS-encrypted, and %s has no spec.decryption: Flux refuses to apply it (configuring decryption is required)", ref, owner),
		Fix:     fmt.Sprintf("add spec.decryption: {provider: sops} to %s, or store %s unencrypted", owner, ref),
	}
}

// decryptData decrypts the data values of a Secret that are sops-encrypted
// files, each in the format its key names.
func (l *loader) decryptData(o *renderedObject, ref, owner string) *diag.Problem {
	data, _, _ := unstructured.NestedStringMap(o.Object, "data")
	changed := false
	for k, v := range data {
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			continue // the Secret's own check reports it
		}
		plain, ok, err := l.decryptor().Value(b, k)
		if err != nil {
			o.Failed, o.noKey = true, lacksKey(err)
			return decryptProblem(o.File, ref, ref+" data."+k, owner, err)
		}
		if ok {
			data[k] = base64.StdEncoding.EncodeToString(plain)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if err := unstructured.SetNestedStringMap(o.Object, data, "data"); err != nil {
		return &diag.Problem{File: o.File, Object: ref, Message: "decrypt: " + err.Error()}
	}
	o.res, o.Private = nil, true
	return nil
}

// lacksKey reports whether a decryption failed for want of a key, or of
// strata-sops, rather than for a broken file: in the cluster Flux holds
// the key, and the plain Secret exists.
func lacksKey(err error) bool {
	var ke *decryption.KeyError
	var he *decryption.HelperError
	return errors.As(err, &ke) || errors.As(err, &he)
}

// decryptProblem says why what (an object, a value or a file) could not be
// decrypted, and what gives strata the key.
func decryptProblem(file, ref, what, owner string, err error) *diag.Problem {
	p := &diag.Problem{
		File:    file,
		Object:  ref,
		Message: fmt.Sprintf("cannot decrypt %s for %s: %v", what, owner, err),
		Fix:     fmt.Sprintf("re-encrypt %s with sops", file),
	}
	var ke *decryption.KeyError
	var he *decryption.HelperError
	if errors.As(err, &he) {
		p.Fix = fmt.Sprintf("install %s beside strata (`make build` builds it into bin/ with strata), or set $%s to it",
			decryption.HelperName, decryption.EnvHelper)
	}
	if errors.As(err, &ke) {
		p.Message = fmt.Sprintf("cannot decrypt %s for %s: it is encrypted for %s, and strata has none of these keys",
			what, owner, strings.Join(ke.Recipients, ", "))
		if len(ke.Problems) > 0 {
			p.Message += " (" + strings.Join(ke.Problems, "; ") + ")"
		}
		if ke.Secret != "" {
			p.Message += fmt.Sprintf(" (it decrypts with the keys of %s alone, its spec.decryption.secretRef, as Flux does)", ke.Secret)
			p.Fix = fmt.Sprintf("add the private key of one of them to %s, as a key ending in %s (age) or %s (OpenPGP), in the repository, --inputs or the cluster of --kubeconfig; or re-encrypt %s for a key it holds (sops updatekeys %s)",
				ke.Secret, decryption.SecretAgeExt, decryption.SecretPGPExt, file, file)
			return p
		}
		p.Fix = fmt.Sprintf("give strata the private key of one of them: an age key with %s", keySources)
		if ke.HasPGP() {
			p.Fix += ", an OpenPGP key in the gpg keyring ($GNUPGHOME or ~/.gnupg)"
		}
		p.Fix += fmt.Sprintf("; or re-encrypt %s for a key strata has (sops updatekeys %s)", file, file)
	}
	return p
}

// sourceUse is how a secretGenerator reads a file: as a file source whose
// key is name, or as an env source.
type sourceUse struct {
	name string
	env  bool
}

// generatorSources lists the files that kustomize-controller decrypts
// before it builds a Kustomization with spec.decryption: the files and
// envs of every secretGenerator, and the patch files, of the
// kustomization file of dir and of every local directory it refers to as
// a resource or component. configMapGenerator sources are not decrypted.
// Paths are absolute.
func generatorSources(fsys *checkedFS, root, dir string) map[string]sourceUse {
	out := map[string]sourceUse{}
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] || !fsys.IsDir(dir) {
			return
		}
		seen[dir] = true
		var k kustypes.Kustomization
		for _, name := range kustomizeFileNames {
			p := filepath.Join(dir, name)
			if !fsys.Exists(p) {
				continue
			}
			if b, err := fsys.readRaw(p); err == nil && yaml.Unmarshal(b, &k) == nil {
				break
			}
		}
		add := func(p string, use sourceUse) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			p = filepath.Clean(p)
			if p == root || strings.HasPrefix(p, root+string(filepath.Separator)) {
				out[p] = use
			}
		}
		for _, g := range k.SecretGenerator {
			for _, f := range g.FileSources {
				key, path, ok := strings.Cut(f, "=")
				if !ok {
					path = key
				}
				add(path, sourceUse{name: key})
			}
			for _, e := range g.EnvSources {
				add(e, sourceUse{name: e, env: true})
			}
		}
		for _, p := range k.Patches {
			if p.Path != "" && !strings.Contains(p.Path, "://") {
				add(p.Path, sourceUse{name: p.Path})
			}
		}
		for _, r := range append(append([]string{}, k.Resources...), k.Components...) {
			if !strings.Contains(r, "://") && !filepath.IsAbs(r) {
				visit(filepath.Clean(filepath.Join(dir, r)))
			}
		}
	}
	visit(filepath.Clean(dir))
	return out
}

// readRaw reads a file from memory or disk, unchecked.
func (f *checkedFS) readRaw(p string) ([]byte, error) {
	if b, ok := f.virtual[filepath.Clean(p)]; ok {
		return b, nil
	}
	return f.FileSystem.ReadFile(p)
}

// decryptSource decrypts a file a secretGenerator or a patch reads, when
// the build decrypts it. A file that cannot be decrypted is a problem of
// its own, and an error for kustomize.
func (f *checkedFS) decryptSource(p string, b []byte) ([]byte, error) {
	use, ok := f.sources[filepath.Clean(p)]
	if !ok {
		return b, nil
	}
	var plain []byte
	var err error
	if use.env {
		plain, ok, err = f.l.decryptor().EnvValue(b, use.name)
	} else {
		plain, ok, err = f.l.decryptor().Value(b, use.name)
	}
	if err != nil {
		// The build goes on, so that every problem is found at once; the
		// Secrets it generates are marked failed.
		rel := f.l.relPath(p)
		dp := *decryptProblem(rel, f.owner, rel+" (read by a secretGenerator)", f.owner, err)
		if lacksKey(err) {
			f.l.warn(dp)
		} else {
			f.l.problem(dp)
		}
		f.failed, f.noKey = true, lacksKey(err)
		return b, nil
	}
	if ok {
		f.decrypted = true
		return plain, nil
	}
	return b, nil
}

// appliesEntry reports whether an object is a Flux Kustomization whose
// spec.path is the entry directory: the one that applies it.
func (l *loader) appliesEntry(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	if u.GetKind() != kindKustomization || !strings.HasPrefix(u.GetAPIVersion(), groupKustomize+"/") {
		return false
	}
	p, _, _ := unstructured.NestedString(obj, "spec", "path")
	c, ok := cleanPath(p)
	return ok && c == l.dir
}

// decryptEntry decrypts the objects of the entry directory's builds as the
// Flux Kustomization among them whose spec.path is the entry directory
// (flux-system of a bootstrap) decrypts them; without one, an encrypted
// Secret there is a problem. Files of the entry's generators are not
// decrypted.
func (l *loader) decryptEntry(built [][]renderedObject) {
	var self map[string]any
	owner := ""
	for _, objs := range built {
		for _, o := range objs {
			if l.appliesEntry(o.Object) {
				self, owner = o.Object, "Kustomization/"+(&unstructured.Unstructured{Object: o.Object}).GetName()
			}
		}
	}
	if self == nil && slices.ContainsFunc(built, func(objs []renderedObject) bool {
		return slices.ContainsFunc(objs, func(o renderedObject) bool { return decryption.IsEncrypted(o.Object) })
	}) {
		// Applied by the Kustomization a FluxInstance makes of its sync.
		if m, file := l.operatorEntry(); m != nil {
			md, _ := m["metadata"].(map[string]any)
			self, owner = m, fmt.Sprintf("Kustomization/%v (made by the Flux Operator of the sync in %s)", md["name"], file)
		}
	}
	for _, objs := range built {
		for i := range objs {
			if objs[i].decoded != nil {
				// Neither a Secret nor encrypted (predecode).
				continue
			}
			if p := l.decryptObject(&objs[i], decrypts(self), owner, &checkedFS{}); p != nil {
				if objs[i].noKey {
					// As under any Kustomization (collect).
					l.warn(*p)
				} else {
					l.problem(*p)
				}
			}
		}
	}
}
