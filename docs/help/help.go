package help

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.txt
var files embed.FS

// Text is the help text of the command called name: docs/help/NAME.txt
// without its final newline. A name with no file panics: the names are
// the commands' own constants, checked by the tests.
func Text(name string) string {
	b, err := files.ReadFile(name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("help: no text for %q: %v", name, err))
	}
	return strings.TrimSuffix(string(b), "\n")
}

// Names are the commands with a help text, sorted.
func Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		panic(fmt.Sprintf("help: %v", err)) // the embedded directory is always there
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	return names
}
