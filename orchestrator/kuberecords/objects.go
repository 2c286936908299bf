package kuberecords

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	"github.com/strata-iac/strata/orchestrator/records"
)

// objects are the records' objects in a namespace (records.Objects): runs
// and the claims as ConfigMaps, held plans and their parts and kept
// artifacts as Secrets.
// An object's version is its resourceVersion.
type objects struct {
	client    kubernetes.Interface
	namespace string
	writer    string
}

// Location is where the records are: the namespace.
func (o *objects) Location() string { return "namespace " + o.namespace }

// Name is the object's kind, namespace and name.
func (o *objects) Name(k records.Key) string {
	kind := "ConfigMap"
	if secret(k) {
		kind = "Secret"
	}
	return kind + " " + o.namespace + "/" + objectName(k)
}

// PartBytes keeps a held plan's parts well under the API server's 1 MiB
// per object.
func (o *objects) PartBytes() int { return partBytes }

// Read reads an object and its resourceVersion.
func (o *objects) Read(ctx context.Context, k records.Key) ([]byte, string, error) {
	var (
		data []byte
		meta metav1.ObjectMeta
		err  error
	)
	if secret(k) {
		var sec *corev1.Secret
		if sec, err = o.client.CoreV1().Secrets(o.namespace).Get(ctx, objectName(k), metav1.GetOptions{}); err == nil {
			meta = sec.ObjectMeta
			data, err = fromSecret(k, sec.Data)
		}
	} else {
		var cm *corev1.ConfigMap
		if cm, err = o.client.CoreV1().ConfigMaps(o.namespace).Get(ctx, objectName(k), metav1.GetOptions{}); err == nil {
			meta = cm.ObjectMeta
			data = []byte(cm.Data[dataKey(k)])
		}
	}
	if apierrors.IsNotFound(err) {
		err = records.ErrNotFound
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", o.Name(k), err)
	}
	return data, meta.ResourceVersion, nil
}

// Create creates an object; one that exists is records.ErrChanged.
func (o *objects) Create(ctx context.Context, k records.Key, data []byte) error {
	err := o.create(ctx, k, data)
	if apierrors.IsAlreadyExists(err) {
		err = records.ErrChanged
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", o.Name(k), err)
	}
	return nil
}

func (o *objects) create(ctx context.Context, k records.Key, data []byte) error {
	meta := o.meta(k)
	if !secret(k) {
		cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{dataKey(k): string(data)}}
		_, err := o.client.CoreV1().ConfigMaps(o.namespace).Create(ctx, cm, metav1.CreateOptions{})
		return err
	}
	d, err := toSecret(k, data)
	if err != nil {
		return err
	}
	sec := &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeOpaque, Data: d}
	_, err = o.client.CoreV1().Secrets(o.namespace).Create(ctx, sec, metav1.CreateOptions{})
	return err
}

// maxAnyTries bounds how often a write of records.Any tries again when
// another writer changed, created or deleted the object in between.
const maxAnyTries = 5

// Write replaces an object's data, if its resourceVersion is still
// version: it reads the object for the labels and annotations it was
// created with (who began a run), which it keeps, and updates it naming
// version, which the API server refuses when the object changed. A
// version that is not the object's, a conflict, or an object gone, is
// records.ErrChanged. With records.Any it writes over whatever is there,
// or creates the object.
func (o *objects) Write(ctx context.Context, k records.Key, data []byte, version string) error {
	if version != records.Any {
		err := o.update(ctx, k, data, version)
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			err = records.ErrChanged
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", o.Name(k), err)
		}
		return nil
	}
	for range maxAnyTries {
		err := o.update(ctx, k, data, version)
		if apierrors.IsNotFound(err) {
			err = o.create(ctx, k, data)
		}
		if apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", o.Name(k), err)
		}
		return nil
	}
	return fmt.Errorf("write %s: other writers changed it %d times in a row; try again", o.Name(k), maxAnyTries)
}

// update replaces an object's data over version, or over the version it
// reads when version is records.Any; records.ErrChanged when it reads
// another version.
func (o *objects) update(ctx context.Context, k records.Key, data []byte, version string) error {
	over := func(cur string) (string, error) {
		if version == records.Any {
			return cur, nil
		}
		if cur != version {
			return "", records.ErrChanged
		}
		return version, nil
	}
	if !secret(k) {
		cms := o.client.CoreV1().ConfigMaps(o.namespace)
		cm, err := cms.Get(ctx, objectName(k), metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cm.ResourceVersion, err = over(cm.ResourceVersion); err != nil {
			return err
		}
		cm.Data = map[string]string{dataKey(k): string(data)}
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	}
	d, err := toSecret(k, data)
	if err != nil {
		return err
	}
	secrets := o.client.CoreV1().Secrets(o.namespace)
	sec, err := secrets.Get(ctx, objectName(k), metav1.GetOptions{})
	if err != nil {
		return err
	}
	if sec.ResourceVersion, err = over(sec.ResourceVersion); err != nil {
		return err
	}
	sec.Data = d
	_, err = secrets.Update(ctx, sec, metav1.UpdateOptions{})
	return err
}

// Delete deletes an object; one already gone is no error.
func (o *objects) Delete(ctx context.Context, k records.Key) error {
	var err error
	if secret(k) {
		err = o.client.CoreV1().Secrets(o.namespace).Delete(ctx, objectName(k), metav1.DeleteOptions{})
	} else {
		err = o.client.CoreV1().ConfigMaps(o.namespace).Delete(ctx, objectName(k), metav1.DeleteOptions{})
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete %s: %w", o.Name(k), err)
	}
	return nil
}

// List lists the objects by the labels that select the prefix (hashes,
// which any name gives), with their data: one request to the API server,
// never a cache.
func (o *objects) List(ctx context.Context, prefix records.Key) ([]records.Entry, error) {
	sel, err := selector(prefix)
	if err != nil {
		return nil, err
	}
	opts := metav1.ListOptions{LabelSelector: k8slabels.SelectorFromSet(sel).String()}
	var out []records.Entry
	if secret(prefix) {
		list, err := o.client.CoreV1().Secrets(o.namespace).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list Secrets %s in %s: %w", opts.LabelSelector, o.namespace, err)
		}
		for _, sec := range list.Items {
			k, ok := parseName(prefix, sec.ObjectMeta)
			if !ok {
				continue
			}
			data, err := fromSecret(k, sec.Data)
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", o.Name(k), err)
			}
			out = append(out, records.Entry{Key: k, Data: data, Version: sec.ResourceVersion})
		}
		return out, nil
	}
	list, err := o.client.CoreV1().ConfigMaps(o.namespace).List(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("list ConfigMaps %s in %s: %w", opts.LabelSelector, o.namespace, err)
	}
	for _, cm := range list.Items {
		if k, ok := parseName(prefix, cm.ObjectMeta); ok {
			out = append(out, records.Entry{Key: k, Data: []byte(cm.Data[dataKey(k)]), Version: cm.ResourceVersion})
		}
	}
	return out, nil
}

