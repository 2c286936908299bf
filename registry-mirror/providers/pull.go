package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
	"golang.org/x/sync/singleflight"
)

// DefaultUpstreamTimeout is how long a request to the upstream may wait
// for its answer to start when Options.UpstreamTimeout does not say.
const DefaultUpstreamTimeout = 60 * time.Second

// DefaultUpstreamTTL is how long a pull-through mirror keeps the version
// list an upstream sent, unless [Options] say otherwise.
const DefaultUpstreamTTL = time.Minute

// pullTimeout bounds one pull of a package from the upstream. A pull goes
// on when the client that asked leaves, so that the next one finds the
// package stored.
const pullTimeout = 30 * time.Minute

// puller pulls the packages of one provider hostname through from an
// upstream registry. A nil puller pulls nothing.
type puller struct {
	// hostname is the provider hostname whose providers come from the
	// upstream, e.g. registry.opentofu.org.
	hostname string
	upstream *registryClient
	// keys, when set, are the only keys a SHA256SUMS may be signed with;
	// otherwise the keys the upstream names beside the package.
	keys    *KeyRing
	ttl     time.Duration
	maxSize int64
	log     *slog.Logger

	mu           sync.Mutex
	versionLists map[string]cachedVersions // by namespace/type
	sums         map[string]verifiedSums   // by namespace/type/version
	group        singleflight.Group
}

// cachedVersions is a version list from the upstream and when it came.
type cachedVersions struct {
	list []registryVersion
	at   time.Time
}

// verifiedSums is a version's SHA256SUMS, checked against its signature:
// the sums by file name, and the ID of the key that signed it (empty when
// there was no key to check against).
type verifiedSums struct {
	sums  map[string]string
	keyID string
}

// covers reports whether p's packages come from the upstream.
func (pl *puller) covers(p Provider) bool { return pl != nil && p.Hostname == pl.hostname }

// versions returns the upstream's versions of p, with only the versions
// and platforms the mirror's layout can hold, kept for the ttl. The error
// wraps [protocol.ErrNotFound] when the upstream does not know p, [protocol.ErrUpstream]
// when it cannot say.
func (pl *puller) versions(ctx context.Context, p Provider) ([]registryVersion, error) {
	key := p.Namespace + "/" + p.Type
	pl.mu.Lock()
	c, ok := pl.versionLists[key]
	pl.mu.Unlock()
	if ok && time.Since(c.at) < pl.ttl {
		return c.list, nil
	}
	v, err, _ := pl.group.Do("versions "+key, func() (any, error) {
		list, err := pl.upstream.versions(ctx, p.Namespace, p.Type)
		if err != nil {
			return nil, err
		}
		var kept []registryVersion
		for _, v := range list {
			if protocol.CheckVersion(v.Version) != nil {
				continue
			}
			v.Platforms = slices.DeleteFunc(slices.Clone(v.Platforms), func(pl registryPlatform) bool {
				return checkPlatform(pl.OS, pl.Arch) != nil
			})
			kept = append(kept, v)
		}
		pl.mu.Lock()
		pl.versionLists[key] = cachedVersions{list: kept, at: time.Now()}
		pl.mu.Unlock()
		return kept, nil
	})
	if err != nil {
		return nil, fmt.Errorf("list versions of %s upstream: %w", p, err)
	}
	return v.([]registryVersion), nil
}

// protocols are the plugin protocols the upstream last said a version of
// p speaks; an empty list when it is not known, as for an uploaded
// package.
func (pl *puller) protocols(p Provider, version string) []string {
	if pl.covers(p) {
		pl.mu.Lock()
		c := pl.versionLists[p.Namespace+"/"+p.Type]
		pl.mu.Unlock()
		for _, v := range c.list {
			if v.Version == version && v.Protocols != nil {
				return v.Protocols
			}
		}
	}
	return []string{}
}

