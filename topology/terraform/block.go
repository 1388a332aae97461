package terraform

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Block is a block body: a resource or a nested block such as retry_config.
type Block struct {
	Type   string   // "resource", or the nested block's type
	Labels []string // the block's labels
	Pos    Pos      // the block's type keyword
	// Dynamic: written as a dynamic block, so it may be repeated or absent.
	Dynamic bool
	// MayBeAbsent: a dynamic block whose for_each is not known to be non-empty.
	MayBeAbsent bool

	body *hclsyntax.Body
	mod  *module
}

// Attr returns the argument at path, a dotted list of nested block types ending in an argument
// name, e.g. "template.template.max_retries" (the first block of each type is taken). Steps
// past an argument index into its object or map value: "labels.team". It returns nil when the
// path names nothing.
func (b *Block) Attr(path string) (v *Value) {
	if b == nil || b.body == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	steps := strings.Split(path, ".")
	body := b.body
	for i, s := range steps {
		if a := body.Attributes[s]; a != nil {
			// A .tf.json object is both an argument and a block (see json.go): when the
			// argument's value does not hold the rest of the path (an array of blocks
			// inside), the block may.
			v := b.mod.value(path, a, steps[i+1:])
			if v != nil || i == len(steps)-1 || firstBlock(body, s, b.mod) == nil {
				return v
			}
		}
		if i == len(steps)-1 {
			return nil
		}
		nb := firstBlock(body, s, b.mod)
		if nb == nil {
			return nil
		}
		body = nb.body
	}
	return nil
}

// BlockAt returns the first nested block at path (dotted block types), or nil.
func (b *Block) BlockAt(path string) *Block {
	bs := b.blocks(path, true)
	if len(bs) == 0 {
		return nil
	}
	return bs[0]
}

// BlocksAt returns every nested block at the end of path; intermediate steps take the first block
// of their type.
func (b *Block) BlocksAt(path string) []*Block { return b.blocks(path, false) }

// Has reports whether path names an argument or a block.
func (b *Block) Has(path string) bool { return b.Attr(path) != nil || b.BlockAt(path) != nil }

func (b *Block) blocks(path string, first bool) []*Block {
	if b == nil || b.body == nil {
		return nil
	}
	steps := strings.Split(path, ".")
	body := b.body
	var nb *Block
	for i, s := range steps {
		if i == len(steps)-1 && !first {
			return blocksOf(body, s, b.mod)
		}
		nb = firstBlock(body, s, b.mod)
		if nb == nil {
			return nil
		}
		body = nb.body
	}
	return []*Block{nb}
}

// blocksOf returns the blocks of one type in body: the written ones, else the content of a
// dynamic block of that type.
func blocksOf(body *hclsyntax.Body, typ string, m *module) []*Block {
	var out []*Block
	for _, blk := range body.Blocks {
		if blk.Type == typ {
			out = append(out, &Block{Type: typ, Labels: blk.Labels, Pos: rangePos(blk.TypeRange), body: blk.Body, mod: m})
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, blk := range body.Blocks {
		if blk.Type != "dynamic" || len(blk.Labels) != 1 || blk.Labels[0] != typ {
			continue
		}
		absent := mayBeEmpty(m, blk.Body.Attributes["for_each"])
		for _, c := range blk.Body.Blocks {
			if c.Type == "content" {
				out = append(out, &Block{Type: typ, Pos: rangePos(blk.TypeRange), Dynamic: true, MayBeAbsent: absent,
					body: c.Body, mod: m})
			}
		}
	}
	return out
}

// mayBeEmpty reports whether a for_each may give no element: it is absent, or not known, or
// known and empty.
func mayBeEmpty(m *module, forEach *hclsyntax.Attribute) bool {
	if forEach == nil {
		return true
	}
	v, _ := m.eval(forEach.Expr, modeReal)
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return true
	}
	return v.LengthInt() == 0
}

func firstBlock(body *hclsyntax.Body, typ string, m *module) *Block {
	if bs := blocksOf(body, typ, m); len(bs) > 0 {
		return bs[0]
	}
	return nil
}

// AttrNames lists the arguments written in the block, sorted.
func (b *Block) AttrNames() []string {
	if b == nil || b.body == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(b.body.Attributes))
}
