package datasets_test

import (
	"fmt"
	"log"

	"github.com/ecotune/ecotune/datasets"
)

func ExampleHostList() {
	fmt.Println(datasets.HostList([]string{"cn03", "cn01", "cn02", "cn07", "gpu1"}))
	// Output: cn[01-03,07],gpu1
}

func ExampleExpandHostList() {
	names, err := datasets.ExpandHostList("r[1-2]n[08-09],login")
	fmt.Println(names, err)
	// Output: [r1n08 r1n09 r2n08 r2n09 login] <nil>
}

func ExampleAnonymizer() {
	a, err := datasets.NewAnonymizer([]byte("site secret"))
	if err != nil {
		log.Fatal(err)
	}
	b, _ := datasets.NewAnonymizer([]byte("site secret")) // the same key, another import
	fmt.Println(a.Name(datasets.AnonUser, "alice") == b.Name(datasets.AnonUser, "alice"))
	fmt.Println(len(a.Name(datasets.AnonNode, "cn01")), a.Name(datasets.AnonNode, "cn01")[:2])
	// Output:
	// true
	// 14 n_
}
