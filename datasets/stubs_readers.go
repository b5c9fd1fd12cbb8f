package datasets

// Placeholders, each replaced by the file of its format.
var (
	detectPBS    = never
	newPBSReader = notImplemented
	detectUGE    = never
	newUGEReader = notImplemented
	detectSGE    = never
	newSGEReader = notImplemented
	detectLSF    = never
	newLSFReader = notImplemented
	detectOAR    = never
	newOARReader = notImplemented
)
