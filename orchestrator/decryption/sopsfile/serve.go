package sopsfile

import (
	"bufio"
	"fmt"
	"io"

	"github.com/strata-iac/strata/orchestrator/decryption"
)

// Serve answers the requests of strata's decryption.Decryptor, one JSON
// line each, read from r, with one Response line each on w, decrypting
// with keys, until r ends. A line that is not a Request gets an error
// Response, which quotes nothing of it. Decrypted values go to w only.
func Serve(r io.Reader, w io.Writer, keys decryption.Keys) error {
	d := New(keys)
	in := decryption.NewLineScanner(r)
	out := bufio.NewWriter(w)
	for in.Scan() {
		if err := decryption.WriteLine(out, d.answer(in.Bytes())); err != nil {
			return fmt.Errorf("write response: %w", err)
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("write response: %w", err)
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("read request: %w", err)
	}
	return nil
}

// answer decrypts what one request line asks for.
func (d *Decryptor) answer(line []byte) decryption.Response {
	req, err := decryption.DecodeRequest(line)
	if err != nil {
		return decryption.NewResponse(nil, false, err)
	}
	switch req.Kind {
	case decryption.KindObject:
		plain, err := d.Object(req.Data)
		return decryption.NewResponse(plain, err == nil, err)
	case decryption.KindEnv:
		return decryption.NewResponse(d.EnvValue(req.Data, req.Name))
	}
	return decryption.NewResponse(d.Value(req.Data, req.Name))
}
