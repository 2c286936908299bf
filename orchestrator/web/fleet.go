package web

import (
	"net/http"
	"slices"

	"github.com/strata-iac/strata/orchestrator/history"
)

// results are the results the fleet filters by, in the order offered.
var results = append(slices.Clone(history.Results), history.ResultInterrupted)

type fleetPage struct {
	page
	// Columns are every stack name of every environment shown, in the
	// order first seen (graph order).
	Columns []string
	Rows    []fleetRow
	// Clients, Classes and Results are the filters' choices; Client, Class
	// and Result the chosen ones.
	Clients, Classes []string
	Results          []history.Result
	Client, Class    string
	Result           history.Result
	Running          bool
}

type fleetRow struct {
	Env   *envView
	Cells []fleetCell
}

type fleetCell struct {
	Stack *stackView
	// Muted is true for a cell that the result filter does not match.
	Muted bool
}

// handleFleet shows the matrix of client environments and stacks.
func (s *Server) handleFleet(w http.ResponseWriter, r *http.Request) {
	envs := s.environments(r.Context())
	q := r.URL.Query()
	p := &fleetPage{page: s.newPage(w, r, "Fleet"), Client: q.Get("client"), Class: q.Get("class"), Results: results}
	if res := history.Result(q.Get("result")); slices.Contains(results, res) {
		p.Result = res
	}
	p.Nav = "fleet"
	for _, v := range envs {
		if !slices.Contains(p.Clients, v.Client) {
			p.Clients = append(p.Clients, v.Client)
		}
		if v.Class != "" && !slices.Contains(p.Classes, v.Class) {
			p.Classes = append(p.Classes, v.Class)
		}
		for _, st := range v.Stacks {
			if !slices.Contains(p.Columns, st.Name) {
				p.Columns = append(p.Columns, st.Name)
			}
		}
		p.Running = p.Running || v.Running
	}
	for _, v := range envs {
		if (p.Client != "" && v.Client != p.Client) || (p.Class != "" && v.Class != p.Class) {
			continue
		}
		row := fleetRow{Env: v}
		match := p.Result == ""
		for _, col := range p.Columns {
			st := v.stack(col)
			muted := p.Result != "" && (st == nil || st.Result != p.Result)
			match = match || !muted
			row.Cells = append(row.Cells, fleetCell{Stack: st, Muted: muted})
		}
		if match {
			p.Rows = append(p.Rows, row)
		}
	}
	s.render(w, r, http.StatusOK, "fleet", p)
}
