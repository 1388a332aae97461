package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"
)

const saramaPath = "github.com/IBM/sarama"

// sarama's defaults (v1.61.1, NewConfig in config.go): Producer.Retry.Max
// 3 and Producer.Retry.Backoff 100ms (config.go:585-586),
// Metadata.Retry.Max 3 and Metadata.Retry.Backoff 250ms (config.go:574-575).
// The producer waits Backoff between the retries of a message, the same
// time every time, unless Producer.Retry.BackoffFunc is set
// (partitionProducer.backoff, async_producer.go:805-818), and gives up
// after Max retries (retryMessage, async_producer.go:1774); Max 0 or less
// sends once (async_producer.go:1089). Only retriable Kafka errors are
// retried (brokerProducer.handleSuccess and handleError: leader changes,
// connection errors). Metadata requests are retried the same way
// (client.computeBackoff, client.go:1224-1229). Neither takes a context:
// the waits are time.Sleep.
//
// A SyncProducer's SendMessage and SendMessages wait for those retries:
// each is a retry layer of Max+1 attempts. Their wait is reported where
// the producer is built (NewSyncProducer, NewAsyncProducer), whose
// configuration is read there; NewClient, NewConsumer and
// NewConsumerGroup are read for Metadata.Retry.
const (
	saramaRetries         = 3
	saramaProducerBackoff = 100 * time.Millisecond
	saramaMetadataBackoff = 250 * time.Millisecond
)

// saramaBuilds maps the constructors that take a *Config to the index of
// that argument and the retry settings they use.
var saramaBuilds = map[string]struct {
	arg     int
	section string
}{
	"NewSyncProducer":  {1, "Producer"},
	"NewAsyncProducer": {1, "Producer"},
	"NewClient":        {1, "Metadata"},
	"NewConsumer":      {1, "Metadata"},
	"NewConsumerGroup": {2, "Metadata"},
}

func sarama(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	t := newReader(info, call, enclosing)
	if recv := fn.Signature().Recv(); recv != nil {
		if !isLibType(recv.Type(), saramaPath, "SyncProducer") || (fn.Name() != "SendMessage" && fn.Name() != "SendMessages") {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		cfg, ok := t.saramaProducerConfig(sel.X)
		retries := int64(saramaRetries)
		if ok {
			s := cfg.section("Producer", saramaProducerBackoff)
			if s.retries <= 0 {
				return nil
			}
			retries = s.retries
		}
		return &Retrier{
			Library:    saramaPath,
			Call:       call,
			Attempts:   limit(retries + 1),
			Classified: true,
			// The waits are read, and reported, where the producer is
			// built.
			Waits: false,
			Fixes: saramaFixes("Producer"),
		}
	}
	b, ok := saramaBuilds[fn.Name()]
	if !ok || b.arg >= len(call.Args) {
		return nil
	}
	cfg, ok := t.saramaConfig(call.Args[b.arg])
	if !ok {
		return nil
	}
	def := saramaProducerBackoff
	if b.section == "Metadata" {
		def = saramaMetadataBackoff
	}
	s := cfg.section(b.section, def)
	if s.retries <= 0 {
		return nil
	}
	r := &Retrier{
		Library:    saramaPath,
		Call:       call,
		Configures: true,
		Attempts:   limit(s.retries + 1),
		Waits:      true,
		Classified: true,
		Delay:      s.delay,
		DelayAt:    s.at,
		Fixes:      saramaFixes(b.section),
	}
	if s.delay.Value == "0s" || s.at == cfg.at && cfg.defaults {
		// No wait, or the one sarama chose: a client that keeps the
		// defaults retries a few times inside the Kafka client, 100 ms
		// apart, and every sarama user would be told so. The wait
		// counts once the code sets it.
		r.Waits = false
	}
	return r
}

// saramaCfg is a *sarama.Config as the code builds it: from NewConfig
// (the defaults) or a literal (zero values), with the fields set on it
// afterwards by their path ("Producer.Retry.Max").
type saramaCfg struct {
	at       ast.Expr // the NewConfig call or the literal
	defaults bool
	set      map[string]step
}

type saramaSection struct {
	retries int64
	delay   Delay
	at      ast.Expr
}

func (c saramaCfg) section(name string, def time.Duration) saramaSection {
	s := saramaSection{retries: 0, at: c.at}
	if c.defaults {
		s.retries = saramaRetries
		s.delay = Delay{Value: def.String()}
	} else {
		s.delay = Delay{Value: "0s"}
	}
	if st, ok := c.set[name+".Retry.Max"]; ok {
		if n, known := st.r.integer(st.args[0]); known {
			s.retries = n
		} else {
			s.retries = saramaRetries
		}
	}
	if st, ok := c.set[name+".Retry.Backoff"]; ok {
		s.at = st.site
		s.delay = Delay{Value: st.r.durationText(st.args[0])}
		if d, known := st.r.duration(st.args[0]); known {
			s.delay.Value = d.String()
		}
	}
	if st, ok := c.set[name+".Retry.BackoffFunc"]; ok && !isNil(st.args[0]) {
		s.at = st.site
		s.delay = Delay{Unknown: true}
		if _, body, in := st.r.funcOf(st.args[0]); body != nil {
			if d, known := in.constantReturn(body); known {
				s.delay = Delay{Value: d}
			}
		}
	}
	return s
}

// constantReturn reports a function body that returns one constant
// duration on every path.
func (t *reader) constantReturn(body *ast.BlockStmt) (string, bool) {
	val, ok, n := "", true, 0
	ast.Inspect(body, func(n2 ast.Node) bool {
		switch x := n2.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			n++
			if len(x.Results) != 1 {
				ok = false
				return false
			}
			d, known := t.duration(x.Results[0])
			if !known || (val != "" && val != d.String()) {
				ok = false
			}
			val = d.String()
		}
		return true
	})
	return val, ok && n > 0
}

