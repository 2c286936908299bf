package oci

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/Masterminds/semver/v3"
	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	tests := []struct {
		name string
		ref  Ref
		tag  string // the tag expected; its digest is expected too
		ver  string
	}{
		{"exact version", Ref{Semver: "0.1.0"}, "0.1.0", "0.1.0"},
		{"exact version with equals", Ref{Semver: "=0.2.0"}, "0.2.0", "0.2.0"},
		{"tilde-arrow minor range", Ref{Semver: "~> 0.1"}, "0.1.0", "0.1.0"},
		{"tilde-arrow patch range", Ref{Semver: "~> 0.2.0"}, "0.2.0", "0.2.0"},
		{"tilde with prerelease floor", Ref{Semver: "~ 0.1.0-0"}, "0.1.0", "0.1.0"},
		{"open range skips prerelease", Ref{Semver: ">=0.1.0"}, "0.2.0", "0.2.0"},
		{"wildcard skips prerelease", Ref{Semver: "*"}, "0.2.0", "0.2.0"},
		{"prerelease floor allows prerelease", Ref{Semver: ">=0.2.0-0"}, "0.3.0-rc.1", "0.3.0-rc.1"},
		{"tilde prerelease", Ref{Semver: "~ 0.3.0-0"}, "0.3.0-rc.1", "0.3.0-rc.1"},
		{"caret", Ref{Semver: "^0.1.0"}, "0.1.0", "0.1.0"},
		{"tag that is a version", Ref{Tag: "0.2.0"}, "0.2.0", "0.2.0"},
		{"tag that is not a version", Ref{Tag: "main"}, "main", ""},
		{"empty ref is latest", Ref{}, "latest", ""},
		{"semver wins over tag", Ref{Semver: "0.1.0", Tag: "0.2.0"}, "0.1.0", "0.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := p.client.Resolve(ctx, p.url, tt.ref)
			if err != nil {
				t.Fatalf("Resolve(%q, %+v) = %v", p.url, tt.ref, err)
			}
			want := Resolved{URL: p.url, Tag: tt.tag, Version: tt.ver, Digest: p.digests[tt.tag]}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Resolve(%q, %+v) mismatch (-want +got):\n%s", p.url, tt.ref, diff)
			}
		})
	}

	t.Run("digest", func(t *testing.T) {
		d := p.digests["0.1.0"]
		for _, ref := range []Ref{{Digest: d}, {Digest: d, Semver: "0.2.0", Tag: "0.2.0"}} {
			got, err := p.client.Resolve(ctx, p.url, ref)
			if err != nil {
				t.Fatalf("Resolve(%q, %+v) = %v", p.url, ref, err)
			}
			if want := (Resolved{URL: p.url, Digest: d}); got != want {
				t.Errorf("Resolve(%q, %+v) = %+v, want %+v", p.url, ref, got, want)
			}
		}
	})
}

func TestResolveErrors(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	missing := "sha256:" + strings.Repeat("0", 64)
	tests := []struct {
		name     string
		url      string
		ref      Ref
		notFound bool
		want     []string
	}{
		{"missing tag", p.url, Ref{Tag: "9.9.9"}, true,
			[]string{"resolve " + p.url + ` (tag "9.9.9"): tag not found`}},
		{"no tag satisfies", p.url, Ref{Semver: "~> 9.0.0"}, true,
			[]string{"resolve " + p.url + ` (semver "~> 9.0.0"): no tag satisfies the constraint; tags: 0.1.0, 0.2.0, 0.3.0-rc.1, latest, main`}},
		{"prerelease not allowed", p.url, Ref{Semver: "~0.3.0"}, true,
			[]string{`(semver "~0.3.0"): no tag satisfies the constraint`}},
		{"missing repository", p.reg.URL("iac/nope"), Ref{Semver: "2.5.0"}, true,
			[]string{"resolve " + p.reg.URL("iac/nope") + ` (semver "2.5.0"): repository not found`}},
		{"missing digest", p.url, Ref{Digest: missing}, true,
			[]string{"resolve " + p.url + ` (digest "` + missing + `"): manifest not found`}},
		{"invalid constraint", p.url, Ref{Semver: "not a range"}, false,
			[]string{`(semver "not a range"): invalid semver constraint`}},
		{"invalid digest", p.url, Ref{Digest: "sha256:../../etc"}, false,
			[]string{`invalid digest "sha256:../../etc"`}},
		{"address with a tag", p.url + ":0.1.0", Ref{Semver: "0.1.0"}, false,
			[]string{`address must not contain a tag; remove ":0.1.0"`}},
		{"address without scheme", strings.TrimPrefix(p.url, Scheme), Ref{}, false,
			[]string{"address must look like oci://host/repository"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.client.Resolve(ctx, tt.url, tt.ref)
			if err == nil {
				t.Fatalf("Resolve(%q, %+v) = nil error, want one", tt.url, tt.ref)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Resolve(%q, %+v) = %v, want it to contain %q", tt.url, tt.ref, err, w)
				}
			}
			var nf *NotFoundError
			if got := errors.As(err, &nf); got != tt.notFound {
				t.Errorf("Resolve(%q, %+v) = %v: is *NotFoundError = %v, want %v", tt.url, tt.ref, err, got, tt.notFound)
			}
		})
	}
}