// selector is the labels that select the objects of a listing.
func selector(prefix records.Key) (map[string]string, error) {
	switch {
	case prefix.Kind == records.Run && prefix.Stack == "":
		return map[string]string{labelRecord: recordRun, labelEnvHash: envHash(prefix.Client, prefix.Env)}, nil
	case prefix.Kind == records.Run:
		return map[string]string{labelRecord: recordRun, labelStackHash: stackHash(prefix.Client, prefix.Env, prefix.Stack)}, nil
	case prefix.Kind == records.Plan:
		return map[string]string{labelRecord: recordPlan, labelStackHash: stackHash(prefix.Client, prefix.Env, prefix.Stack)}, nil
	case prefix.Kind == records.PlanFile:
		return map[string]string{labelPart: hash(objectName(withKind(prefix, records.Plan)))}, nil
	case prefix.Kind == records.Artifact:
		return map[string]string{labelRecord: recordKept, labelStackHash: stackHash(prefix.Client, prefix.Env, prefix.Stack)}, nil
	}
	return nil, fmt.Errorf("records of kind %d are not listed", prefix.Kind)
}

// parseName reads the key of an object a listing of prefix found: the
// names its annotations keep exactly, the number or id its name holds;
// false for an object that is none of the listing's.
func parseName(prefix records.Key, meta metav1.ObjectMeta) (records.Key, bool) {
	k := prefix
	a := meta.Annotations
	switch prefix.Kind {
	case records.Run:
		k.Client, k.Env, k.Stack = a[annClient], a[annEnv], a[annStack]
		n, err := strconv.Atoi(meta.Name[strings.LastIndex(meta.Name, "-")+1:])
		k.Number = n
		return k, err == nil && n > 0 && meta.Name == objectName(k)
	case records.Plan:
		id, ok := strings.CutPrefix(meta.Name, objectName(withKind(prefix, records.Plan)))
		k.Plan = id
		return k, ok
	case records.PlanFile:
		file, ok := strings.CutPrefix(meta.Name, objectName(withKind(prefix, records.Plan))+"-")
		k.File = file
		return k, ok
	case records.Artifact:
		k.Client, k.Env, k.Stack, k.File = a[annClient], a[annEnv], a[annStack], a[annDigest]
		n, err := strconv.Atoi(meta.Name[strings.LastIndex(meta.Name, "-")+1:])
		k.Number = n
		return k, err == nil && meta.Name == objectName(k)
	}
	return k, false
}

// withKind is k as a key of kind.
func withKind(k records.Key, kind records.Kind) records.Key {
	k.Kind = kind
	return k
}

// secret reports whether k's object is a Secret (held plans: plans can
// hold private values; kept artifacts: code can too) rather than a
// ConfigMap.
func secret(k records.Key) bool {
	return k.Kind == records.Plan || k.Kind == records.PlanFile || k.Kind == records.Artifact
}

// dataKey is the data key of a ConfigMap's record, or of a part's bytes.
func dataKey(k records.Key) string {
	switch k.Kind {
	case records.Run:
		return runKey
	case records.Claims:
		return claimsKey
	}
	return partKey
}

// toSecret is the data of a held plan's Secret: each field of its
// record, a JSON object, under <field>.json (held.json, approval.json,
// payload.json), as kubectl shows them; or a part's bytes under "part".
func toSecret(k records.Key, data []byte) (map[string][]byte, error) {
	if k.Kind != records.Plan {
		return map[string][]byte{partKey: data}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("encode %s: %w", objectName(k), err)
	}
	out := make(map[string][]byte, len(fields))
	for f, v := range fields {
		out[f+".json"] = v
	}
	return out, nil
}

// fromSecret is the record or part a Secret's data keeps.
func fromSecret(k records.Key, data map[string][]byte) ([]byte, error) {
	if k.Kind != records.Plan {
		return data[partKey], nil
	}
	fields := map[string]json.RawMessage{}
	for key, v := range data {
		if f, ok := strings.CutSuffix(key, ".json"); ok {
			fields[f] = v
		}
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", objectName(k), err)
	}
	return b, nil
}
