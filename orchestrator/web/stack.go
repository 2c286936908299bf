package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/review"
	"github.com/strata-iac/strata/orchestrator/runlog"
)

// maxLogBytes bounds the run log a page shows: the end of a longer one.
const maxLogBytes = 256 << 10

type stackPage struct {
	page
	Env   *envView
	Stack *stackView
	// Run is the run whose log is shown, Log its lines and LogNote why
	// there are none.
	Run     *history.Run
	Log     string
	LogNote string
	// Review is the plan review of the last reconcile, as `strata plan -o
	// markdown` writes it; HeldReview the summary of a held plan.
	Review     string
	HeldReview string
	Held       []approval.Held
	Contract   *contractView
}

// contractView is what the view shows of a contract: public values, the
// number of private ones, and its consumers. Never a private value.
type contractView struct {
	Name, Key string
	Installed bool
	Version   string
	Public    []keyValue
	// Private counts the private values, which are never shown.
	Private   int
	Consumers []string
	Problem   string
}

type keyValue struct{ Key, Value string }

// handleStack shows one stack.
func (s *Server) handleStack(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	envs := s.environments(ctx)
	v := find(envs, r.PathValue("client"), r.PathValue("env"))
	var st *stackView
	if v != nil {
		st = v.stack(r.PathValue("stack"))
	}
	if st == nil {
		s.renderError(w, r, http.StatusNotFound, "There is no stack "+r.PathValue("stack")+" in environment "+r.PathValue("client")+"/"+r.PathValue("env")+" in this view.")
		return
	}
	p := &stackPage{page: s.newPage(w, r, st.Name+" · "+v.Client+"/"+v.Name), Env: v, Stack: st}
	p.Run, p.Log, p.LogNote = s.runLog(v, st, r.URL.Query().Get("run"))
	if st.report != nil {
		var b strings.Builder
		rep := *v.report
		rep.Stacks = []report.StackReport{*st.report}
		if err := review.Markdown(&b, &rep); err == nil {
			p.Review = b.String()
		}
	}
	store, err := v.heldStore(ctx)
	var held []approval.Held
	if err == nil {
		held, err = store.HeldPlans(ctx, v.Client, v.Name, st.Name)
	}
	if err == nil {
		p.Held = held
		if len(held) > 0 {
			if b, err := os.ReadFile(filepath.Join(held[0].Dir, approval.SummaryFile)); err == nil {
				p.HeldReview = string(b)
			}
		}
	}
	if es := v.env.Stack(st.Name); es != nil && es.Produces != "" {
		p.Contract = s.contract(ctx, v, es.Produces)
	}
	s.render(w, r, http.StatusOK, "stack", p)
}

// runLog reads the log of the run asked for, else of the newest run.
func (s *Server) runLog(v *envView, st *stackView, asked string) (*history.Run, string, string) {
	if len(st.Runs) == 0 {
		return nil, "", "No run of this stack is recorded yet."
	}
	run := &st.Runs[0]
	if asked != "" {
		n, err := strconv.Atoi(asked)
		i := slices.IndexFunc(st.Runs, func(r history.Run) bool { return r.Number == n })
		if err != nil || i < 0 {
			return nil, "", "Run " + asked + " is not among the stack's last runs."
		}
		run = &st.Runs[i]
	}
	f, err := os.Open(runlog.RunLogFile(envstores.RunLogDir(v.StateDir, v.Client, v.Name), st.Name, run.Number))
	if errors.Is(err, os.ErrNotExist) {
		return run, "", "No log lines are kept for this run."
	}
	if err != nil {
		return run, "", "The run's log cannot be read: " + err.Error()
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxLogBytes {
		_, _ = f.Seek(fi.Size()-maxLogBytes, io.SeekStart)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxLogBytes))
	if err != nil {
		return run, "", "The run's log cannot be read: " + err.Error()
	}
	return run, string(b), ""
}

// contract reads a contract's public part and names its consumers.
func (s *Server) contract(ctx context.Context, v *envView, name string) *contractView {
	cv := &contractView{Name: name}
	for _, c := range v.env.Stacks {
		consumes := slices.Contains(c.ContractsRead(), name) ||
			slices.ContainsFunc(c.ConsumesMatching, func(m environmentMatch) bool { return m.Matches(name) })
		if consumes {
			cv.Consumers = append(cv.Consumers, c.Name)
		}
	}
	cv.Key = contracts.Key(v.set.Contracts.Prefix, name)
	store, err := envstores.OpenContracts(ctx, v.env, v.set)
	if err != nil {
		cv.Problem = oneLine(err.Error())
		return cv
	}
	doc, err := store.Get(ctx, cv.Key)
	if errors.Is(err, contracts.ErrNotFound) {
		cv.Problem = "Not published yet: the stack publishes it once it is applied."
		return cv
	}
	if err != nil {
		cv.Problem = oneLine(err.Error())
		return cv
	}
	cv.Installed, cv.Version, cv.Private = doc.Installed, doc.Version, len(doc.Private)
	for _, k := range sortedKeys(doc.Public) {
		cv.Public = append(cv.Public, keyValue{Key: k, Value: jsonValue(doc.Public[k])})
	}
	return cv
}
