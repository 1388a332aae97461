package topology

import (
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
)

// isTopologyFile recognises the topology file: `version: 1` plus
// `components:` (SPEC §5).
func isTopologyFile(r *yaml.Node) bool {
	return val(r, "version") != nil && val(r, "components") != nil
}

// decl is one component of a topology file.
type decl struct {
	pipeline string
	file     string
	name     string
	pos      Pos
	kind     Kind
	kindPos  Pos
	set      map[string]Pos // fields written, with their key's position
	c        Component      // the values written
	calls    []*Call
	dir      string // the directory of the file, absolute
}

// Keys the topology file accepts, per level.
var (
	topKeys       = []string{"version", "budget", "include", "components"}
	componentKeys = []string{"kind", "description", "source", "url", "calls", "emits", "notifies", "runs",
		"push_to", "max_retries", "task_count", "task_timeout", "max_delivery_attempts",
		"retention", "min_backoff", "max_backoff", "ack_deadline"}
	callKeys    = []string{"to", "func", "retries", "on", "backoff", "timeout", "awaits"}
	backoffKeys = []string{"initial", "max", "multiplier", "jitter"}
	// kindFields says which kinds a kind-specific field applies to.
	kindFields = map[string][]Kind{
		"source":                {KindApp, KindService},
		"url":                   {KindExternal},
		"runs":                  {KindJob, KindK8sJob},
		"max_retries":           {KindJob, KindK8sJob},
		"task_count":            {KindJob},
		"task_timeout":          {KindJob},
		"push_to":               {KindSubscription, KindTrigger},
		"max_delivery_attempts": {KindSubscription, KindTrigger},
		"retention":             {KindSubscription, KindTrigger},
		"min_backoff":           {KindSubscription, KindTrigger},
		"max_backoff":           {KindSubscription, KindTrigger},
		"ack_deadline":          {KindSubscription, KindTrigger},
	}
)

