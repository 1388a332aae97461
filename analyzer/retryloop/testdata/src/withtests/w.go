package withtests

func op() error { return nil }