// upstreamArchives lists the archives of a version of p that the upstream
// has and the store does not hold (held, by platform), for a version
// index: by platform, each with its zh: hash from the upstream's signed
// SHA256SUMS when it lists the archive by its usual name. It asks the
// upstream nothing past the version list when every platform is held. The
// error wraps [protocol.ErrNotFound] when the upstream has no such version.
func (pl *puller) upstreamArchives(ctx context.Context, p Provider, version string, held map[string]Archive) (map[string]Archive, error) {
	list, err := pl.versions(ctx, p)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(list, func(v registryVersion) bool { return v.Version == version })
	if i < 0 || len(list[i].Platforms) == 0 {
		return nil, fmt.Errorf("list archives of %s %s upstream: %w", p, version, protocol.ErrNotFound)
	}
	var missing []registryPlatform
	for _, pf := range list[i].Platforms {
		if _, ok := held[Platform(pf.OS, pf.Arch)]; !ok {
			missing = append(missing, pf)
		}
	}
	out := map[string]Archive{}
	if len(missing) == 0 {
		return out, nil
	}
	sums, ok := pl.cachedSums(p, version)
	if !ok {
		meta, metaURL, err := pl.upstream.download(ctx, p.Namespace, p.Type, version, missing[0].OS, missing[0].Arch)
		if err != nil {
			return nil, fmt.Errorf("list archives of %s %s upstream: %w", p, version, err)
		}
		if sums, err = pl.verifiedSums(ctx, p, version, meta, metaURL); err != nil {
			return nil, fmt.Errorf("list archives of %s %s upstream: %w", p, version, err)
		}
	}
	for _, pf := range missing {
		name := ArchiveName(p.Type, version, pf.OS, pf.Arch)
		a := Archive{URL: name, Hashes: []string{}}
		if sum, ok := sums.sums[name]; ok {
			a.Hashes = []string{"zh:" + sum}
		}
		out[Platform(pf.OS, pf.Arch)] = a
	}
	return out, nil
}

// cachedSums returns the checked SHA256SUMS of a version of p, when it is
// kept.
func (pl *puller) cachedSums(p Provider, version string) (verifiedSums, bool) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	v, ok := pl.sums[p.Namespace+"/"+p.Type+"/"+version]
	return v, ok
}

// verifiedSums returns the SHA256SUMS of a version of p that the download
// answer meta (from metaURL) names, checked against its signature. A
// version's SHA256SUMS is kept once checked, as long as it lists meta's
// file.
func (pl *puller) verifiedSums(ctx context.Context, p Provider, version string, meta registryDownload, metaURL *url.URL) (verifiedSums, error) {
	key := p.Namespace + "/" + p.Type + "/" + version
	c, ok := pl.cachedSums(p, version)
	if _, listed := c.sums[meta.Filename]; ok && listed {
		return c, nil
	}
	sumsURL, err := pl.upstream.resolve(metaURL, "shasums_url", meta.SHASumsURL)
	if err != nil {
		return verifiedSums{}, err
	}
	sigURL, err := pl.upstream.resolve(metaURL, "shasums_signature_url", meta.SHASumsSignatureURL)
	if err != nil {
		return verifiedSums{}, err
	}
	doc, err := pl.upstream.get(ctx, sumsURL)
	if err != nil {
		return verifiedSums{}, fmt.Errorf("get SHA256SUMS: %w", notFoundIsUpstream(err))
	}
	keys, err := pl.trustedKeys(meta)
	if err != nil {
		return verifiedSums{}, err
	}
	var keyID string
	if keys != nil {
		sig, err := pl.upstream.get(ctx, sigURL)
		if err != nil {
			return verifiedSums{}, fmt.Errorf("get SHA256SUMS signature: %w", notFoundIsUpstream(err))
		}
		if keyID, err = keys.Verify(doc, sig); err != nil {
			return verifiedSums{}, fmt.Errorf("%w %s: SHA256SUMS %s: %w", protocol.ErrUpstream, pl.upstream.host, sumsURL, err)
		}
	}
	sums, err := parseSHA256Sums(doc)
	if err != nil {
		return verifiedSums{}, fmt.Errorf("%w %s: %s: %w", protocol.ErrUpstream, pl.upstream.host, sumsURL, err)
	}
	v := verifiedSums{sums: sums, keyID: keyID}
	pl.mu.Lock()
	pl.sums[key] = v
	pl.mu.Unlock()
	return v, nil
}

// trustedKeys are the keys a SHA256SUMS must be signed with: the mirror's
// own when it has some, else those the upstream names in meta. None (a
// nil ring) means the signature is not checked, as tofu does for
// registry.opentofu.org packages without keys.
func (pl *puller) trustedKeys(meta registryDownload) (*KeyRing, error) {
	if pl.keys != nil {
		return pl.keys, nil
	}
	var armored strings.Builder
	for _, k := range meta.SigningKeys.GPGPublicKeys {
		armored.WriteString(k.ASCIIArmor)
		armored.WriteString("\n")
	}
	if armored.Len() == 0 {
		return nil, nil
	}
	keys, err := ParseKeyRing([]byte(armored.String()))
	if err != nil {
		return nil, fmt.Errorf("%w %s: signing_keys: %w", protocol.ErrUpstream, pl.upstream.host, err)
	}
	return keys, nil
}

