package tofu

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Init runs `tofu init` in the workspace. The backend is reconfigured, so a
// changed backend configuration never stops to ask about migrating state;
// a cloud block (Options.Cloud) takes its changes without being asked.
//
// Options.BackendConfig reach init as -backend-config=key=value, as the
// Tofu Controller passes them, so tofu reads each value as it reads one
// on its command line. They go through TF_CLI_ARGS_init, tofu's own way to
// add flags to init, rather than the command line: a process's command
// line is open to every user of the machine, its environment to its own
// user only; no other command of the run sees them.
func (w *Workspace) Init(ctx context.Context, events func(Event)) error {
	args := []string{"init", "-no-color", "-input=false", "-backend=true", "-get=true", "-upgrade=false", "-reconfigure", "-json"}
	if w.cloud {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "-reconfigure" })
	}
	var extra map[string]string
	if len(w.backendConfig) > 0 {
		flags := make([]string, 0, len(w.backendConfig))
		for _, kv := range w.backendConfig {
			flags = append(flags, shellQuote("-backend-config="+kv))
		}
		extra = map[string]string{"TF_CLI_ARGS_init": strings.Join(flags, " ")}
	}
	ew := newEventWriter(events)
	if code, err := w.commandEnv(ctx, ew, extra, args...); code != 0 {
		return fmt.Errorf("tofu init: %w", ew.wrap(err))
	}
	return ew.wrap(nil)
}

// shellQuote quotes s as one word for the shell-like splitting tofu
// applies to TF_CLI_ARGS_init: inside single quotes everything is kept as
// it is, and a single quote is written as a closing quote, an escaped
// quote and an opening quote.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
