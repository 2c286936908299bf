#!/usr/bin/env bash
# Prepares a real single-node Kubernetes (v1.36.3) for cluster-mode tests:
# Debian's etcd, containerd, runc and CNI plugins; kube-apiserver,
# controller-manager, scheduler and kubelet built from k8s.io/kubernetes;
# a pause image and a busybox image made locally; certificates and the
# configuration files. Everything lives under $STRATA_K8S_DIR (default
# ~/.cache/strata/k8s) and is built once: a second run only checks.
# Needs root (containerd, kubelet and the CNI bridge).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
K="${STRATA_K8S_DIR:-$HOME/.cache/strata/k8s}"
version="${K8S_VERSION:-v1.36.3}"
mkdir -p "$K"/{bin,images,containerd,cni/net.d,kubelet,run,log}

if [ "$(id -u)" -ne 0 ]; then
  echo "k8s setup: cluster-mode tests run a kubelet and containerd, which need root" >&2
  exit 1
fi

need=()
for c in etcd containerd runc ctr /usr/lib/cni/bridge busybox openssl conntrack iptables socat bc; do
  command -v "$c" >/dev/null 2>&1 || [ -x "$c" ] || need+=("$c")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "k8s setup: installing etcd, containerd, runc, CNI plugins and busybox from Debian (missing: ${need[*]})"
  env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    etcd-server containerd runc containernetworking-plugins busybox-static openssl conntrack iptables socat bc >/dev/null
fi

if [ ! -x "$K/bin/kubelet" ] || [ "$(cat "$K/bin/version" 2>/dev/null)" != "$version" ]; then
  echo "k8s setup: building kube-apiserver, kube-controller-manager, kube-scheduler and kubelet $version (about 5 minutes, once)"
  dir=$(GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  src=$(mktemp -d)
  trap 'chmod -R u+w "$src"; rm -rf "$src"' EXIT
  cp -r "$dir/." "$src/"
  chmod -R u+w "$src"
  (
    cd "$src"
    rm -rf vendor go.work go.work.sum
    # The staging modules are replaced by local paths in the module; use
    # their published versions instead.
    args=()
    for m in $(grep '=> ./staging' go.mod | awk '{print $1}'); do
      args+=("-dropreplace=$m" "-require=$m@${version/v1/v0}")
    done
    go mod edit "${args[@]}"
    GOWORK=off GOFLAGS=-mod=mod go build -o "$K/bin/" \
      ./cmd/kube-apiserver ./cmd/kube-controller-manager ./cmd/kube-scheduler ./cmd/kubelet
  )
  echo "$version" > "$K/bin/version"
fi

if [ ! -f "$K/images/pause.tar" ] || [ ! -f "$K/images/busybox.tar" ]; then
  echo "k8s setup: making the pause and busybox images"
  (cd "$here/pause" && CGO_ENABLED=0 GOWORK=off go build -ldflags='-s -w' -o "$K/images/pause" .)
  (cd "$K/images" &&
    python3 "$here/mkimage.py" pause.tar k8s.local/pause:1.0 '["/pause"]' pause:/pause >/dev/null &&
    python3 "$here/mkimage.py" busybox.tar k8s.local/busybox:1.0 '["/bin/sh"]' /bin/busybox:/bin/busybox \
      bin/sh=busybox bin/echo=busybox bin/sleep=busybox bin/cat=busybox bin/ls=busybox bin/hostname=busybox >/dev/null)
fi

if [ ! -f "$K/pki/admin.kubeconfig" ]; then
  echo "k8s setup: generating certificates"
  K8S="$K" "$here/gen-certs.sh" "$K/pki" >/dev/null
fi

# Configuration files, with every path written out: containerd, the kubelet
# and the CNI plugins do not expand variables.
cat > "$K/containerd/config.toml" <<CFG
version = 2
root = "$K/containerd/root"
state = "$K/containerd/state"
[grpc]
  address = "$K/run/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "k8s.local/pause:1.0"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$K/cni/net.d"
CFG
cat > "$K/cni/net.d/10-bridge.conflist" <<CFG
{
  "cniVersion": "1.0.0",
  "name": "k8s-local",
  "plugins": [
    {"type": "bridge", "bridge": "k8sbr0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.88.0.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}],
              "dataDir": "$K/cni/ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "loopback"}
  ]
}
CFG
cat > "$K/kubelet/config.yaml" <<CFG
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $K/pki/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
failSwapOn: false
failCgroupV1: false
containerRuntimeEndpoint: unix://$K/run/containerd.sock
podLogsDir: $K/kubelet/pod-logs
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
resolvConf: /etc/resolv.conf
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
syncFrequency: 10s
fileCheckFrequency: 10s
nodeStatusUpdateFrequency: 5s
CFG
echo "k8s setup: ready in $K"
