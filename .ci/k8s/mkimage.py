#!/usr/bin/env python3
"""Build a single-layer OCI image-layout tarball for `ctr images import`.
usage: mkimage.py OUT.tar REF ENTRYPOINT_JSON FILE:PATH_IN_IMAGE[:mode] ... [LINK=TARGET ...]"""
import hashlib, io, json, sys, tarfile, time
out, ref, entry = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
def tinfo(name, **kw):
    ti = tarfile.TarInfo(name); ti.mtime = 0; ti.uid = ti.gid = 0
    for k, v in kw.items(): setattr(ti, k, v)
    return ti
lb = io.BytesIO()
with tarfile.open(fileobj=lb, mode="w", format=tarfile.PAX_FORMAT) as t:
    dirs = set()
    for spec in sys.argv[4:]:
        if "=" in spec: path, target = spec.split("=", 1); data = None
        else:
            src, path = spec.split(":")[:2]; data = open(src, "rb").read()
        parts = path.strip("/").split("/")
        for i in range(1, len(parts)):
            d = "/".join(parts[:i])
            if d not in dirs: dirs.add(d); t.addfile(tinfo(d, type=tarfile.DIRTYPE, mode=0o755))
        if data is None: t.addfile(tinfo(path.strip("/"), type=tarfile.SYMTYPE, linkname=target, mode=0o777))
        else: t.addfile(tinfo(path.strip("/"), size=len(data), mode=0o755), io.BytesIO(data))
    for d in ("tmp", "etc", "proc", "sys", "dev"):
        if d not in dirs: t.addfile(tinfo(d, type=tarfile.DIRTYPE, mode=0o1777 if d == "tmp" else 0o755))
layer = lb.getvalue(); ld = "sha256:" + hashlib.sha256(layer).hexdigest()
cfg = json.dumps({"architecture": "amd64", "os": "linux",
    "config": {"Entrypoint": entry, "Env": ["PATH=/bin:/usr/bin"], "WorkingDir": "/"},
    "rootfs": {"type": "layers", "diff_ids": [ld]}, "history": [{"created_by": "mkimage.py"}]}).encode()
cd = "sha256:" + hashlib.sha256(cfg).hexdigest()
man = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
    "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": cd, "size": len(cfg)},
    "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": ld, "size": len(layer)}]}).encode()
md = "sha256:" + hashlib.sha256(man).hexdigest()
idx = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [
    {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": md, "size": len(man),
     "platform": {"architecture": "amd64", "os": "linux"},
     "annotations": {"io.containerd.image.name": ref, "org.opencontainers.image.ref.name": ref.rsplit(":", 1)[1]}}]}).encode()
with tarfile.open(out, "w") as t:
    def add(name, data): t.addfile(tinfo(name, size=len(data), mode=0o644), io.BytesIO(data))
    add("oci-layout", b'{"imageLayoutVersion":"1.0.0"}')
    add("index.json", idx)
    for d, b in ((ld, layer), (cd, cfg), (md, man)): add("blobs/sha256/" + d[7:], b)
print(out, ref, md)
