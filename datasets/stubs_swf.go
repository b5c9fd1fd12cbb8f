package datasets

// Placeholders, replaced by swf.go.
var (
	detectSWF    = never
	newSWFReader = notImplemented
)
