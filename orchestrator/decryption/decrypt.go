package decryption

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Decryptor decrypts SOPS-encrypted objects and values with the keys of
// one Keys, through one strata-sops process that it starts on first use
// and reuses for every value. It is safe for concurrent use; Close ends
// the process, and so does the end of the context it was made with.
type Decryptor struct {
	ctx  context.Context
	keys Keys

	mu sync.Mutex
	// h is the running helper; nil before first use and after Close.
	h *helper
	// err is why the helper cannot run (not found, exited); once set,
	// every decryption fails with it.
	err    error
	closed bool
}

// helper is one running strata-sops.
type helper struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Scanner
	stderr *tail
	// gnupgHome is the gpg home the keys of a Secret were imported into,
	// or "".
	gnupgHome string
}

// New returns a Decryptor for keys. It starts strata-sops, with ctx, only
// when a value must be decrypted.
func New(ctx context.Context, keys Keys) *Decryptor { return &Decryptor{ctx: ctx, keys: keys} }

// Object decrypts a SOPS-encrypted object and returns it without its sops
// metadata.
func (d *Decryptor) Object(obj map[string]any) (map[string]any, error) {
	in, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out, _, err := d.call(Request{Kind: KindObject, Data: in})
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("decode decrypted object: %w", err)
	}
	return m, nil
}

// Value decrypts a value that is a sops-encrypted file, named name (a file
// name or a Secret's data key): the result is in the format the name
// implies, as kustomize-controller writes it (.yaml, .json or
// .dockerconfigjson, .env, .ini; else binary, the file's content). A value
// that is not encrypted comes back as it is, with false, and starts no
// process.
func (d *Decryptor) Value(b []byte, name string) ([]byte, bool, error) {
	if !Encrypted(b) {
		return b, false, nil
	}
	return d.call(Request{Kind: KindValue, Name: name, Data: b})
}

// EnvValue decrypts a sops-encrypted env file (a secretGenerator's envs
// entry): dotenv unless its name says another format.
func (d *Decryptor) EnvValue(b []byte, name string) ([]byte, bool, error) {
	if !Encrypted(b) {
		return b, false, nil
	}
	return d.call(Request{Kind: KindEnv, Name: name, Data: b})
}

// call sends one request to the helper, started if need be, and returns
// its answer.
func (d *Decryptor) call(req Request) ([]byte, bool, error) {
	if err := CheckSize(req.Data); err != nil {
		return nil, true, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ctx.Err(); err != nil {
		return nil, true, fmt.Errorf("%s: %w", HelperName, err)
	}
	h, err := d.helper()
	if err != nil {
		return nil, true, err
	}
	if err := WriteLine(h.stdin, req); err != nil {
		return nil, true, d.fail(h, err)
	}
	if !h.stdout.Scan() {
		err := h.stdout.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, true, d.fail(h, err)
	}
	resp, err := DecodeResponse(h.stdout.Bytes())
	if err != nil {
		return nil, true, d.fail(h, err)
	}
	if err := resp.Err(); err != nil {
		return nil, true, err
	}
	return resp.Plain, resp.Encrypted, nil
}

// helper returns the running helper, starting it on first use. d.mu is
// held.
func (d *Decryptor) helper() (*helper, error) {
	switch {
	case d.err != nil:
		return nil, d.err
	case d.closed:
		return nil, errors.New("decrypt: the decryptor is closed")
	case d.h != nil:
		return d.h, nil
	}
	h, err := start(d.ctx, d.keys)
	if err != nil {
		d.err = err
		return nil, err
	}
	d.h = h
	return h, nil
}

// fail ends a helper that broke the protocol or exited, and keeps why.
// d.mu is held.
func (d *Decryptor) fail(h *helper, err error) error {
	werr := h.stop()
	d.h = nil
	if cerr := d.ctx.Err(); cerr != nil {
		d.err = fmt.Errorf("%s: %w", HelperName, cerr)
		return d.err
	}
	msg := fmt.Sprintf("%s stopped answering (%v", HelperName, err)
	if werr != nil {
		msg += "; " + werr.Error()
	}
	msg += ")"
	if s := h.stderr.String(); s != "" {
		msg += ": " + s
	}
	d.err = errors.New(msg)
	return d.err
}

// Close ends the helper, if one runs. It is safe to call more than once.
func (d *Decryptor) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	if d.h == nil {
		return nil
	}
	h := d.h
	d.h = nil
	if err := h.stop(); err != nil {
		return fmt.Errorf("%s: %w", HelperName, err)
	}
	return nil
}

// start runs strata-sops with keys, the environment inherited. Keys of
// a Secret reach it in its environment alone: the age identities as
// $SOPS_AGE_KEY, the OpenPGP keys imported into a gpg home of their own
// as $GNUPGHOME, removed when it stops.
func start(ctx context.Context, keys Keys) (*helper, error) {
	path, err := FindHelper()
	if err != nil {
		return nil, err
	}
	var args []string
	if keys.AgeKeyFile != "" && keys.Secret == nil {
		args = append(args, "--age-key-file", keys.AgeKeyFile)
	}
	h := &helper{stderr: &tail{max: 2 << 10}}
	var env []string
	if s := keys.Secret; s != nil {
		args = append(args, "--secret-keys", s.Name)
		env = withoutKeys(os.Environ())
		env = append(env, EnvAgeKey+"="+s.Age)
		if len(s.PGP) > 0 {
			if h.gnupgHome, err = importPGP(ctx, s); err != nil {
				return nil, err
			}
			env = append(env, "GNUPGHOME="+h.gnupgHome)
		}
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = env
	// A helper that does not exit once its input is closed is killed.
	cmd.WaitDelay = 5 * time.Second
	h.cmd = cmd
	cmd.Stderr = h.stderr
	fail := func(err error) (*helper, error) {
		h.removeGnuPGHome()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	if h.stdin, err = cmd.StdinPipe(); err != nil {
		return fail(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	h.stdout = NewLineScanner(out)
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	return h, nil
}

// withoutKeys is env without the variables that name keys, for a helper
// that decrypts with a Secret's keys alone.
func withoutKeys(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case EnvAgeKey, EnvAgeKeyFile, "SOPS_AGE_KEY_CMD", "GNUPGHOME":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// stop closes the helper's input, which ends it, and waits for it.
func (h *helper) stop() error {
	_ = h.stdin.Close()
	err := h.cmd.Wait()
	h.removeGnuPGHome()
	return err
}

// tail keeps the last max bytes written to it: the end of the helper's
// standard error, for messages. strata-sops writes no value there.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = t.b[over:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
