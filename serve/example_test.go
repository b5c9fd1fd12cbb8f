package serve_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/ecotune/ecotune/serve"
)

// A workbench over a data directory: every request needs the access
// token (the URL `ecotune serve` prints sets a cookie; scripts may send it
// as a bearer token).
func Example() {
	data, _ := os.MkdirTemp("", "ecotune-serve")
	defer os.RemoveAll(data)
	s, err := serve.New(serve.Options{Data: data, Log: io.Discard})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	ts := httptest.NewServer(s)
	defer ts.Close()

	res, _ := http.Get(ts.URL + "/runs")
	res.Body.Close()
	fmt.Println("without the token:", res.Status)

	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/runs", nil)
	req.Header.Set("Authorization", "Bearer "+s.Token())
	res, _ = http.DefaultClient.Do(req)
	res.Body.Close()
	fmt.Println("with it:", res.Status)
	// Output:
	// without the token: 401 Unauthorized
	// with it: 200 OK
}

func ExampleParseSize() {
	n, _ := serve.ParseSize("2GiB")
	fmt.Println(n)
	_, err := serve.ParseSize("2.5GB")
	fmt.Println(err)
	// Output:
	// 2147483648
	// "2.5GB" is not a size such as 2GiB (a whole number of B, KiB, MiB, GiB or TiB)
}
