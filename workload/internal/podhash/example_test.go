package podhash_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/workload/internal/podhash"
)

// The pod-template-hash of a stored template, as the Deployment
// controller names the ReplicaSet web-<hash>.
func Example() {
	d := json.NewDecoder(strings.NewReader(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`))
	d.UseNumber()
	var tpl any
	if err := d.Decode(&tpl); err != nil {
		panic(err)
	}
	h, err := podhash.Hash(tpl, nil)
	fmt.Println(h, err)
	// Output: 66c46c5b67 <nil>
}
