package tofu

import "testing"

func TestCLIConfig(t *testing.T) {
	tests := []struct {
		name, url, cache, want string
	}{
		{"mirror and cache", "https://127.0.0.1:8443/", "/var/cache/strata/plugins", `plugin_cache_dir = "/var/cache/strata/plugins"

provider_installation {
  network_mirror {
    url = "https://127.0.0.1:8443/"
  }
}
`},
		{"trailing slash added", "https://mirror.example.com/providers", "", `provider_installation {
  network_mirror {
    url = "https://mirror.example.com/providers/"
  }
}
`},
		{"cache only", "", "/var/cache/strata/plugins", `plugin_cache_dir = "/var/cache/strata/plugins"
`},
		{"neither", "", "", ""},
		{"escaped path", "https://127.0.0.1:8443/", `/tmp/a "b"\c`, `plugin_cache_dir = "/tmp/a \"b\"\\c"

provider_installation {
  network_mirror {
    url = "https://127.0.0.1:8443/"
  }
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CLIConfig(tt.url, tt.cache); got != tt.want {
				t.Errorf("CLIConfig(%q, %q) = %s, want %s", tt.url, tt.cache, got, tt.want)
			}
		})
	}
}

func TestHCLString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{"tab\tnew\nline\r", `"tab\tnew\nline\r"`},
		{"bell\a", `"bell\u0007"`},
		{`C:\Users\x`, `"C:\\Users\\x"`},
		{"ünïcode", `"ünïcode"`},
	}
	for _, tt := range tests {
		if got := hclString(tt.in); got != tt.want {
			t.Errorf("hclString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
