package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestVolumes: a repository's run writes the runner pod's Secret and
// ConfigMap volumes itself, names their mount paths, and warns of what it
// cannot give; read from a cluster, the volumes stay on the pod, and only
// a name of strata's own pod's volumes is a problem.
func TestVolumes(t *testing.T) {
	file := func(path, source, content string) environment.File {
		return environment.File{Location: environment.FileVolume, Path: path, Source: source, Content: []byte(content)}
	}
	tests := []struct {
		name     string
		spec     string
		cluster  bool
		want     []environment.File
		mounts   []string
		problems []string
		warnings []string
	}{
		{
			name: "a Secret's keys, a ConfigMap's items, an emptyDir",
			spec: `  runnerPodTemplate:
    spec:
      volumes:
      - {name: creds, secret: {secretName: creds}}
      - {name: conf, configMap: {name: cm, items: [{key: region, path: aws/region}]}}
      - {name: scratch, emptyDir: {}}
      volumeMounts:
      - {name: creds, mountPath: /etc/creds/}
      - {name: conf, mountPath: /etc/conf}
      - {name: scratch, mountPath: /scratch}`,
			want: []environment.File{
				file("etc/creds/access_key", "volume creds key access_key", "AK"),
				file("etc/creds/secret_key", "volume creds key secret_key", "SK"),
				file("etc/conf/aws/region", "volume conf key region", "us-east-1"),
			},
			mounts: []string{"/etc/conf", "/etc/creds", "/scratch"},
		},
		{
			name: "what a repository cannot give: warnings",
			spec: `  runnerPodTemplate:
    spec:
      volumes:
      - {name: data, persistentVolumeClaim: {claimName: data}}
      - {name: creds, secret: {secretName: creds}}
      volumeMounts:
      - {name: data, mountPath: /data}
      - {name: creds, mountPath: /etc/k, subPath: access_key}
      initContainers: [{name: wait, image: busybox}]
      hostAliases: [{ip: 10.0.0.1, hostnames: [vault]}]`,
			warnings: []string{
				"spec.runnerPodTemplate.spec.volumeMounts[0] mounts volume data, which is neither a Secret, a ConfigMap nor an emptyDir: a repository's run cannot give it to the stack",
				"spec.runnerPodTemplate.spec.volumeMounts[1] mounts one path (subPath access_key) of volume creds: a repository's run writes whole volumes only, so its files are not given to the stack",
				"spec.runnerPodTemplate.spec.initContainers (wait) prepare the runner pod, and a repository's run has none: they do not run",
				"spec.runnerPodTemplate.spec.hostAliases change the runner pod's name resolution, and a repository's run resolves names as this machine does: they do not apply",
			},
		},
		{
			name: "problems",
			spec: `  runnerPodTemplate:
    spec:
      volumes:
      - {name: creds, secret: {secretName: creds, items: [{key: token, path: t}]}}
      - {name: gone, secret: {secretName: gone}}
      - {name: maybe, configMap: {name: maybe, optional: true}}
      volumeMounts:
      - {name: nope, mountPath: /x}
      - {name: creds, mountPath: relative}
      - {name: creds, mountPath: /etc/creds}
      - {name: gone, mountPath: /etc/gone}
      - {name: maybe, mountPath: /etc/maybe}`,
			mounts: []string{"/etc/creds"},
			problems: []string{
				`spec.runnerPodTemplate.spec.volumeMounts[0] mounts volume "nope", which spec.runnerPodTemplate.spec.volumes does not define`,
				`spec.runnerPodTemplate.spec.volumeMounts[1] has mountPath "relative": a volume is mounted at an absolute path below /`,
				`spec.runnerPodTemplate.spec.volumeMounts[2]: volume creds has no key "token" to write at "t"`,
				"waiting for input Secret/flux-system/gone (spec.runnerPodTemplate.spec.volumes (gone)): it is not in the repository; give it with --inputs or --kubeconfig",
			},
		},
		{
			name:    "read from a cluster, they stay on the pod",
			spec:    "  runnerPodTemplate:\n    spec:\n      volumes: [{name: creds, secret: {secretName: creds}}]\n      volumeMounts: [{name: creds, mountPath: /etc/creds}]\n      initContainers: [{name: wait}]",
			cluster: true,
		},
		{
			name:     "read from a cluster, a name of strata's runner pod",
			spec:     "  runnerPodTemplate:\n    spec:\n      volumes: [{name: work, emptyDir: {}}]",
			cluster:  true,
			problems: []string{"spec.runnerPodTemplate.spec.volumes[0] is named work, as a volume of strata's runner pod is"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			r.cluster = tt.cluster
			files, mounts := b.volumes()
			if diff := cmp.Diff(tt.want, files); diff != "" {
				t.Errorf("volumes(%s) files diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.mounts, mounts); diff != "" {
				t.Errorf("volumes(%s) mounts diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("volumes(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
			var warnings []string
			for _, w := range r.warnings {
				warnings = append(warnings, w.Message)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("volumes(%s) warnings diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
