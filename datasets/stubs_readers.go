package datasets

// Placeholders, each replaced by the file of its format.
var (
	detectLSF    = never
	newLSFReader = notImplemented
	detectOAR    = never
	newOARReader = notImplemented
)
