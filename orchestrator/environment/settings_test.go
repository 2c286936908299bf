package environment

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseSettings(t *testing.T) {
	const root = "/repo"
	tests := []struct {
		name string
		data map[string]string
		want func(s *Settings)
	}{
		{
			name: "defaults",
			data: map[string]string{},
			want: func(*Settings) {},
		},
		{
			name: "every key",
			data: map[string]string{
				InitRegion:            "eu-west-1",
				InitMaxRunners:        " 4 ",
				InitStateBackend:      "s3",
				InitStateBucket:       "acme-state",
				InitStateEndpoint:     "http://127.0.0.1:7070",
				InitContractStore:     "s3",
				InitContractPrefix:    "config/",
				InitContractRegion:    "us-east-1",
				InitContractBucket:    "acme-contracts",
				InitContractEndpoint:  "http://127.0.0.1:7071",
				InitContractPathStyle: "false",
				InitContractKMSKeyID:  "alias/contracts",
				InitProviderMirror:    "https://mirror.example:8443/",
				InitIAMAllowedModules: "module.iam, ,module.roles",
				InitKeepRuns:          "20",
				InitKeepDays:          " 0",
			},
			want: func(s *Settings) {
				s.MaxRunners = 4
				s.State = StateSettings{Backend: StateS3, Bucket: "acme-state", Region: "eu-west-1", Endpoint: "http://127.0.0.1:7070"}
				s.Contracts = ContractSettings{
					Store: ContractsS3, Prefix: "/config", Region: "us-east-1", Endpoint: "http://127.0.0.1:7071",
					Bucket: "acme-contracts", KMSKeyID: "alias/contracts", PathStyle: false,
				}
				s.ProviderMirror = "https://mirror.example:8443/"
				s.IAMAllowedModules = []string{"module.iam", "module.roles"}
				s.KeepRuns, s.KeepDays = 20, 0
			},
		},
		{
			name: "ssm store at an endpoint is path style",
			data: map[string]string{InitContractStore: "ssm", InitRegion: "eu-west-1", InitContractEndpoint: "http://127.0.0.1:5000"},
			want: func(s *Settings) {
				s.State.Region = "eu-west-1"
				s.Contracts = ContractSettings{Store: ContractsSSM, Prefix: DefaultContractPrefix, Region: "eu-west-1", Endpoint: "http://127.0.0.1:5000", PathStyle: true}
			},
		},
		{
			name: "a bad key keeps its default",
			data: map[string]string{InitMaxRunners: "0", InitStateBackend: "s3", InitContractStore: "vault", InitKeepRuns: "0", InitKeepDays: "-1"},
			want: func(*Settings) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := ParseSettings(root, "", "", tt.data)
			want := DefaultSettings(root)
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("parseSettings(%v) mismatch (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}

func TestSettingsWith(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	base := DefaultSettings("/repo")
	base.MaxRunners = 4
	base.ProviderMirror = "https://init.example/"
	tests := []struct {
		name string
		o    Overrides
		want func(s *Settings)
	}{
		{
			name: "nothing but the drift interval",
			o:    Overrides{DriftInterval: 0},
			want: func(s *Settings) { s.DriftInterval = 0 },
		},
		{
			name: "every flag",
			o: Overrides{
				StateDir: "state", MaxRunners: 2, DriftInterval: time.Minute,
				ProviderMirror: "https://flag.example/", ProviderMirrorCA: "ca.pem",
				KeepRuns: 7, KeepDays: new(0),
			},
			want: func(s *Settings) {
				s.StateDir = filepath.Join(wd, "state")
				s.MaxRunners = 2
				s.DriftInterval = time.Minute
				s.ProviderMirror = "https://flag.example/"
				s.ProviderMirrorCA = filepath.Join(wd, "ca.pem")
				s.KeepRuns, s.KeepDays = 7, 0
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := base.With(tt.o)
			if err != nil {
				t.Fatalf("With(%+v) = %v, want nil", tt.o, err)
			}
			want := base
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("With(%+v) mismatch (-want +got):\n%s", tt.o, diff)
			}
		})
	}
}

func TestContractPrefix(t *testing.T) {
	tests := []struct {
		value   string
		want    string
		wantErr bool
	}{
		{"", "/configuration", false},
		{"/configuration", "/configuration", false},
		{"configuration/", "/configuration", false},
		{"/acme/dev/contracts", "/acme/dev/contracts", false},
		{"/", "/", false},
		{"/a//b", DefaultContractPrefix, true},
		{"/configuration/../x", DefaultContractPrefix, true},
		{"./x", DefaultContractPrefix, true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := contractPrefix(tt.value)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("contractPrefix(%q) = %q, %v, want %q (error: %v)", tt.value, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// FuzzParseSettings: whatever the init keys say, the settings hold a
// runner limit of at least 1, a backend and a store strata knows and a
// prefix with one leading slash, and every rejected value is a problem.
func FuzzParseSettings(f *testing.F) {
	f.Add("10", "s3", "bucket", "ssm", "/configuration", "true")
	f.Add("0", "gcs", "", "vault", "/a/../b", "sometimes")
	f.Add("-1", "", "", "s3", "", "")
	f.Fuzz(func(t *testing.T, runners, backend, bucket, store, prefix, pathStyle string) {
		data := map[string]string{
			InitMaxRunners: runners, InitStateBackend: backend, InitStateBucket: bucket, InitRegion: "eu-west-1",
			InitContractStore: store, InitContractPrefix: prefix, InitContractPathStyle: pathStyle, InitContractBucket: bucket,
		}
		s, problems := ParseSettings("/repo", "", "", data)
		if s.MaxRunners < 1 {
			t.Errorf("parseSettings(%v).MaxRunners = %d, want at least 1", data, s.MaxRunners)
		}
		if s.State.Backend != StateLocal && s.State.Backend != StateS3 {
			t.Errorf("parseSettings(%v).State.Backend = %q", data, s.State.Backend)
		}
		if s.Contracts.Store != ContractsLocal && s.Contracts.Store != ContractsSSM && s.Contracts.Store != ContractsS3 {
			t.Errorf("parseSettings(%v).Contracts.Store = %q", data, s.Contracts.Store)
		}
		if !strings.HasPrefix(s.Contracts.Prefix, "/") || strings.Contains(s.Contracts.Prefix, "/../") {
			t.Errorf("parseSettings(%v).Contracts.Prefix = %q", data, s.Contracts.Prefix)
		}
		if s.State.Backend != strings.TrimSpace(backend) && strings.TrimSpace(backend) != "" && len(problems) == 0 {
			t.Errorf("parseSettings(%v) dropped stateBackend %q without a problem", data, backend)
		}
	})
}

func TestKeepSettingsProblems(t *testing.T) {
	tests := []struct {
		data map[string]string
		want []string
	}{
		{map[string]string{InitKeepRuns: "0"}, []string{`data.keepRuns is "0"; it must be a whole number of runs of each stack, at least 1`}},
		{map[string]string{InitKeepDays: "two weeks"}, []string{`data.keepDays is "two weeks"; it must be a whole number of days, 0 to keep by count alone`}},
		{map[string]string{InitKeepRuns: "1", InitKeepDays: "0"}, nil},
	}
	for _, tt := range tests {
		_, problems := ParseSettings("/repo", "init.yaml", "", tt.data)
		var got []string
		for _, p := range problems {
			got = append(got, p.Message)
			if !strings.Contains(p.Fix, "init.yaml") {
				t.Errorf("parseSettings(%v) fix %q does not name the file", tt.data, p.Fix)
			}
		}
		if !cmp.Equal(got, tt.want) {
			t.Errorf("parseSettings(%v) problems = %q, want %q", tt.data, got, tt.want)
		}
	}
}