// checkKeys reports the first key of mapping n that is not in allowed.
func checkKeys(file string, n *yaml.Node, allowed []string, where string) error {
	if n.Kind != yaml.MappingNode {
		return errorf(posOf(file, n), "%s: expected a mapping", where)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, a := range allowed {
			if k.Value == a {
				ok = true
				break
			}
		}
		if !ok {
			return errorf(posOf(file, k), "%s: unknown key %q (expected one of: %s)", where, k.Value, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// topologyFile decodes a topology file strictly and loads its includes.
func (ld *loader) topologyFile(file, abs string, r *yaml.Node) error {
	if err := checkKeys(file, r, topKeys, "topology file"); err != nil {
		return err
	}
	vn := val(r, "version")
	if v, ok := scalar(vn); !ok || v != "1" {
		return errorf(posOf(file, vn), "version: expected 1")
	}
	if k, n := get(r, "budget"); n != nil && !isNull(n) {
		b, err := intValue(file, n, "budget")
		if err != nil {
			return err
		}
		if b < 1 {
			return errorf(posOf(file, n), "budget: expected a positive integer, got %d", b)
		}
		ld.budget, ld.budgetPos = b, posOf(file, k)
		ld.setBudget(ld.pipelineOf(abs), b, posOf(file, k))
	}
	comps := val(r, "components")
	if comps.Kind != yaml.MappingNode {
		if isNull(comps) {
			comps = &yaml.Node{Kind: yaml.MappingNode}
		} else {
			return errorf(posOf(file, comps), "components: expected a mapping of component names")
		}
	}
	for i := 0; i+1 < len(comps.Content); i += 2 {
		d, err := decodeDecl(file, comps.Content[i], resolve(comps.Content[i+1]))
		if err != nil {
			return err
		}
		d.dir = filepath.Dir(abs)
		d.pipeline = ld.pipelineOf(abs)
		ld.decls = append(ld.decls, d)
	}
	if inc := val(r, "include"); inc != nil && !isNull(inc) {
		items := []*yaml.Node{inc}
		if inc.Kind == yaml.SequenceNode {
			items = inc.Content
		}
		// What a topology file includes is part of its pipeline.
		prev := ld.includer
		ld.includer = ld.pipelineOf(abs)
		defer func() { ld.includer = prev }()
		for _, it := range items {
			if err := ld.include(file, abs, resolve(it)); err != nil {
				return err
			}
		}
	}
	return nil
}

// include loads one `include:` entry, relative to the topology file, never
// outside the given roots.
func (ld *loader) include(file, abs string, it *yaml.Node) error {
	s, ok := scalar(it)
	if !ok || strings.TrimSpace(s) == "" {
		return errorf(posOf(file, it), "include: expected a path or glob relative to this file")
	}
	p := filepath.FromSlash(s)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(abs), p)
	}
	matches := []string{p}
	if strings.ContainsAny(s, "*?[") {
		m, err := filepath.Glob(p)
		if err != nil {
			return errorf(posOf(file, it), "include %q: bad pattern: %v", s, err)
		}
		matches = m
	}
	for _, m := range matches {
		real, err := filepath.EvalSymlinks(m)
		if err != nil {
			return errorf(posOf(file, it), "include %q: %s", s, input.PathErr(err))
		}
		if !ld.within(real) {
			return errorf(posOf(file, it), "include %q is outside the given paths; only files under %s are read", s, ld.display(ld.roots[0]))
		}
		fi, err := os.Stat(real)
		if err != nil {
			return errorf(posOf(file, it), "include %q: %s", s, input.PathErr(err))
		}
		if fi.IsDir() {
			err = ld.walk(real)
		} else {
			err = ld.file(real, true)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeDecl decodes one component entry.
func decodeDecl(file string, kn, n *yaml.Node) (*decl, error) {
	if kn.Kind != yaml.ScalarNode || kn.Value == "" {
		return nil, errorf(posOf(file, kn), "components: expected a component name")
	}
	d := &decl{file: file, name: kn.Value, pos: posOf(file, kn), set: map[string]Pos{}}
	where := "component " + kn.Value
	if n == nil || isNull(n) {
		return d, nil
	}
	if err := checkKeys(file, n, componentKeys, where); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		d.set[k.Value] = posOf(file, k)
		if err := d.field(file, k.Value, v, where); err != nil {
			return nil, err
		}
	}
	if d.kind != "" {
		if err := d.checkKindFields(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// checkKindFields rejects kind-specific fields on the wrong kind.
func (d *decl) checkKindFields() error {
	for _, f := range slices.Sorted(maps.Keys(d.set)) {
		kinds, ok := kindFields[f]
		if !ok {
			continue
		}
		fits := false
		for _, k := range kinds {
			fits = fits || k == d.kind
		}
		if !fits {
			return errorf(d.set[f], "component %s: %s applies to %s, not %s", d.name, f, kindList(kinds), d.kind)
		}
	}
	return nil
}

func kindList(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, " or ")
}

func (d *decl) field(file, key string, v *yaml.Node, where string) error {
	c := &d.c
	at := where + ": " + key
	var err error
	switch key {
	case "kind":
		s, _ := scalar(v)
		if !ValidKind(Kind(s)) {
			return errorf(posOf(file, v), "%s: expected one of %s", at, strings.ReplaceAll(kindList(Kinds), " or ", ", "))
		}
		d.kind, d.kindPos = Kind(s), posOf(file, v)
	case "description":
		if _, ok := scalar(v); !ok {
			return errorf(posOf(file, v), "%s: expected a string", at)
		}
	case "source":
		s, ok := scalar(v)
		if !ok {
			return errorf(posOf(file, v), "%s: expected a Go package path", at)
		}
		c.Source = s
	case "url":
		s, ok := scalar(v)
		host := ""
		if ok {
			host = urlHost(s)
		}
		if host == "" {
			return errorf(posOf(file, v), "%s: expected a URL or host such as https://api.example.com", at)
		}
		c.URL, c.Host = s, host
	case "emits":
		c.Emits, err = signalList(file, v, at)
		c.EmitsSet, c.EmitsPos = true, posOf(file, v)
	case "notifies":
		names, poss, err := nameList(file, v, at)
		if err != nil {
			return err
		}
		for i, name := range names {
			d.calls = append(d.calls, &Call{To: name, ToKind: KindSink, Kind: EdgeNotify, Pos: poss[i]})
		}
	case "runs":
		s, ok := scalar(v)
		if !ok || s == "" {
			return errorf(posOf(file, v), "%s: expected a component name", at)
		}
		d.job().Runs, d.job().RunsPos = s, posOf(file, v)
	case "push_to":
		s, ok := scalar(v)
		if !ok || s == "" {
			return errorf(posOf(file, v), "%s: expected a component name", at)
		}
		d.delivery().PushTo, d.delivery().PushToPos = s, posOf(file, v)
	case "max_retries":
		var i int
		i, err = intValue(file, v, at)
		if err == nil && i < 0 {
			err = errorf(posOf(file, v), "%s: expected 0 or more, got %d", at, i)
		}
		d.job().MaxRetries = i
	case "task_count":
		var i int
		i, err = intValue(file, v, at)
		if err == nil && i < 1 {
			err = errorf(posOf(file, v), "%s: expected 1 or more, got %d", at, i)
		}
		d.job().TaskCount = i
	case "task_timeout":
		d.job().TaskTimeout, err = durationValue(file, v, at)
	case "max_delivery_attempts":
		var i int
		i, err = intValue(file, v, at)
		if err == nil && i < 1 {
			err = errorf(posOf(file, v), "%s: expected 1 or more, got %d", at, i)
		}
		d.delivery().MaxDeliveryAttempts = i
	case "retention":
		d.delivery().Retention, err = durationValue(file, v, at)
	case "min_backoff":
		d.delivery().MinBackoff, err = durationValue(file, v, at)
	case "max_backoff":
		d.delivery().MaxBackoff, err = durationValue(file, v, at)
	case "ack_deadline":
		d.delivery().AckDeadline, err = durationValue(file, v, at)
	case "calls":
		if v.Kind != yaml.SequenceNode {
			return errorf(posOf(file, v), "%s: expected a list of calls", at)
		}
		for _, it := range v.Content {
			call, err := decodeCall(file, resolve(it), at)
			if err != nil {
				return err
			}
			d.calls = append(d.calls, call)
		}
	}
	return err
}

func (d *decl) job() *JobSpec {
	if d.c.Job == nil {
		d.c.Job = &JobSpec{}
	}
	return d.c.Job
}

func (d *decl) delivery() *Delivery {
	if d.c.Delivery == nil {
		d.c.Delivery = &Delivery{}
	}
	return d.c.Delivery
}

func signalList(file string, v *yaml.Node, at string) (Signals, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errorf(posOf(file, v), "%s: expected a list of signals such as [http-503, timeout]", at)
	}
	var out Signals
	for _, it := range v.Content {
		s, ok := scalar(it)
		if !ok || !ValidSignal(Signal(s)) {
			return nil, errorf(posOf(file, it), "%s: %q is not a signal (expected exit-nonzero, http-429, http-5xx, http-503, http-4xx, connection, timeout, operation-error, workflow-failed, nack or any)", at, s)
		}
		out = append(out, Signal(s))
	}
	return out.Normalize(), nil
}

func nameList(file string, v *yaml.Node, at string) ([]string, []Pos, error) {
	if v.Kind == yaml.ScalarNode {
		return []string{v.Value}, []Pos{posOf(file, v)}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, nil, errorf(posOf(file, v), "%s: expected a list of component names", at)
	}
	var names []string
	var poss []Pos
	for _, it := range v.Content {
		s, ok := scalar(it)
		if !ok || s == "" {
			return nil, nil, errorf(posOf(file, it), "%s: expected a component name", at)
		}
		names, poss = append(names, s), append(poss, posOf(file, it))
	}
	return names, poss, nil
}

func decodeCall(file string, n *yaml.Node, where string) (*Call, error) {
	if n == nil {
		return nil, errorf(Pos{File: file, Line: 1, Col: 1}, "%s: expected a call", where)
	}
	if err := checkKeys(file, n, callKeys, where); err != nil {
		return nil, err
	}
	call := &Call{Kind: EdgeCall, Pos: posOf(file, n), Predicate: Predicate{Any: true, Known: true}}
	toK, to := get(n, "to")
	s, ok := scalar(to)
	if toK == nil || !ok || s == "" {
		return nil, errorf(posOf(file, n), "%s: a call needs `to:` naming the component it invokes", where)
	}
	call.To, call.Pos = s, posOf(file, to)
	if k, v := get(n, "retries"); v != nil {
		call.RetryPos = posOf(file, k)
		if s, _ := scalar(v); s == "unbounded" {
			call.Unbounded = true
		} else {
			r, err := intValue(file, v, where+": retries")
			if err != nil {
				return nil, errorf(posOf(file, v), "%s: retries: expected a number or `unbounded`", where)
			}
			if r < 0 {
				return nil, errorf(posOf(file, v), "%s: retries: expected 0 or more, got %d", where, r)
			}
			call.Retries = r
		}
	}
	if k, v := get(n, "func"); v != nil {
		s, ok := scalar(v)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, errorf(posOf(file, v), "%s: func: expected a Go function such as \"example.com/app/client.(*Client).Do\"", where)
		}
		call.Func, call.FuncPos = s, posOf(file, k)
	}
	if k, v := get(n, "on"); v != nil {
		call.OnPos = posOf(file, k)
		sigs, err := signalList(file, v, where+": on")
		if err != nil {
			return nil, err
		}
		call.Predicate = Predicate{Signals: sigs, Known: true, Custom: true, Any: sigs.Has(SigAny)}
	}
	if v := val(n, "timeout"); v != nil {
		t, err := durationValue(file, v, where+": timeout")
		if err != nil {
			return nil, err
		}
		call.Timeout, call.TimeoutSet = t, true
	}
	if v := val(n, "awaits"); v != nil {
		b, err := boolValue(file, v, where+": awaits")
		if err != nil {
			return nil, err
		}
		call.Awaits = b
	}
	if k, v := get(n, "backoff"); v != nil {
		if err := checkKeys(file, v, backoffKeys, where+": backoff"); err != nil {
			return nil, err
		}
		b := &Backoff{Pos: posOf(file, k), Multiplier: 1}
		for _, f := range []struct {
			key string
			dst *float64
		}{{"initial", &b.Initial}, {"max", &b.Max}} {
			if fv := val(v, f.key); fv != nil {
				d, err := durationValue(file, fv, where+": backoff."+f.key)
				if err != nil {
					return nil, err
				}
				*f.dst = d
			}
		}
		if fv := val(v, "multiplier"); fv != nil {
			m, err := floatValue(file, fv, where+": backoff.multiplier")
			if err != nil {
				return nil, err
			}
			b.Multiplier = m
		}
		if fv := val(v, "jitter"); fv != nil {
			j, _ := scalar(fv)
			switch j {
			case "none", "full", "equal", "decorrelated":
			default:
				return nil, errorf(posOf(file, fv), "%s: backoff.jitter: expected none, full, equal or decorrelated", where)
			}
			b.Jitter = j
		}
		call.Backoff = b
	}
	return call, nil
}

// urlHost is the host of a URL, or of a bare host name; "" if neither.
func urlHost(s string) string {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || strings.ContainsAny(u.Hostname(), " /") {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
