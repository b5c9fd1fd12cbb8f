package hostlist_test

import (
	"fmt"

	"github.com/ecotune/ecotune/hostlist"
)

func Example() {
	names, err := hostlist.Expand("node[01-03,07],login1")
	if err != nil {
		panic(err)
	}
	fmt.Println(names)
	expr, err := hostlist.Compress(append(names, "node04"))
	if err != nil {
		panic(err)
	}
	fmt.Println(expr)
	// Output:
	// [node01 node02 node03 node07 login1]
	// login1,node[01-04,07]
}
