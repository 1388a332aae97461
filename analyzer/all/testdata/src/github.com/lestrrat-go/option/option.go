// Package option is a test stand-in for github.com/lestrrat-go/option
// (v1.0.0).
package option

type Interface interface {
	Ident() interface{}
	Value() interface{}
}

type pair struct{ ident, value interface{} }

func New(ident, value interface{}) Interface { return &pair{ident, value} }

func (p *pair) Ident() interface{} { return p.ident }
func (p *pair) Value() interface{} { return p.value }