// notFoundIsUpstream turns a 404 of a file the upstream itself named
// into an upstream failure: the package exists, its checksums do not.
func notFoundIsUpstream(err error) error {
	if errors.Is(err, protocol.ErrNotFound) {
		return fmt.Errorf("%w: %w", protocol.ErrUpstream, err)
	}
	return err
}

// pull downloads archive a of p from the upstream, checks it against the
// upstream's signed SHA256SUMS, and stores it with its hashes. An
// archive that does not match is not stored: the error wraps
// [protocol.ErrUpstream] and [ErrChecksum]. Concurrent pulls of one archive share
// one download, which goes on when the client that asked leaves.
func (pl *puller) pull(ctx context.Context, store *Store, p Provider, a archive) error {
	name := ArchiveName(p.Type, a.version, a.os, a.arch)
	ch := pl.group.DoChan("pull "+providerDir(p)+"/"+name, func() (any, error) {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pullTimeout)
		defer cancel()
		return nil, pl.pullNow(pctx, store, p, a)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return fmt.Errorf("pull %s %s %s from %s: %w", p, a.version, Platform(a.os, a.arch), pl.upstream.host, res.Err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pullNow is one pull of archive a.
func (pl *puller) pullNow(ctx context.Context, store *Store, p Provider, a archive) error {
	start := time.Now()
	meta, metaURL, err := pl.upstream.download(ctx, p.Namespace, p.Type, a.version, a.os, a.arch)
	if err != nil {
		return err
	}
	if meta.OS != a.os || meta.Arch != a.arch {
		return pl.upstream.errf("%s: the answer is for %s", metaURL, Platform(meta.OS, meta.Arch))
	}
	want := strings.ToLower(meta.SHASum)
	if !isSHA256Hex(want) {
		return pl.upstream.errf("%s: shasum %q is not a SHA-256", metaURL, meta.SHASum)
	}
	sums, err := pl.verifiedSums(ctx, p, a.version, meta, metaURL)
	if err != nil {
		return err
	}
	listed, ok := sums.sums[meta.Filename]
	if !ok {
		return fmt.Errorf("%w %s: %w: the SHA256SUMS of %s lists no %s", protocol.ErrUpstream, pl.upstream.host, ErrChecksum, a.version, meta.Filename)
	}
	if listed != want {
		return fmt.Errorf("%w %s: %w: %s has SHA-256 %s in the download answer but %s in the signed SHA256SUMS",
			protocol.ErrUpstream, pl.upstream.host, ErrChecksum, meta.Filename, want, listed)
	}
	downloadURL, err := pl.upstream.resolve(metaURL, "download_url", meta.DownloadURL)
	if err != nil {
		return err
	}
	body, size, err := pl.upstream.open(ctx, downloadURL)
	if err != nil {
		return notFoundIsUpstream(err)
	}
	defer body.Close()
	if size > pl.maxSize {
		return pl.upstream.errf("%s is %d bytes, more than the mirror's limit of %d", downloadURL, size, pl.maxSize)
	}
	r := &limitedReader{r: body, left: pl.maxSize, url: downloadURL.String()}
	entry, err := store.addProviderChecked(ctx, p, a.version, a.os, a.arch, r, func(f *os.File) error {
		got, err := fileSHA256(ctx, f)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%w %s: %w: %s from %s has SHA-256 %s, but the upstream's signed SHA256SUMS lists %s; nothing was stored",
				protocol.ErrUpstream, pl.upstream.host, ErrChecksum, meta.Filename, downloadURL, got, want)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, protocol.ErrInvalid) && !errors.Is(err, protocol.ErrUpstream) {
			return fmt.Errorf("%w %s: %s is not a package tofu can install: %w", protocol.ErrUpstream, pl.upstream.host, downloadURL, err)
		}
		return err
	}
	signedBy := sums.keyID
	if signedBy == "" {
		signedBy = "(no key to check against)"
	}
	pl.log.InfoContext(ctx, "provider pulled through", "provider", p.String(), "version", a.version,
		"platform", Platform(a.os, a.arch), "upstream", pl.upstream.host, "signedBy", signedBy,
		"hashes", entry.Hashes, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// limitedReader reads at most left bytes, and fails past them.
type limitedReader struct {
	r    io.Reader
	left int64
	url  string
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, fmt.Errorf("%w: %s is larger than the mirror's limit", protocol.ErrUpstream, l.url)
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, fmt.Errorf("%w: %s is larger than the mirror's limit", protocol.ErrUpstream, l.url)
	}
	return n, err
}

// fileSHA256 is the hex SHA-256 of f, read without moving its offset.
func fileSHA256(ctx context.Context, f *os.File) (string, error) {
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, storage.ContextReader(ctx, io.NewSectionReader(f, 0, info.Size()))); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
