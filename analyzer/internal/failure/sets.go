package failure

// HTTPSet is a set of the HTTP statuses, 100 to 599, a failure may carry.
// Narrowed reports that a check of the status restricted it; a set that
// nothing narrowed holds every status.
type HTTPSet struct {
	Narrowed bool
	bits     [10]uint64 // 640 bits, statuses 100..599 used
}

// AllHTTP is the set of every status, not narrowed.
func AllHTTP() HTTPSet {
	var s HTTPSet
	for c := 100; c < 600; c++ {
		s.bits[c/64] |= 1 << (c % 64)
	}
	return s
}

// Has reports whether the set holds status c.
func (s HTTPSet) Has(c int) bool { return c >= 0 && c < 600 && s.bits[c/64]&(1<<(c%64)) != 0 }

// Empty reports whether the set holds no status.
func (s HTTPSet) Empty() bool { return s.bits == [10]uint64{} }

// HasSuccess reports whether the set holds a 2xx status.
func (s HTTPSet) HasSuccess() bool {
	for c := 200; c < 300; c++ {
		if s.Has(c) {
			return true
		}
	}
	return false
}

// Restrict keeps the statuses for which keep is true, and marks the set
// narrowed.
func (s HTTPSet) Restrict(keep func(int) bool) HTTPSet {
	out := s
	out.Narrowed = true
	for c := 0; c < 600; c++ {
		if s.Has(c) && !keep(c) {
			out.bits[c/64] &^= 1 << (c % 64)
		}
	}
	return out
}

// And is the statuses both sets hold: both conditions on a path hold.
func (s HTTPSet) And(t HTTPSet) HTTPSet {
	out := HTTPSet{Narrowed: s.Narrowed || t.Narrowed}
	for i := range s.bits {
		out.bits[i] = s.bits[i] & t.bits[i]
	}
	return out
}

// Or is the statuses either condition lets through. A side that checks
// no status lets every status through.
func (s HTTPSet) Or(t HTTPSet) HTTPSet {
	if !s.Narrowed || !t.Narrowed {
		return AllHTTP()
	}
	return s.Union(t)
}

// Not is the statuses a condition does not hold for; a condition that
// checks no status leaves every status.
func (s HTTPSet) Not() HTTPSet {
	out := AllHTTP()
	if s.Narrowed {
		for i := range s.bits {
			out.bits[i] &^= s.bits[i]
		}
		out.Narrowed = true
	}
	return out
}

// Union is the statuses either set holds, narrowed when either is.
func (s HTTPSet) Union(t HTTPSet) HTTPSet {
	out := HTTPSet{Narrowed: s.Narrowed || t.Narrowed}
	for i := range s.bits {
		out.bits[i] = s.bits[i] | t.bits[i]
	}
	return out
}

// Permanent lists the statuses of the set that cannot succeed on retry,
// ascending.
func (s HTTPSet) Permanent() []int {
	var out []int
	for c := 100; c < 600; c++ {
		if s.Has(c) && PermanentHTTP(c) {
			out = append(out, c)
		}
	}
	return out
}

// GRPCSet is a set of the gRPC codes a failure may carry. Narrowed
// reports that a check of the code restricted it; a set that nothing
// narrowed holds every code.
type GRPCSet struct {
	Narrowed bool
	bits     uint32
}

// AllGRPC is the set of every code, not narrowed.
func AllGRPC() GRPCSet { return GRPCSet{bits: 1<<GRPCCodes - 1} }

// Has reports whether the set holds code c.
func (s GRPCSet) Has(c int) bool { return c >= 0 && c < 32 && s.bits&(1<<c) != 0 }

// Empty reports whether the set holds no code.
func (s GRPCSet) Empty() bool { return s.bits == 0 }

// Restrict keeps the codes for which keep is true, and marks the set
// narrowed.
func (s GRPCSet) Restrict(keep func(int) bool) GRPCSet {
	out := s
	out.Narrowed = true
	for c := 0; c < GRPCCodes; c++ {
		if s.Has(c) && !keep(c) {
			out.bits &^= 1 << c
		}
	}
	return out
}

// And is the codes both sets hold.
func (s GRPCSet) And(t GRPCSet) GRPCSet {
	return GRPCSet{Narrowed: s.Narrowed || t.Narrowed, bits: s.bits & t.bits}
}

// Or is the codes either condition lets through; a side that checks no
// code lets every code through.
func (s GRPCSet) Or(t GRPCSet) GRPCSet {
	if !s.Narrowed || !t.Narrowed {
		return AllGRPC()
	}
	return s.Union(t)
}

// Not is the codes a condition does not hold for; a condition that checks
// no code leaves every code.
func (s GRPCSet) Not() GRPCSet {
	out := AllGRPC()
	if s.Narrowed {
		out.bits &^= s.bits
		out.Narrowed = true
	}
	return out
}

// Union is the codes either set holds, narrowed when either is.
func (s GRPCSet) Union(t GRPCSet) GRPCSet {
	return GRPCSet{Narrowed: s.Narrowed || t.Narrowed, bits: s.bits | t.bits}
}

// Permanent lists the codes of the set that cannot succeed on retry, in
// code order.
func (s GRPCSet) Permanent() []int {
	var out []int
	for c := 0; c < GRPCCodes; c++ {
		if s.Has(c) && PermanentGRPC(c) {
			out = append(out, c)
		}
	}
	return out
}
