package tofucontroller

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// reservedVolumes are the volumes of strata's runner pod, which the
// object's may not be named as.
var reservedVolumes = []string{"request", "work"}

// volumes resolves spec.runnerPodTemplate.spec.volumes and volumeMounts.
//
// Read from a cluster they go on the runner Job's pod, as the Tofu
// Controller puts them on its runner pod; only a name strata's pod
// already has is a problem.
//
// In a repository there is no pod: the files of each mounted Secret or
// ConfigMap volume (its items, or every key) are written for the run,
// readable by strata's user only, and a value of the stack's environment
// under the mount path names the run's copy (a mounted emptyDir is an
// empty directory). A volume of another kind, an init container and a
// host alias cannot be given here: each is a warning on the stack, which
// still runs. The Secret or ConfigMap is an input like any other.
func (b *builder) volumes() (files []environment.File, mounts []string) {
	tf := b.tf
	spec := tf.Spec.RunnerPodTemplate.Spec
	if b.r.FromCluster() {
		for i, v := range spec.Volumes {
			if slices.Contains(reservedVolumes, v.Name) {
				b.problem(fmt.Sprintf("spec.runnerPodTemplate.spec.volumes[%d] is named %s, as a volume of strata's runner pod is", i, v.Name),
					fmt.Sprintf("rename the volume (and its volumeMounts) in %s; strata's runner pod has volumes %s", tf.File, strings.Join(reservedVolumes, " and ")))
			}
		}
		return nil, nil
	}
	warn := func(msg string) {
		b.r.Warn(diag.Problem{File: tf.File, Object: tf.ref(), Message: msg,
			Fix: "run the stack under strata controller, whose runner Job's pod has it, or give the module what it needs another way"})
	}
	byName := map[string]Volume{}
	for _, v := range spec.Volumes {
		byName[v.Name] = v
	}
	for i, m := range spec.VolumeMounts {
		field := fmt.Sprintf("spec.runnerPodTemplate.spec.volumeMounts[%d]", i)
		v, ok := byName[m.Name]
		switch {
		case !ok:
			b.problem(fmt.Sprintf("%s mounts volume %q, which spec.runnerPodTemplate.spec.volumes does not define", field, m.Name),
				fmt.Sprintf("add the volume to spec.runnerPodTemplate.spec.volumes in %s, or remove the mount", tf.File))
			continue
		case !path.IsAbs(m.MountPath) || path.Clean(m.MountPath) == "/":
			b.problem(fmt.Sprintf("%s has mountPath %q: a volume is mounted at an absolute path below /", field, m.MountPath),
				fmt.Sprintf("set mountPath to a directory such as /etc/ssh in %s", tf.File))
			continue
		case m.SubPath != "":
			warn(fmt.Sprintf("%s mounts one path (subPath %s) of volume %s: a repository's run writes whole volumes only, so its files are not given to the stack", field, m.SubPath, m.Name))
			continue
		}
		mount := path.Clean(m.MountPath)
		var data map[string]string
		var items []KeyToPath
		switch {
		case v.Secret != nil || v.ConfigMap != nil:
			obj, kind, name, src := b.volumeObject(v)
			if obj == nil {
				if !src.Optional {
					b.r.Missing(diag.MissingInputOr(tf.File, tf.ref(), fmt.Sprintf("spec.runnerPodTemplate.spec.volumes (%s)", v.Name), kind, tf.Namespace, name,
						fmt.Sprintf("mark the volume's %s optional: true", strings.ToLower(kind[:1])+kind[1:])))
				}
				continue
			}
			if obj.Failed {
				continue
			}
			data, items = obj.Data, src.Items
		case v.EmptyDir != nil:
			mounts = append(mounts, mount)
			continue
		default:
			warn(fmt.Sprintf("%s mounts volume %s, which is neither a Secret, a ConfigMap nor an emptyDir: a repository's run cannot give it to the stack", field, v.Name))
			continue
		}
		if items == nil {
			for _, k := range slices.Sorted(maps.Keys(data)) {
				items = append(items, KeyToPath{Key: k, Path: k})
			}
		}
		for _, it := range items {
			content, ok := data[it.Key]
			rel := path.Clean(it.Path)
			if !ok || !path.IsAbs("/"+rel) || strings.HasPrefix(rel, "..") || rel == "." {
				b.problem(fmt.Sprintf("%s: volume %s has no key %q to write at %q", field, v.Name, it.Key, it.Path),
					fmt.Sprintf("name a key the volume's Secret or ConfigMap holds, at a path inside the mount, in %s", tf.File))
				continue
			}
			files = append(files, environment.File{
				Location: environment.FileVolume,
				Path:     strings.TrimPrefix(path.Join(mount, rel), "/"),
				Source:   fmt.Sprintf("volume %s key %s", v.Name, it.Key),
				Content:  []byte(content),
			})
		}
		mounts = append(mounts, mount)
	}
	if len(spec.InitContainers) > 0 {
		warn(fmt.Sprintf("spec.runnerPodTemplate.spec.initContainers (%s) prepare the runner pod, and a repository's run has none: they do not run", spec.InitContainers[0].Name))
	}
	if len(spec.HostAliases) > 0 {
		warn("spec.runnerPodTemplate.spec.hostAliases change the runner pod's name resolution, and a repository's run resolves names as this machine does: they do not apply")
	}
	slices.Sort(mounts)
	return files, slices.Compact(mounts)
}

// volumeObject is the Secret or ConfigMap a volume mounts, nil when the
// render holds none; with its kind and name, and the volume's source.
func (b *builder) volumeObject(v Volume) (obj *Object, kind, name string, src *ObjectVolume) {
	if v.Secret != nil {
		return b.r.Secret(v.Secret.SecretName), KindSecret, v.Secret.SecretName, v.Secret
	}
	return b.r.ConfigMap(v.ConfigMap.Name), KindConfigMap, v.ConfigMap.Name, v.ConfigMap
}