func TestResolveRegistryDown(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	p.reg.Stop()
	for _, ref := range []Ref{{Semver: "~ 0.1.0-0"}, {Tag: "0.1.0"}, {Digest: p.digests["0.1.0"]}} {
		_, err := p.client.Resolve(ctx, p.url, ref)
		if err == nil {
			t.Fatalf("Resolve(%q, %+v) with the registry stopped = nil error, want one", p.url, ref)
		}
		for _, w := range []string{"resolve " + p.url + " (" + ref.String() + ")", "registry " + p.reg.Host + " unreachable", "connection refused"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Resolve(%q, %+v) = %v, want it to contain %q", p.url, ref, err, w)
			}
		}
		var ue *UnreachableError
		if !errors.As(err, &ue) || ue.Host != p.reg.Host {
			t.Errorf("Resolve(%q, %+v) = %v, want an *UnreachableError for %s", p.url, ref, err, p.reg.Host)
		}
	}
}

func TestResolvePlainHTTPOnlyWhenAllowed(t *testing.T) {
	p := publish(t)
	strict := New(Options{CacheDir: t.TempDir()})
	_, err := strict.Resolve(context.Background(), p.url, Ref{Tag: "0.1.0"})
	var pe *PlainHTTPError
	if !errors.As(err, &pe) || pe.Host != p.reg.Host {
		t.Fatalf("Resolve(%q) without %s listed insecure = %v, want a *PlainHTTPError", p.url, p.reg.Host, err)
	}
	if !strings.Contains(err.Error(), "plain http to "+p.reg.Host+" refused") {
		t.Errorf("Resolve(%q) = %v, want it to say plain http is refused", p.url, err)
	}
}

// TestHighestMatchesFlux checks the selection rules source-controller
// applies to a tag list, without a registry.
func TestHighestMatchesFlux(t *testing.T) {
	tags := []string{"latest", "0.1.0", "0.2.0", "0.10.0", "1.0.0-rc.1", "v0.9.0", "2.5.0", "9.0.3", "9.1.0", "1.0", "sha256-abc.sig", "01.2.3"}
	tests := []struct {
		constraint string
		want       string
		ok         bool
	}{
		{"2.5.0", "2.5.0", true},
		{"~> 9.0.0", "9.0.3", true},
		{"~ 0.1.0-0", "0.1.0", true},
		{"< 1.0.0", "0.10.0", true},                 // numeric, not lexical, order; "v0.9.0" < "0.10.0"
		{">= 1.0.0-0, < 1.1.0", "1.0.0-rc.1", true}, // prerelease allowed by the floor
		{">= 0.11.0, < 1.0.0", "", false},           // "1.0" is not a full version; the rc is not allowed
		{"1.2.3", "01.2.3", true},                   // leading zeros are accepted, as Flux does
		{"~0.9", "v0.9.0", true},                    // a v prefix is a version, and the tag is returned as written
		{"^9", "9.1.0", true},
	}
	for _, tt := range tests {
		c, err := semver.NewConstraint(tt.constraint)
		if err != nil {
			t.Fatalf("NewConstraint(%q) = %v", tt.constraint, err)
		}
		got, ok := highest(c, tags)
		if got != tt.want || ok != tt.ok {
			t.Errorf("highest(%q) = %q, %v, want %q, %v", tt.constraint, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSortTags(t *testing.T) {
	in := []string{"main", "0.10.0", "latest", "0.2.0", "0.3.0-rc.1", "0.3.0"}
	want := []string{"0.2.0", "0.3.0-rc.1", "0.3.0", "0.10.0", "latest", "main"}
	if diff := cmp.Diff(want, sortTags(in)); diff != "" {
		t.Errorf("sortTags(%q) mismatch (-want +got):\n%s", in, diff)
	}
}