// saramaProducerConfig follows a SyncProducer to the NewSyncProducer call
// that built it and reads its configuration.
func (t *reader) saramaProducerConfig(producer ast.Expr) (saramaCfg, bool) {
	x, where := t.value(producer)
	call, ok := isCall(where.info, x, saramaPath, "NewSyncProducer")
	if !ok || len(call.Args) != 2 {
		// p, err := sarama.NewSyncProducer(...) assigns from a tuple,
		// which value does not follow: look for it.
		call = where.tupleOrigin(x, "NewSyncProducer")
		if call == nil || len(call.Args) != 2 {
			return saramaCfg{}, false
		}
	}
	return where.at(where.body, call.Pos()).saramaConfig(call.Args[1])
}

// tupleOrigin finds the call of name that a variable was assigned from
// together with an error: p, err := sarama.NewSyncProducer(...).
func (t *reader) tupleOrigin(e ast.Expr, name string) *ast.CallExpr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || t.body == nil {
		return nil
	}
	v, _ := t.info.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(t.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() >= t.use || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			return true
		}
		l, ok := as.Lhs[0].(*ast.Ident)
		if !ok || t.info.ObjectOf(l) != v {
			return true
		}
		if c, ok := isCall(t.info, as.Rhs[0], saramaPath, name); ok {
			found = c
		}
		return true
	})
	return found
}

// saramaConfig reads the *sarama.Config e denotes.
func (t *reader) saramaConfig(e ast.Expr) (saramaCfg, bool) {
	x, where := t.value(e)
	cfg := saramaCfg{at: x, set: map[string]step{}}
	if _, ok := isCall(where.info, x, saramaPath, "NewConfig"); ok {
		cfg.defaults = true
	} else if lit, ok := ast.Unparen(x).(*ast.CompositeLit); !ok || !isLibType(where.info.TypeOf(lit), saramaPath, "Config") {
		return cfg, false
	}
	v, in := t.holder(e)
	if v == nil {
		return cfg, true
	}
	body := in.body
	if body == nil || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		body = t.declaringBody(v.Pos())
	}
	if body == nil {
		return cfg, true
	}
	use := t.use
	if !(body.Pos() <= use && use < body.End()) {
		use = body.End()
	}
	r := t.at(body, use)
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() >= use || len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN {
			return true
		}
		for i, l := range as.Lhs {
			if path, ok := selectorPath(t.info, l, v); ok {
				cfg.set[path] = step{name: path, args: []ast.Expr{as.Rhs[i]}, site: l, r: r}
			}
		}
		return true
	})
	return cfg, true
}

// selectorPath spells a selector rooted at the variable v:
// cfg.Producer.Retry.Max is "Producer.Retry.Max".
func selectorPath(info *types.Info, e ast.Expr, v *types.Var) (string, bool) {
	var parts []string
	for range 8 {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			parts = append([]string{x.Sel.Name}, parts...)
			e = x.X
		case *ast.Ident:
			return strings.Join(parts, "."), len(parts) > 0 && info.Uses[x] == v
		default:
			return "", false
		}
	}
	return "", false
}

func saramaFixes(section string) map[string]string {
	return map[string]string{
		"fixed-sleep":           "set " + section + ".Retry.BackoffFunc to a capped exponential back-off with random jitter",
		"sleep-ignores-context": "sarama takes no context: keep " + section + ".Retry.Max × Backoff short",
	}
}
