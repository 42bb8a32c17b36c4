package inflate

// HeaderEnd is headerAt for the tests: where the dynamic header at bit p of
// data ends, if NextHeader would take it for one.
func HeaderEnd(data []byte, p int64) (int64, bool) { return headerAt(data, p, kraftTables()) }
